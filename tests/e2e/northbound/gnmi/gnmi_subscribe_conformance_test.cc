// Subscribe over the wire, every mode and option, with an independent
// client. Tests that change the store wait for the client's lines (events),
// never for time.

#include <thread>

#include "tests/northbound/gnmi/server_fixture.h"

namespace rdmagw::testing {
using namespace rdmagw::northbound::gnmi;  // the helpers speak the vocabulary of the code they test
namespace {


constexpr TimestampNs kTs3 = kTs2 + 1'000'000'000;

class GnmiSubscribeTest : public GnmiServerFixture {};

TEST_F(GnmiSubscribeTest, OnceSendsUpdatesSyncAndCloses) {
  start();
  Lines out = run(R"({"rpc": "sub", "mode": "ONCE", "target": "*",
                      "subs": [{"path": "/interfaces/interface/state/counters/in-octets"}]})");
  EXPECT_EQ(out, (Lines{"N host01 " + ts(kTs1), "U " + kHostIfIn + " uint_val 100",
                        "N host02 " + ts(kTs1), "U " + kHostIfIn + " uint_val 1000",
                        "N leaf01 " + ts(kTs2), "U " + kLeafIn1 + " uint_val 11", "U " + kLeafIn2 + " uint_val 12",
                        "SYNC", "STATUS OK"}));
  out = run(R"({"rpc": "sub", "mode": "ONCE", "encoding": "JSON_IETF", "target": "host02",
                "subs": [{"path": ")" + kHostXmit + R"("}]})");
  EXPECT_EQ(out, (Lines{"N host02 " + ts(kTs1), "U " + kHostXmit + " json_ietf_val \"1152921504606846983\"",
                        "SYNC", "STATUS OK"}));
  out = run(R"({"rpc": "sub", "mode": "ONCE", "updates_only": true, "target": "*", "subs": [{"path": "/"}]})");
  EXPECT_EQ(out, (Lines{"SYNC", "STATUS OK"}));
}

TEST_F(GnmiSubscribeTest, PollAnswersEachPollWithUpdatesAndSync) {
  start();
  auto c = spawn(R"({"rpc": "sub", "mode": "POLL", "target": "leaf01", "polls": 2, "stop_after_syncs": 3,
                     "subs": [{"path": ")" + kLeafIn1 + R"("}]})");
  EXPECT_EQ(c->until("SYNC"), (Lines{"N leaf01 " + ts(kTs2), "U " + kLeafIn1 + " uint_val 11", "SYNC"}));
  EXPECT_EQ(c->until("SYNC"), (Lines{"N leaf01 " + ts(kTs2), "U " + kLeafIn1 + " uint_val 11", "SYNC"}));
  EXPECT_EQ(c->rest(), (Lines{"N leaf01 " + ts(kTs2), "U " + kLeafIn1 + " uint_val 11", "SYNC", "STATUS OK"}));
}

TEST_F(GnmiSubscribeTest, SampleCarriesCollectionTimestampsAndZeroMeansLowest) {
  start();
  Lines out = run(R"({"rpc": "sub", "target": "leaf01", "count": 5,
                      "subs": [{"path": ")" + kLeafIn1 + R"(", "mode": "SAMPLE", "sample_ms": 0}]})");
  // initial, sync, then samples: the store's timestamp every time, never the send time.
  EXPECT_EQ(out, (Lines{"N leaf01 " + ts(kTs2), "U " + kLeafIn1 + " uint_val 11", "SYNC",
                        "N leaf01 " + ts(kTs2), "U " + kLeafIn1 + " uint_val 11",
                        "N leaf01 " + ts(kTs2), "U " + kLeafIn1 + " uint_val 11",
                        "N leaf01 " + ts(kTs2), "U " + kLeafIn1 + " uint_val 11", "STATUS OK"}));
  EXPECT_EQ(last(run(R"({"rpc": "sub", "target": "leaf01", "subs": [{"path": "/", "sample_ms": 50}]})")),
            "STATUS INVALID_ARGUMENT subscription[0]: sample_interval 50ms is below this server's lowest "
            "sample interval, 100ms");
}

