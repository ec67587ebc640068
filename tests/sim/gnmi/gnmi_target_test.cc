// The simulated NX-OS gNMI target driven by the generated C++ gNMI stub:
// Capabilities, every Subscribe mode, each quirk on and off, each fault,
// TLS/mTLS and credentials. Waits are generous; no durations are asserted.

#include "sim/gnmi/gnmi_target.h"

#include <gtest/gtest.h>

#include <fstream>
#include <sstream>

#include "sim/gnmi/gnmi_fleet.h"
#include "tests/sim/gnmi/gnmi_test_util.h"

namespace rdmagw::testing {
using namespace rdmagw::sim;  // the helpers speak the vocabulary of the code they test
namespace {

using std::chrono::milliseconds;

constexpr uint64_t kMs = 1000000;  // ns

GnmiTargetOptions fastOptions() {
  GnmiTargetOptions o;
  o.min_sample_interval = milliseconds(100);
  o.quirks.keepalive_interval = milliseconds(0);
  return o;
}

std::string eth(int i) { return "eth1/" + std::to_string(i); }
std::string countersOf(const std::string& ifn) {
  return "/interfaces/interface[name=" + ifn + "]/state/counters";
}

class GnmiTargetTest : public ::testing::Test {
 protected:
  void startTarget(GnmiTargetOptions o = fastOptions()) {
    target_ = std::make_unique<GnmiTarget>("leaf01", o);
    feed_ = std::make_unique<FabricFeed>(target_.get());
    feed_->step();
    ASSERT_TRUE(target_->start().isOk());
    ASSERT_GT(target_->port(), 0);
  }
  void TearDown() override {
    if (feed_) feed_->stopThread();
    target_.reset();
  }
  std::unique_ptr<ClientStream> stream(ClientAuth auth = {}) {
    return std::make_unique<ClientStream>(insecureChannel(*target_), auth);
  }
  grpc::Status capabilities(std::shared_ptr<grpc::Channel> ch, gnmi::CapabilityResponse* resp,
                            ClientAuth auth = {}) {
    auto stub = gnmi::gNMI::NewStub(ch);
    grpc::ClientContext ctx;
    addAuth(&ctx, auth);
    ctx.set_deadline(std::chrono::system_clock::now() + kWait);
    return stub->Capabilities(&ctx, gnmi::CapabilityRequest(), resp);
  }

