#include "gateway/config/analytics_config_reader.h"

#include <gtest/gtest.h>

#include "gateway/config/config.h"

namespace rdmagw::gateway {
namespace {

const char* const kTargets = R"(targets:
  - {name: leaf1, kind: nexus, transport: gnmi, address: 192.0.2.1, gnmi: {plaintext: true}}
  - {name: host1, kind: rdma-host}
  - {name: esx1, kind: esxi, address: esx1.example, credentials: {username: root, key_file: /k}}
)";

TEST(AnalyticsConfigReaderTest, ReadsPeriodWindowPrioritiesAndLinks) {
  const std::string yaml = std::string(kTargets) + R"(analytics:
  period: 5s
  window: 30s
  no_drop_priorities: [3, 4]
  links:
    - a: {target: leaf1, interface: Ethernet1/1}
      b: {target: host1, rdma_port: mlx5_0/1}
    - a: {target: leaf1, interface: Ethernet1/2}
      b: {target: esx1, nic: vmnic4}
)";
  auto cfg = parseConfig(yaml, "a.yaml");
  ASSERT_TRUE(cfg.isOk()) << cfg.status().message();
  ASSERT_TRUE(cfg->analytics_enabled);
  const analytics::AnalyticsConfig& a = cfg->analytics;
  EXPECT_EQ(a.period, std::chrono::milliseconds(5000));
  EXPECT_EQ(a.window, std::chrono::milliseconds(30000));
  EXPECT_EQ(a.no_drop_priorities, (std::vector<int>{3, 4}));
  ASSERT_EQ(a.links.size(), 2u);
  EXPECT_EQ(a.links[0].b.kind, analytics::LinkEnd::Kind::kRdmaPort);
  EXPECT_EQ(a.links[0].b.device(), "mlx5_0");
  EXPECT_EQ(a.links[0].b.port(), "1");
  EXPECT_EQ(a.links[1].b.kind, analytics::LinkEnd::Kind::kNic);
  EXPECT_EQ(a.links[1].b.toString(), "esx1:vmnic4");
}

TEST(AnalyticsConfigReaderTest, NoBlockNoStage) {
  auto cfg = parseConfig(kTargets, "a.yaml");
  ASSERT_TRUE(cfg.isOk()) << cfg.status().message();
  EXPECT_FALSE(cfg->analytics_enabled);
}

TEST(AnalyticsConfigReaderTest, RoceChecksAreOnUnlessTurnedOff) {
  auto on = parseConfig(std::string(kTargets) + "analytics: {period: 5s}\n", "a.yaml");
  ASSERT_TRUE(on.isOk()) << on.status().message();
  EXPECT_TRUE(on->analytics.roce_checks);
  auto off = parseConfig(std::string(kTargets) + "analytics: {roce_checks: false}\n", "a.yaml");
  ASSERT_TRUE(off.isOk()) << off.status().message();
  EXPECT_FALSE(off->analytics.roce_checks);
  auto bad = parseConfig(std::string(kTargets) + "analytics: {roce_checks: maybe}\n", "a.yaml");
  ASSERT_FALSE(bad.isOk());
  EXPECT_NE(bad.status().message().find("analytics.roce_checks"), std::string::npos) << bad.status().message();
}

// Every problem at once, each with file:line:col and key path.
TEST(AnalyticsConfigReaderTest, ReadsThePauseStormThresholds) {
  const std::string yaml = std::string(kTargets) + R"(analytics:
  pause_storm: {paused_percent: 80, for: 2m}
)";
  auto cfg = parseConfig(yaml, "a.yaml");
  ASSERT_TRUE(cfg.isOk()) << cfg.status().message();
  EXPECT_EQ(cfg->analytics.pause_storm_percent, 80);
  EXPECT_EQ(cfg->analytics.pause_storm_for, std::chrono::milliseconds(120000));

  auto bad = parseConfig(std::string(kTargets) + R"(analytics:
  pause_storm: {paused_percent: 0, after: 1s}
)", "b.yaml");
  ASSERT_FALSE(bad.isOk());
  const std::string m = bad.status().message();
  EXPECT_NE(m.find("analytics.pause_storm.paused_percent"), std::string::npos) << m;
  EXPECT_NE(m.find("analytics.pause_storm.after: unknown key"), std::string::npos) << m;
}

