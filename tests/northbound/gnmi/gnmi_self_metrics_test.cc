// The gNMI server's own counters reach /metrics through the schema table's
// GatewayMetric rows, exported by the Prometheus northbound.

#include "northbound/prometheus/exposition.h"
#include "tests/northbound/gnmi/server_fixture.h"

namespace rdmagw::northbound::gnmi_server::testing {
namespace {

class GnmiSelfMetricsTest : public GnmiServerFixture {};

bool has(const std::string& text, const std::string& line) {
  return text.find("\n" + line + "\n") != std::string::npos;
}

TEST_F(GnmiSelfMetricsTest, CountersAppearInTheExposition) {
  ExpositionWriter writer;
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
  c.reset();
  server_.reset();
  EXPECT_EQ(writer.build(store_).find("rdmagw_gnmi_"), std::string::npos);
}

}  // namespace
}  // namespace rdmagw::northbound::gnmi_server::testing