TEST_F(GnmiSubscribeTest, SuppressRedundantSendsOnlyChangesAndHeartbeatsResend) {
  start();
  auto c = spawn(R"({"rpc": "sub", "target": "leaf01", "subs": [{"path": "/interfaces", "sample_ms": 100, "suppress": true}]})");
  EXPECT_EQ(c->until("SYNC").size(), 4u);
  apply("leaf01", {leaf(kLeafIn2, uint64_t{99}, kTs3)});
  EXPECT_EQ(c->next(), "N leaf01 " + ts(kTs3));  // nothing for the unchanged eth1/1
  EXPECT_EQ(c->next(), "U " + kLeafIn2 + " uint_val 99");
  c.reset();
  c = spawn(R"({"rpc": "sub", "target": "leaf01", "count": 3,
                "subs": [{"path": ")" + kLeafIn1 + R"(", "sample_ms": 100, "suppress": true, "heartbeat_ms": 300}]})");
  EXPECT_EQ(c->rest(), (Lines{"N leaf01 " + ts(kTs2), "U " + kLeafIn1 + " uint_val 11", "SYNC",
                              "N leaf01 " + ts(kTs2), "U " + kLeafIn1 + " uint_val 11", "STATUS OK"}));
}

TEST_F(GnmiSubscribeTest, OnChangeSendsChangesThenDeletesOfLeavesInterfacesAndTargets) {
  start();
  auto c = spawn(R"({"rpc": "sub", "target": "*", "subs": [{"path": "/interfaces", "mode": "ON_CHANGE"}]})");
  Lines initial = c->until("SYNC");
  EXPECT_EQ(initial, (Lines{"N host01 " + ts(kTs1), "U " + kHostIfIn + " uint_val 100", "U " + kHostIfOut + " uint_val 200",
                            "N host02 " + ts(kTs1), "U " + kHostIfIn + " uint_val 1000", "U " + kHostIfOut + " uint_val 2000",
                            "N leaf01 " + ts(kTs2), "U " + kLeafIn1 + " uint_val 11", "U " + kLeafIn2 + " uint_val 12",
                            "SYNC"}));
  apply("leaf01", {leaf(kLeafIn1, uint64_t{50}, kTs3), leaf(kLeafQueue, uint64_t{70}, kTs3)});
  EXPECT_EQ(c->next(), "N leaf01 " + ts(kTs3));
  EXPECT_EQ(c->next(), "U " + kLeafIn1 + " uint_val 50");  // the queue leaf is not subscribed
  store_.remove("leaf01", *Path::parse("/interfaces/interface[name=eth1/2]"));
  EXPECT_EQ(c->next().rfind("N leaf01 ", 0), 0u);
  EXPECT_EQ(c->next(), "D " + kLeafIn2);
  store_.expireData("host02");
  EXPECT_EQ(c->next().rfind("N host02 ", 0), 0u);
  EXPECT_EQ(c->next(), "D " + kHostIfIn);
  EXPECT_EQ(c->next(), "D " + kHostIfOut);
  store_.removeTarget("host01");
  EXPECT_EQ(c->next().rfind("N host01 ", 0), 0u);
  EXPECT_EQ(c->next(), "D " + kHostIfIn);
  EXPECT_EQ(c->next(), "D " + kHostIfOut);
  EXPECT_EQ(server_->stats().subscribers_stream.load(), 1);
}

// The writers copy into the hub only what some stream listens to, and
// stop copying once it has gone (change_interest.h).
TEST_F(GnmiSubscribeTest, OnlyChangesAStreamListensToReachTheHub) {
  start();
  const std::atomic<uint64_t>& taken = server_->stats().changes_taken;
  apply("leaf01", {leaf(kLeafIn1, uint64_t{40}, kTs3)});
  EXPECT_EQ(taken.load(), 0u);  // no stream yet
  auto c = spawn(R"({"rpc": "sub", "target": "leaf01", "subs": [{"path": "/interfaces", "mode": "ON_CHANGE"}]})");
  c->until("SYNC");
  apply("leaf01", {leaf(kLeafQueue, uint64_t{71}, kTs3)});  // another subtree
  apply("host01", {leaf(kHostIfIn, uint64_t{101}, kTs3)});  // another target
  EXPECT_EQ(taken.load(), 0u);
  apply("leaf01", {leaf(kLeafIn1, uint64_t{51}, kTs3), leaf(kLeafQueue, uint64_t{72}, kTs3)});
  EXPECT_EQ(taken.load(), 1u);
  EXPECT_EQ(c->next(), "N leaf01 " + ts(kTs3));
  EXPECT_EQ(c->next(), "U " + kLeafIn1 + " uint_val 51");
  c.reset();
  for (int i = 0; i < 3000 && server_->stats().subscribers_stream.load() != 0; ++i) {
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  }
  ASSERT_EQ(server_->stats().subscribers_stream.load(), 0);
  apply("leaf01", {leaf(kLeafIn1, uint64_t{52}, kTs3)});
  EXPECT_EQ(taken.load(), 1u);
}