  std::unique_ptr<GnmiTarget> target_;
  std::unique_ptr<FabricFeed> feed_;
};

TEST_F(GnmiTargetTest, CapabilitiesLikeNxos) {
  startTarget();
  gnmi::CapabilityResponse resp;
  ASSERT_TRUE(capabilities(insecureChannel(*target_), &resp).ok());
  EXPECT_EQ(resp.gnmi_version(), "0.5.0");
  ASSERT_EQ(resp.supported_encodings_size(), 2);
  EXPECT_EQ(resp.supported_encodings(0), gnmi::JSON);
  EXPECT_EQ(resp.supported_encodings(1), gnmi::PROTO);
  std::set<std::string> models;
  for (const auto& m : resp.supported_models()) models.insert(m.name());
  EXPECT_TRUE(models.count("openconfig-interfaces"));
  EXPECT_TRUE(models.count("openconfig-qos"));
  EXPECT_TRUE(models.count("Cisco-NX-OS-device"));
}

TEST_F(GnmiTargetTest, CapabilitiesVersionConfigurable) {
  GnmiTargetOptions o = fastOptions();
  o.gnmi_version = "0.7.0";
  startTarget(o);
  gnmi::CapabilityResponse resp;
  ASSERT_TRUE(capabilities(insecureChannel(*target_), &resp).ok());
  EXPECT_EQ(resp.gnmi_version(), "0.7.0");
}

TEST_F(GnmiTargetTest, OnceSendsTypedLeavesSyncAndCloses) {
  startTarget();
  const Switch sw = feed_->current();
  auto s = stream();
  s->write(subscribeRequest({countersOf(eth(1))}, gnmi::SubscriptionList::ONCE));
  auto ns = s->untilSync();
  ASSERT_TRUE(ns.has_value());
  auto l = leaves(*ns);
  EXPECT_EQ(l.size(), 15u);
  const std::string p = "openconfig:" + countersOf(eth(1));
  ASSERT_TRUE(l.count(p + "/in-octets"));
  EXPECT_EQ(l[p + "/in-octets"].uint_val(), sw.ports[0].in_octets);
  EXPECT_EQ(l[p + "/out-pkts"].uint_val(), sw.ports[0].outPackets());
  auto st = s->status();
  ASSERT_TRUE(st.has_value());
  EXPECT_TRUE(st->ok()) << st->error_message();
}

TEST_F(GnmiTargetTest, WildcardsExpandToEveryEthernetPort) {
  startTarget();
  const Switch sw = feed_->current();
  // Interfaces: every port, ii ones included; output queues: Ethernet ports.
  const int interfaces = int(sw.ports.size());
  int ethernet = 0;
  for (const SwitchPort& p : sw.ports) ethernet += p.kind != PortKind::kInternal;
  auto s = stream();
  s->write(subscribeRequest({"/interfaces/interface[name=*]/state/counters/in-octets",
                             "/qos/interfaces/interface/output/queues/queue[name=c-out-8q-q3]/state/dropped-pkts"},
                            gnmi::SubscriptionList::ONCE));
  auto ns = s->untilSync();
  ASSERT_TRUE(ns.has_value());
  EXPECT_EQ(int(leaves(*ns).size()), interfaces + ethernet);
  for (const auto& [path, v] : leaves(*ns)) EXPECT_EQ(path.find('*'), std::string::npos);
}

TEST_F(GnmiTargetTest, JsonEncodingSendsJsonValPerLeafAndBlob) {
  startTarget();
  const Switch sw = feed_->current();
  auto s = stream();
  const std::string q3 =
      "/System/ipqos-items/queuing-items/policy-items/out-items/intf-items/If-list[name=eth1/1]"
      "/queCmap-items/QueuingStats-list[cmapName=c-out-8q-q3]";
  s->write(subscribeRequest({countersOf(eth(1)) + "/in-octets", q3}, gnmi::SubscriptionList::ONCE,
                            gnmi::SAMPLE, 0, gnmi::JSON));
  auto ns = s->untilSync();
  ASSERT_TRUE(ns.has_value());
  auto l = leaves(*ns);
  EXPECT_EQ(l["openconfig:" + countersOf(eth(1)) + "/in-octets"].json_val(),
            std::to_string(sw.ports[0].in_octets));
  const std::string blob = l["device:" + q3].json_val();
  EXPECT_NE(blob.find("\"dropPackets\":" + std::to_string(sw.ports[0].queues[3].drop_pkts)),
            std::string::npos)
      << blob;
}

TEST_F(GnmiTargetTest, UnsupportedEncodingIsUnimplemented) {
  startTarget();
  auto s = stream();
  s->write(subscribeRequest({"/interfaces"}, gnmi::SubscriptionList::ONCE, gnmi::SAMPLE, 0,
                            gnmi::JSON_IETF));
  auto st = s->status();
  ASSERT_TRUE(st.has_value());
  EXPECT_EQ(st->error_code(), grpc::StatusCode::UNIMPLEMENTED);
}

TEST_F(GnmiTargetTest, StreamSampleValuesRiseAsTheFabricSteps) {
  startTarget();
  feed_->startThread(milliseconds(50));
  auto s = stream();
  const std::string leaf = countersOf(eth(1)) + "/in-octets";
  s->write(subscribeRequest({leaf}, gnmi::SubscriptionList::STREAM, gnmi::SAMPLE, 200 * kMs));
  ASSERT_TRUE(s->untilSync().has_value());
  std::vector<uint64_t> seen;
  while (seen.size() < 4) {
    auto r = s->next();
    ASSERT_TRUE(r.has_value()) << "no sample";
    if (!r->has_update()) continue;
    seen.push_back(r->update().update(0).val().uint_val());
  }
  for (size_t i = 1; i < seen.size(); ++i) EXPECT_GE(seen[i], seen[i - 1]);
  EXPECT_GT(seen.back(), seen.front());
  EXPECT_FALSE(s->status(milliseconds(0)).has_value());  // still streaming
}

TEST_F(GnmiTargetTest, OnChangeSendsFullSetThenChanges) {
  startTarget();
  auto s = stream();
  const std::string dot3 = "/System/intf-items/phys-items/PhysIf-list[id=eth1/1]/dbgDot3Stats-items";
  s->write(subscribeRequest({countersOf(eth(1)), dot3}, gnmi::SubscriptionList::STREAM,
                            gnmi::ON_CHANGE));
  auto first = s->untilSync();
  ASSERT_TRUE(first.has_value());
  EXPECT_EQ(leaves(*first).size(), 16u);  // 15 counters + the dot3 blob
  feed_->step();
  auto r = s->next();
  ASSERT_TRUE(r.has_value() && r->has_update());
  // Octets moved; the pause counters (always 0 in a PFC fabric) did not.
  auto changed = leaves({r->update()});
  EXPECT_TRUE(changed.count("openconfig:" + countersOf(eth(1)) + "/in-octets"));
  EXPECT_FALSE(changed.count("device:" + dot3));
  EXPECT_LT(changed.size(), 15u + 1u);
}

TEST_F(GnmiTargetTest, UpdatesOnlySkipsTheInitialSet) {
  startTarget();
  auto s = stream();
  auto req = subscribeRequest({countersOf(eth(1))}, gnmi::SubscriptionList::STREAM, gnmi::ON_CHANGE);
  req.mutable_subscribe()->set_updates_only(true);
  s->write(req);
  auto first = s->untilSync();
  ASSERT_TRUE(first.has_value());
  EXPECT_TRUE(first->empty());
  feed_->step();
  auto r = s->next();
  ASSERT_TRUE(r.has_value() && r->has_update());
}

TEST_F(GnmiTargetTest, PollAnswersEachPollWithUpdatesAndSync) {
  startTarget();
  auto s = stream();
  const std::string leaf = countersOf(eth(1)) + "/out-octets";
  s->write(subscribeRequest({leaf}, gnmi::SubscriptionList::POLL));
  auto initial = s->untilSync();
  ASSERT_TRUE(initial.has_value());
  const uint64_t v0 = leaves(*initial).begin()->second.uint_val();
  for (int i = 0; i < 3; ++i) {
    feed_->step();
    ASSERT_TRUE(s->poll());
    auto polled = s->untilSync();
    ASSERT_TRUE(polled.has_value());
    ASSERT_EQ(leaves(*polled).size(), 1u);
    EXPECT_GT(leaves(*polled).begin()->second.uint_val(), v0);
  }
}

TEST_F(GnmiTargetTest, PollOutsidePollModeIsInvalid) {
  startTarget();
  auto s = stream();
  ASSERT_TRUE(s->poll());  // first message not a SubscriptionList
  auto st = s->status();
  ASSERT_TRUE(st.has_value());
  EXPECT_EQ(st->error_code(), grpc::StatusCode::INVALID_ARGUMENT);
}

TEST_F(GnmiTargetTest, OriginEchoQuirkOnAndOff) {
  startTarget();
  for (bool echo : {true, false}) {
    GnmiQuirks q = fastOptions().quirks;
    q.echo_origin = echo;
    target_->setQuirks(q);
    auto s = stream();
    s->write(subscribeRequest({countersOf(eth(2)) + "/in-octets"}, gnmi::SubscriptionList::ONCE));
    auto ns = s->untilSync();
    ASSERT_TRUE(ns.has_value() && !ns->empty());
    EXPECT_EQ(ns->at(0).update(0).path().origin(), echo ? "openconfig" : "");
  }
}

TEST_F(GnmiTargetTest, NativeBlobQuirkOnAndOff) {
  startTarget();
  const std::string q = "device:/System/ipqos-items/queuing-items/policy-items/out-items/intf-items"
                        "/If-list[name=eth1/1]/queCmap-items/QueuingStats-list[cmapName=c-out-8q-q3]";
  for (bool blobs : {true, false}) {
    GnmiQuirks qk = fastOptions().quirks;
    qk.native_json_blobs = blobs;
    target_->setQuirks(qk);
    auto s = stream();
    s->write(subscribeRequest({q}, gnmi::SubscriptionList::ONCE));
    auto ns = s->untilSync();
    ASSERT_TRUE(ns.has_value());
    auto l = leaves(*ns);
    if (blobs) {
      ASSERT_EQ(l.size(), 1u);
      EXPECT_EQ(l.begin()->second.value_case(), gnmi::TypedValue::kJsonVal);
    } else {
      ASSERT_EQ(l.size(), 7u);
      EXPECT_TRUE(l.count(q + "/pfcTxPpp"));
      EXPECT_EQ(l[q + "/pfcTxPpp"].value_case(), gnmi::TypedValue::kUintVal);
    }
  }
}

TEST_F(GnmiTargetTest, PrefixRejectedLikeNxosUnlessQuirkOff) {
  startTarget();
  auto req = subscribeRequest({"state/counters/in-octets"}, gnmi::SubscriptionList::ONCE);
  *req.mutable_subscribe()->mutable_prefix() =
      gnmi_tree::parsePath("openconfig:/interfaces/interface[name=eth1/1]");
  {
    auto s = stream();
    s->write(req);
    auto st = s->status();
    ASSERT_TRUE(st.has_value());
    EXPECT_EQ(st->error_code(), grpc::StatusCode::INVALID_ARGUMENT);
  }
  GnmiQuirks q = fastOptions().quirks;
  q.reject_prefix = false;
  target_->setQuirks(q);
  auto s = stream();
  s->write(req);
  auto ns = s->untilSync();
  ASSERT_TRUE(ns.has_value());
  EXPECT_EQ(leaves(*ns).size(), 1u);
}

TEST_F(GnmiTargetTest, NeverSyncQuirk) {
  startTarget();
  GnmiQuirks q = fastOptions().quirks;
  q.never_sync = true;
  target_->setQuirks(q);
  auto s = stream();
  s->write(subscribeRequest({countersOf(eth(1))}, gnmi::SubscriptionList::ONCE));
  int updates = 0;
  while (auto r = s->next()) {
    EXPECT_FALSE(r->has_sync_response());
    updates += r->has_update();
  }
  EXPECT_GT(updates, 0);
  auto st = s->status();
  ASSERT_TRUE(st.has_value());
  EXPECT_TRUE(st->ok());
}

TEST_F(GnmiTargetTest, KeepalivesAreEmptyResponses) {
  GnmiTargetOptions o = fastOptions();
  o.quirks.keepalive_interval = milliseconds(100);
  startTarget(o);
  auto s = stream();
  s->write(subscribeRequest({countersOf(eth(1))}, gnmi::SubscriptionList::STREAM, gnmi::ON_CHANGE));
  ASSERT_TRUE(s->untilSync().has_value());
  int empty = 0;
  while (empty < 3) {
    auto r = s->next();
    ASSERT_TRUE(r.has_value());
    if (r->response_case() == gnmi::SubscribeResponse::RESPONSE_NOT_SET) ++empty;
  }
}

TEST_F(GnmiTargetTest, NoKeepalivesWhenQuirkOff) {
  startTarget();  // keepalive 0
  auto s = stream();
  s->write(subscribeRequest({countersOf(eth(1))}, gnmi::SubscriptionList::STREAM, gnmi::ON_CHANGE));
  ASSERT_TRUE(s->untilSync().has_value());
  EXPECT_FALSE(s->next(milliseconds(1000)).has_value());  // nothing changes, nothing sent
}

TEST_F(GnmiTargetTest, MissingPathKeepsTheStreamOpenAndAppearsLater) {
  GnmiTargetOptions o = fastOptions();
  target_ = std::make_unique<GnmiTarget>("leaf01", o);  // nothing published yet
  ASSERT_TRUE(target_->start().isOk());
  auto s = stream();
  s->write(subscribeRequest({countersOf(eth(1)), countersOf("eth9/99")},
                            gnmi::SubscriptionList::STREAM, gnmi::ON_CHANGE));
  auto first = s->untilSync();
  ASSERT_TRUE(first.has_value());
  EXPECT_TRUE(first->empty());
  EXPECT_FALSE(s->status(milliseconds(300)).has_value());
  feed_ = std::make_unique<FabricFeed>(target_.get());
  feed_->step();
  auto r = s->next();
  ASSERT_TRUE(r.has_value() && r->has_update());
  EXPECT_EQ(r->update().update_size(), 15);
}

TEST_F(GnmiTargetTest, StopRefusesConnectionsAndStartReusesThePort) {
  startTarget();
  const int port = target_->port();
  auto s = stream();
  s->write(subscribeRequest({countersOf(eth(1))}, gnmi::SubscriptionList::STREAM, gnmi::SAMPLE));
  ASSERT_TRUE(s->untilSync().has_value());
  target_->stop();  // with a stream open
  auto st = s->status();
  ASSERT_TRUE(st.has_value());
  EXPECT_EQ(st->error_code(), grpc::StatusCode::UNAVAILABLE);
  gnmi::CapabilityResponse resp;
  EXPECT_EQ(capabilities(insecureChannel(*target_), &resp).error_code(),
            grpc::StatusCode::UNAVAILABLE);
  ASSERT_TRUE(target_->start().isOk());
  EXPECT_EQ(target_->port(), port);
  EXPECT_TRUE(capabilities(insecureChannel(*target_), &resp).ok());
}

TEST_F(GnmiTargetTest, ResetAfterNUpdates) {
  startTarget();
  target_->setResetAfterUpdates(3);
  feed_->startThread(milliseconds(50));
  auto s = stream();
  s->write(subscribeRequest({countersOf(eth(1))}, gnmi::SubscriptionList::STREAM, gnmi::SAMPLE,
                            100 * kMs));
  int updates = 0;
  while (auto r = s->next()) updates += r->has_update();
  EXPECT_EQ(updates, 3);
  auto st = s->status();
  ASSERT_TRUE(st.has_value());
  EXPECT_EQ(st->error_code(), grpc::StatusCode::UNAVAILABLE);
}

TEST_F(GnmiTargetTest, ResetStreamsEndsOpenStreams) {
  startTarget();
  auto s = stream();
  s->write(subscribeRequest({countersOf(eth(1))}, gnmi::SubscriptionList::STREAM, gnmi::ON_CHANGE));
  ASSERT_TRUE(s->untilSync().has_value());
  target_->resetStreams();
  auto st = s->status();
  ASSERT_TRUE(st.has_value());
  EXPECT_EQ(st->error_code(), grpc::StatusCode::UNAVAILABLE);
}

TEST_F(GnmiTargetTest, UnimplementedFaults) {
  startTarget();
  target_->setSubscribeUnimplemented(true);
  target_->setCapabilitiesUnimplemented(true);
  gnmi::CapabilityResponse resp;
  EXPECT_EQ(capabilities(insecureChannel(*target_), &resp).error_code(),
            grpc::StatusCode::UNIMPLEMENTED);
  {
    auto s = stream();
    s->write(subscribeRequest({"/interfaces"}, gnmi::SubscriptionList::ONCE));
    auto st = s->status();
    ASSERT_TRUE(st.has_value());
    EXPECT_EQ(st->error_code(), grpc::StatusCode::UNIMPLEMENTED);
  }
  target_->setSubscribeUnimplemented(false);
  target_->setCapabilitiesUnimplemented(false);
  EXPECT_TRUE(capabilities(insecureChannel(*target_), &resp).ok());
}

TEST_F(GnmiTargetTest, StallSendsNothingUntilReleased) {
  startTarget();
  target_->setStall(true);
  auto s = stream();
  s->write(subscribeRequest({countersOf(eth(1))}, gnmi::SubscriptionList::STREAM, gnmi::SAMPLE,
                            100 * kMs));
  EXPECT_FALSE(s->next(milliseconds(1000)).has_value());
  EXPECT_FALSE(s->status(milliseconds(0)).has_value());  // open
  EXPECT_EQ(target_->openStreams(), 1);
  target_->setStall(false);
  EXPECT_TRUE(s->untilSync().has_value());
}

TEST_F(GnmiTargetTest, CredentialsRequired) {
  GnmiTargetOptions o = fastOptions();
  o.username = "admin";
  o.password = "secret";
  startTarget(o);
  gnmi::CapabilityResponse resp;
  EXPECT_EQ(capabilities(insecureChannel(*target_), &resp).error_code(),
            grpc::StatusCode::UNAUTHENTICATED);
  EXPECT_EQ(capabilities(insecureChannel(*target_), &resp, {"admin", "wrong"}).error_code(),
            grpc::StatusCode::UNAUTHENTICATED);
  EXPECT_TRUE(capabilities(insecureChannel(*target_), &resp, {"admin", "secret"}).ok());
  {
    auto s = stream({"admin", "nope"});
    s->write(subscribeRequest({"/interfaces"}, gnmi::SubscriptionList::ONCE));
    auto st = s->status();
    ASSERT_TRUE(st.has_value());
    EXPECT_EQ(st->error_code(), grpc::StatusCode::UNAUTHENTICATED);
  }
  auto s = stream({"admin", "secret"});
  s->write(subscribeRequest({countersOf(eth(1))}, gnmi::SubscriptionList::ONCE));
  EXPECT_TRUE(s->untilSync().has_value());
}

std::string slurp(const std::string& path) {
  std::ifstream in(path);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

std::shared_ptr<grpc::Channel> tlsChannel(const GnmiTarget& t, bool client_cert, bool trusted = true) {
  grpc::SslCredentialsOptions o;
  o.pem_root_certs = slurp(t.tlsFiles().ca_cert);
  if (client_cert) {
    o.pem_cert_chain = slurp(trusted ? t.tlsFiles().client_cert : t.tlsFiles().untrusted_client_cert);
    o.pem_private_key = slurp(trusted ? t.tlsFiles().client_key : t.tlsFiles().untrusted_client_key);
  }
  return grpc::CreateChannel(t.address(), grpc::SslCredentials(o));
}

TEST_F(GnmiTargetTest, TlsWithSelfSignedCa) {
  GnmiTargetOptions o = fastOptions();
  o.tls = GnmiTls::kTls;
  startTarget(o);
  gnmi::CapabilityResponse resp;
  EXPECT_TRUE(capabilities(tlsChannel(*target_, false), &resp).ok());
  EXPECT_FALSE(capabilities(insecureChannel(*target_), &resp).ok());
  ClientStream s(tlsChannel(*target_, false));
  s.write(subscribeRequest({countersOf(eth(1))}, gnmi::SubscriptionList::ONCE));
  EXPECT_TRUE(s.untilSync().has_value());
}

TEST_F(GnmiTargetTest, MutualTlsRequiresACaSignedClientCert) {
  GnmiTargetOptions o = fastOptions();
  o.tls = GnmiTls::kMutualTls;
  startTarget(o);
  gnmi::CapabilityResponse resp;
  EXPECT_TRUE(capabilities(tlsChannel(*target_, true), &resp).ok());
  EXPECT_FALSE(capabilities(tlsChannel(*target_, false), &resp).ok());
  EXPECT_FALSE(capabilities(tlsChannel(*target_, true, /*trusted=*/false), &resp).ok());
}

TEST_F(GnmiTargetTest, ManyConcurrentSubscribers) {
  startTarget();
  feed_->startThread(milliseconds(50));
  std::vector<std::unique_ptr<ClientStream>> streams;
  auto ch = insecureChannel(*target_);
  for (int i = 0; i < 40; ++i) {
    streams.push_back(std::make_unique<ClientStream>(ch));
    streams.back()->write(subscribeRequest({"/interfaces/interface/state/counters/in-octets"},
                                           gnmi::SubscriptionList::STREAM, gnmi::SAMPLE, 100 * kMs));
  }
  for (auto& s : streams) ASSERT_TRUE(s->untilSync().has_value());
  EXPECT_EQ(target_->openStreams(), 40);
  for (auto& s : streams) {
    auto r = s->next();
    ASSERT_TRUE(r.has_value());
  }
  target_->stop();  // returns with 40 open streams
  for (auto& s : streams) EXPECT_TRUE(s->status().has_value());
}

}  // namespace
}  // namespace rdmagw::testing

namespace rdmagw::testing {
namespace {

TEST(GnmiFleetTest, OneTargetPerLeafEachServingItsOwnCounters) {
  FabricConfig cfg;
  cfg.switches = 2;
  Fabric fabric(cfg);
  fabric.step();
  GnmiTargetOptions o;
  o.quirks.keepalive_interval = std::chrono::milliseconds(0);
  GnmiFleet fleet(fabric.switches(), o);
  ASSERT_TRUE(fleet.start().isOk());
  fleet.publish(fabric, 1000);
  ASSERT_EQ(fleet.size(), 2u);
  EXPECT_NE(fleet.target(0).port(), fleet.target(1).port());
  for (size_t i = 0; i < fleet.size(); ++i) {
    GnmiTarget* t = fleet.find(fabric.switches()[i].name);
    ASSERT_EQ(t, &fleet.target(i));
    ClientStream s(insecureChannel(*t));
    s.write(subscribeRequest({"/interfaces/interface[name=eth1/1]/state/counters/in-octets"},
                             gnmi::SubscriptionList::ONCE));
    auto ns = s.untilSync();
    ASSERT_TRUE(ns.has_value() && ns->size() == 1u);
    EXPECT_EQ(ns->at(0).update(0).val().uint_val(), fabric.switches()[i].ports[0].in_octets);
    EXPECT_EQ(ns->at(0).timestamp(), 1000);
  }
  fleet.stop();
}

// A client that trusts the fleet's one CA reaches every target over TLS
// (a client configured with one ca_file for the whole fabric, as the demo's
// gateway is); a target's own CA is that CA.
TEST(GnmiFleetTest, OneCaSignsEveryTargetsCertificate) {
  FabricConfig cfg;
  cfg.switches = 3;
  Fabric fabric(cfg);
  GnmiTargetOptions o;
  o.tls = GnmiTls::kTls;
  o.quirks.keepalive_interval = std::chrono::milliseconds(0);
  GnmiFleet fleet(fabric.switches(), o);
  ASSERT_TRUE(fleet.start().isOk());
  ASSERT_FALSE(fleet.caFile().empty());
  grpc::SslCredentialsOptions trust;
  trust.pem_root_certs = slurp(fleet.caFile());
  ASSERT_FALSE(trust.pem_root_certs.empty());
  for (size_t i = 0; i < fleet.size(); ++i) {
    EXPECT_EQ(fleet.target(i).tlsFiles().ca_cert, fleet.caFile());
    auto stub = gnmi::gNMI::NewStub(grpc::CreateChannel(fleet.target(i).address(), grpc::SslCredentials(trust)));
    grpc::ClientContext ctx;
    ctx.set_deadline(std::chrono::system_clock::now() + kWait);
    gnmi::CapabilityResponse resp;
    const grpc::Status st = stub->Capabilities(&ctx, gnmi::CapabilityRequest(), &resp);
    EXPECT_TRUE(st.ok()) << fleet.target(i).switchName() << ": " << st.error_message();
  }
  fleet.stop();
}

}  // namespace
}  // namespace rdmagw::testing
