// The gNMI server's own counters reach /metrics through the schema table's
// GatewayMetric rows, exported by the Prometheus northbound.

#include <chrono>
#include <thread>

#include "northbound/gnmi/ietf_scalar.h"
#include "northbound/prometheus/exposition.h"
#include "tests/northbound/gnmi/server_fixture.h"

namespace rdmagw::testing {
using namespace rdmagw::northbound::gnmi;  // the helpers speak the vocabulary of the code they test
namespace {

class GnmiSelfMetricsTest : public GnmiServerFixture {};

bool has(const std::string& text, const std::string& line) {
  return text.find("\n" + line + "\n") != std::string::npos;
}

TEST_F(GnmiSelfMetricsTest, CountersAppearInTheExposition) {
  northbound::prometheus::ExpositionWriter writer;
  EXPECT_EQ(writer.build(store_).find("rdmagw_gnmi_"), std::string::npos);  // no server, no family
  start();
  EXPECT_EQ(last(run(R"({"rpc": "sub", "mode": "ONCE", "target": "leaf01", "subs": [{"path": "/interfaces"}]})")),
            "STATUS OK");
  EXPECT_EQ(last(run(R"({"rpc": "get", "target": "leaf01", "paths": ["/rdma"]})")).rfind("STATUS NOT_FOUND", 0), 0u);
  auto c = spawn(R"({"rpc": "sub", "target": "*", "subs": [{"path": "/", "mode": "ON_CHANGE"}]})");
  c->until("SYNC");
  const std::string text = writer.build(store_);
  EXPECT_TRUE(has(text, "# TYPE rdmagw_gnmi_subscribers gauge")) << text;
  EXPECT_TRUE(has(text, "rdmagw_gnmi_subscribers{mode=\"stream\"} 1")) << text;
  EXPECT_TRUE(has(text, "rdmagw_gnmi_subscribers{mode=\"once\"} 0")) << text;
  // ONCE: one notification of 2 updates; the stream: 3 targets, 6 + 6 + 3 leaves.
  EXPECT_TRUE(has(text, "rdmagw_gnmi_notifications_sent_total 4")) << text;
  EXPECT_TRUE(has(text, "rdmagw_gnmi_updates_sent_total 17")) << text;
  EXPECT_TRUE(has(text, "rdmagw_gnmi_updates_coalesced_total 0")) << text;
  EXPECT_TRUE(has(text, "rdmagw_gnmi_errors_total{rpc=\"get\",code=\"NOT_FOUND\"} 1")) << text;
  // A text where a uint16 belongs: left out of JSON_IETF, counted.
  const uint64_t mismatches = ietfMismatchCount();
  apply("leaf01", {leaf("/interfaces/interface[name=eth1/9]/state/mtu", std::string("jumbo"), kTs2)});
  EXPECT_EQ(last(run(R"({"rpc": "get", "target": "leaf01", "encoding": "JSON_IETF", "paths": ["/interfaces"]})")),
            "STATUS OK");
  EXPECT_EQ(ietfMismatchCount(), mismatches + 1);
  EXPECT_TRUE(has(writer.build(store_), "rdmagw_gnmi_json_ietf_mismatches_total " + std::to_string(mismatches + 1)));
  c.reset();
  server_.reset();
  EXPECT_EQ(writer.build(store_).find("rdmagw_gnmi_"), std::string::npos);
}

constexpr TimestampNs kTs3 = kTs2 + 1'000'000'000;

uint64_t sendLagCount(const ServerStats& stats) {
  uint64_t n = 0;
  for (uint64_t c : stats.change_send_lag.counts()) n += c;
  return n;
}

// The change -> send lag counts ON_CHANGE updates once their notification
// is written, and never the initial set or sampled values (their send time
// is a schedule, not a wait).
TEST_F(GnmiSelfMetricsTest, ChangeSendLagCountsOnlyChangesOnceWritten) {
  start();
  auto sampled = spawn(R"({"rpc": "sub", "target": "leaf01", "subs": [{"path": "/interfaces", "sample_ms": 100}]})");
  auto c = spawn(R"({"rpc": "sub", "target": "leaf01", "subs": [{"path": "/interfaces", "mode": "ON_CHANGE"}]})");
  EXPECT_EQ(c->until("SYNC").size(), 4u);
  EXPECT_EQ(sampled->until("SYNC").size(), 4u);
  EXPECT_EQ(sendLagCount(server_->stats()), 0u);
  apply("leaf01", {leaf(kLeafIn2, uint64_t{99}, kTs3)});
  EXPECT_EQ(c->next(), "N leaf01 " + ts(kTs3));
  EXPECT_EQ(c->next(), "U " + kLeafIn2 + " uint_val 99");
  // OnWriteDone may run just after the client has read: wait for it.
  for (int i = 0; i < 1000 && sendLagCount(server_->stats()) == 0; ++i) {
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  }
  EXPECT_EQ(sendLagCount(server_->stats()), 1u);
  sampled->until("N leaf01 " + ts(kTs3));  // samples went on meanwhile: still one
  EXPECT_EQ(sendLagCount(server_->stats()), 1u);
  northbound::prometheus::ExpositionWriter writer;
  const std::string text = writer.build(store_);
  EXPECT_TRUE(has(text, "rdmagw_gnmi_change_send_lag_updates_total{max_seconds=\"+Inf\"} 1")) << text;
  // The bounds as a reader expects them: shortest decimal text.
  EXPECT_NE(text.find("rdmagw_gnmi_change_send_lag_updates_total{max_seconds=\"0.00025\"} "), std::string::npos) << text;
}

}  // namespace
}  // namespace rdmagw::testing