TEST_F(GnmiSubscribeTest, PathMatchingNothingStaysSubscribed) {
  start();
  auto c = spawn(R"({"rpc": "sub", "target": "newbox", "subs": [{"path": "/interfaces", "mode": "ON_CHANGE"}]})");
  EXPECT_EQ(c->next(), "SYNC");
  apply("newbox", {leaf(kHostIfIn, uint64_t{5}, kTs3)});
  EXPECT_EQ(c->next(), "N newbox " + ts(kTs3));
  EXPECT_EQ(c->next(), "U " + kHostIfIn + " uint_val 5");
}

TEST_F(GnmiSubscribeTest, TargetDefinedSamplesCountersAndSendsStateOnChange) {
  start();
  auto c = spawn(R"({"rpc": "sub", "target": "host01", "encoding": "JSON",
                     "subs": [{"path": "/rdma/devices/device/ports", "mode": "TARGET_DEFINED"}]})");
  EXPECT_EQ(c->until("SYNC").size(), 5u);  // N + state, rate, counter + SYNC
  apply("host01", {leaf(kHostPortState, std::string("DOWN"), kTs3)});
  bool saw_state = false;
  int counter_samples = 0;
  for (int i = 0; i < 200 && !(saw_state && counter_samples >= 2); ++i) {
    const std::string l = c->next();
    ASSERT_FALSE(l.empty());
    saw_state |= l == "U " + kHostPortState + " json_val \"DOWN\"";
    counter_samples += l == "U " + kHostXmit + " json_val 1152921504606846983";
    EXPECT_NE(l, "U " + kHostPortRate + " json_val 100000000000");  // a gauge that did not change: not resent
  }
  EXPECT_TRUE(saw_state);
  EXPECT_GE(counter_samples, 2);
}

TEST_F(GnmiSubscribeTest, ClientKeepalivePingsDoNotEndTheStream) {
  start();
  auto c = spawn(R"({"rpc": "sub", "target": "leaf01", "keepalive_ms": 1000,
                     "subs": [{"path": ")" + kLeafIn1 + R"(", "mode": "ON_CHANGE"}]})");
  EXPECT_EQ(c->until("SYNC").size(), 3u);
  // A quiet stream while the client pings (gRPC's client clamps keepalive
  // to 10 s): with gRPC's default server policy the third ping without data
  // draws GOAWAY "Too many pings" within this wait (checked by removing our
  // ping channel args: the test then fails). Not a timing assertion.
  std::this_thread::sleep_for(std::chrono::seconds(25));
  apply("leaf01", {leaf(kLeafIn1, uint64_t{31}, kTs3)});
  EXPECT_EQ(c->next(), "N leaf01 " + ts(kTs3));
  EXPECT_EQ(c->next(), "U " + kLeafIn1 + " uint_val 31");
}

TEST_F(GnmiSubscribeTest, UpdatesOnlySkipsTheInitialSet) {
  start();
  auto c = spawn(R"({"rpc": "sub", "target": "leaf01", "updates_only": true,
                     "subs": [{"path": "/interfaces", "mode": "ON_CHANGE"}]})");
  EXPECT_EQ(c->next(), "SYNC");
  apply("leaf01", {leaf(kLeafIn2, uint64_t{21}, kTs3)});
  EXPECT_EQ(c->next(), "N leaf01 " + ts(kTs3));
  EXPECT_EQ(c->next(), "U " + kLeafIn2 + " uint_val 21");
}

TEST_F(GnmiSubscribeTest, ProtocolErrors) {
  start();
  EXPECT_EQ(last(run(R"({"rpc": "sub", "first": "poll", "subs": [{"path": "/"}]})")),
            "STATUS INVALID_ARGUMENT the first SubscribeRequest must carry a SubscriptionList");
  EXPECT_EQ(last(run(R"({"rpc": "sub", "first": "empty", "subs": [{"path": "/"}]})")),
            "STATUS INVALID_ARGUMENT the first SubscribeRequest must carry a SubscriptionList");
  EXPECT_EQ(last(run(R"({"rpc": "sub", "target": "leaf01", "then": ["list"],
                         "subs": [{"path": "/interfaces", "mode": "ON_CHANGE"}]})")),
            "STATUS INVALID_ARGUMENT a second SubscriptionList on one Subscribe stream is not allowed");
  EXPECT_EQ(last(run(R"({"rpc": "sub", "target": "leaf01", "then": ["poll"], "subs": [{"path": "/", "mode": "ON_CHANGE"}]})")),
            "STATUS INVALID_ARGUMENT Poll is only valid on a subscription of mode POLL");
  EXPECT_EQ(last(run(R"({"rpc": "sub", "encoding": "BYTES", "subs": [{"path": "/"}]})")),
            "STATUS UNIMPLEMENTED encoding BYTES is not served; use PROTO, JSON or JSON_IETF");
  EXPECT_EQ(last(run(R"({"rpc": "sub", "subs": [{"path": "/interfaces/interface[name=]"}]})")),
            "STATUS INVALID_ARGUMENT subscription[0]: path element 1 \"interface\" key \"name\" has an empty value "
            "(use \"*\" for any)");
  EXPECT_EQ(server_->stats().subscribe_errors[3].load(), 5u);  // 3: INVALID_ARGUMENT
}