TEST(AnalyticsConfigReaderTest, EveryErrorWithItsPlace) {
  const std::string yaml = std::string(kTargets) + R"(analytics:
  period: 10s
  window: 15s
  no_drop_priorities: [3, 9]
  colour: blue
  links:
    - a: {target: leaf2, interface: Ethernet1/1}
      b: {target: host1, rdma_port: mlx5_0}
    - a: {target: leaf1, interface: Ethernet1/2, nic: vmnic1}
      b: {target: leaf1, rdma_port: mlx5_0/1}
    - a: {target: leaf1, interface: Ethernet1/3}
      b: {target: host1, nic: vmnic1}
    - a: {target: leaf1, interface: Ethernet1/4}
      b: {target: host1, interface: ens1}
    - a: {target: leaf1, interface: Ethernet1/4}
      b: {target: host1, interface: ens2}
    - a: {target: leaf1, interface: Ethernet1/5}
)";
  auto cfg = parseConfig(yaml, "bad.yaml");
  ASSERT_FALSE(cfg.isOk());
  const std::string m = cfg.status().message();
  EXPECT_NE(m.find("bad.yaml:8:27: analytics.no_drop_priorities[1]: must be a priority 0..7"), std::string::npos) << m;
  EXPECT_NE(m.find("bad.yaml:9:3: analytics.colour: unknown key"), std::string::npos) << m;
  EXPECT_NE(m.find("bad.yaml:11:19: analytics.links[0].a.target: no target named \"leaf2\" in targets"), std::string::npos) << m;
  EXPECT_NE(m.find("bad.yaml:12:37: analytics.links[0].b.rdma_port: \"mlx5_0\" is not <device>/<port>"), std::string::npos) << m;
  EXPECT_NE(m.find("bad.yaml:13:10: analytics.links[1].a: give exactly one of interface, rdma_port or nic"), std::string::npos) << m;
  EXPECT_NE(m.find("bad.yaml:14:37: analytics.links[1].b.rdma_port: only on an rdma-host target (leaf1 is nexus)"), std::string::npos) << m;
  EXPECT_NE(m.find("bad.yaml:16:31: analytics.links[2].b.nic: only on an esxi target (host1 is rdma-host)"), std::string::npos) << m;
  EXPECT_NE(m.find("bad.yaml:19:10: analytics.links[4].a: leaf1:Ethernet1/4 is already cabled at analytics.links[3].a"), std::string::npos) << m;
  EXPECT_NE(m.find("bad.yaml:21:7: analytics.links[5].b: required key is missing"), std::string::npos) << m;
  EXPECT_NE(m.find("bad.yaml:6:3: analytics: window must be at least twice the period"), std::string::npos) << m;
}

TEST(AnalyticsConfigReaderTest, ALinkNeedsTwoDifferentEnds) {
  const std::string yaml = std::string(kTargets) + R"(analytics:
  links:
    - a: {target: leaf1, interface: Ethernet1/1}
      b: {target: leaf1, interface: Ethernet1/1}
)";
  auto cfg = parseConfig(yaml, "loop.yaml");
  ASSERT_FALSE(cfg.isOk());
  EXPECT_NE(cfg.status().message().find("analytics.links[0].b: leaf1:Ethernet1/1 is already cabled at analytics.links[0].a"),
            std::string::npos) << cfg.status().message();
}

TEST(AnalyticsConfigReaderTest, ReadsLldpNames) {
  const std::string yaml = std::string(kTargets) + R"(analytics:
  lldp_names:
    gpu17.lab.example.com: host1
    N9K-LEAF-1: leaf1
)";
  auto cfg = parseConfig(yaml, "names.yaml");
  ASSERT_TRUE(cfg.isOk()) << cfg.status().message();
  EXPECT_EQ(cfg->analytics.lldp_names,
            (std::map<std::string, std::string>{{"gpu17.lab.example.com", "host1"}, {"N9K-LEAF-1", "leaf1"}}));
}

TEST(AnalyticsConfigReaderTest, LldpNamesErrorsWithTheirPlace) {
  auto cfg = parseConfig(std::string(kTargets) + R"(analytics:
  lldp_names:
    gpu17.lab.example.com: host9
    other: [host1]
)", "names.yaml");
  ASSERT_FALSE(cfg.isOk());
  const std::string m = cfg.status().message();
  EXPECT_NE(m.find("names.yaml:7:28: analytics.lldp_names.gpu17.lab.example.com: no target named \"host9\" in targets"),
            std::string::npos) << m;
  EXPECT_NE(m.find("names.yaml:8:5: analytics.lldp_names: each entry is a system name and a target name"),
            std::string::npos) << m;
  cfg = parseConfig(std::string(kTargets) + "analytics:\n  lldp_names: [host1]\n", "list.yaml");
  ASSERT_FALSE(cfg.isOk());
  EXPECT_NE(cfg.status().message().find("list.yaml:6:15: analytics.lldp_names: must be a map"), std::string::npos)
      << cfg.status().message();
}

TEST(AnalyticsConfigReaderTest, CheckConfigExplainsTheStage) {
  analytics::AnalyticsConfig c;
  c.links.resize(2);
  EXPECT_EQ(explainAnalytics(c),
            "  analytics: every 10000ms over a 60000ms window, 2 static link(s) (LLDP for the other ports, 0 "
            "lldp_names), lossless priorities 3 where a "
            "switch does not say, pause storm at 90% paused for 30000ms\n");
}

}  // namespace
}  // namespace rdmagw::gateway