TEST_F(GnmiSubscribeTest, JsonIetfUpdatesFollowTheLeafsYangTypeInOnceAndPoll) {
  start();
  const std::string mtu1 = "/interfaces/interface[name=eth1/1]/state/mtu";
  const std::string mtu2 = "/interfaces/interface[name=eth1/2]/state/mtu";
  const std::string pfc = "/interfaces/interface[name=eth1/1]/ethernet/pfc/state/enabled-priorities";
  const std::string unmodeled = "/interfaces/interface[name=eth1/1]/state/driver-private/rx-xoff";
  // uint16 mtu: a JSON number; a text where the uint16 belongs is left out
  // (JSON_IETF only); a leaf no module defines has no RFC 7951 encoding.
  apply("leaf01", {leaf(mtu1, uint64_t{9216}, kTs3), leaf(mtu2, std::string("jumbo"), kTs3),
                   leaf(pfc, uint64_t{8}, kTs3), leaf(unmodeled, uint64_t{5}, kTs3)});
  const std::string subs = R"("subs": [{"path": "/interfaces/interface/state/mtu"},
                                       {"path": "/interfaces/interface/ethernet/pfc/state/enabled-priorities"},
                                       {"path": "/interfaces/interface/state/driver-private"}]})";
  const Lines typed = {"N leaf01 " + ts(kTs3), "U " + mtu1 + " json_ietf_val 9216",
                       "U " + pfc + " json_ietf_val \"8\"", "SYNC"};
  Lines out = run(R"({"rpc": "sub", "mode": "ONCE", "encoding": "JSON_IETF", "target": "leaf01", )" + subs);
  Lines want = typed;
  want.push_back("STATUS OK");
  EXPECT_EQ(out, want);
  auto c = spawn(R"({"rpc": "sub", "mode": "POLL", "encoding": "JSON_IETF", "target": "leaf01", "polls": 1,
                     "stop_after_syncs": 2, )" + subs);
  EXPECT_EQ(c->until("SYNC"), typed);
  EXPECT_EQ(c->until("SYNC"), typed);
  // JSON carries every leaf as the store holds it.
  out = run(R"({"rpc": "sub", "mode": "ONCE", "encoding": "JSON", "target": "leaf01", )" + subs);
  EXPECT_EQ(out.size(), 7u) << ::testing::PrintToString(out);
}

TEST_F(GnmiSubscribeTest, LimitsAnswerResourceExhaustedNamingTheLimit) {
  GnmiServerConfig c = plainConfig();
  c.max_subscriptions_per_client = 3;
  start(c);
  EXPECT_EQ(last(run(R"({"rpc": "sub", "hold_streams": 3, "subs": [{"path": "/", "mode": "ON_CHANGE"}]})")),
            "STATUS RESOURCE_EXHAUSTED client ipv4:127.0.0.1 already has 3 Subscribe streams: "
            "limit northbound.gnmi.limits.max_subscriptions_per_client = 3");
  server_.reset();
  c = plainConfig();
  c.max_subscriptions = 1;
  start(c);
  EXPECT_EQ(last(run(R"({"rpc": "sub", "hold_streams": 1, "subs": [{"path": "/", "mode": "ON_CHANGE"}]})")),
            "STATUS RESOURCE_EXHAUSTED this server already serves 1 Subscribe streams: "
            "limit northbound.gnmi.limits.max_subscriptions = 1");
}

// A collector host (gnmic, Telegraf) opens a stream per subscription, often
// 20 or more, all from one address: the defaults admit them.
TEST_F(GnmiSubscribeTest, TwentyStreamsFromOneClientFitTheDefaults) {
  start();
  const Lines out = run(R"({"rpc": "sub", "hold_streams": 19, "stop_after_syncs": 1,
                            "subs": [{"path": "/interfaces", "mode": "ON_CHANGE"}]})");
  EXPECT_EQ(count(out, "SYNC"), 1) << last(out);
  EXPECT_EQ(last(out), "STATUS OK");
  EXPECT_EQ(server_->stats().subscribe_errors[8].load(), 0u);  // 8: RESOURCE_EXHAUSTED
}

}  // namespace
}  // namespace rdmagw::testing
