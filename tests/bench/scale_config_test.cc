// The scale run's generated config must be one `rdmagw run` accepts as it
// stands, with one target per simulated leaf and host and the northbounds asked.
#include <gtest/gtest.h>

#include "bench/scale_config.h"
#include "gateway/config/config.h"

namespace rdmagw::bench {
namespace {

ScaleGatewaySpec spec(int switches, int hosts) {
  ScaleGatewaySpec s;
  for (int i = 0; i < switches; ++i) {
    s.switches.push_back({"leaf" + std::to_string(i), "127.0.0.1:" + std::to_string(50000 + i), "/tmp/ca dir/ca.pem"});
  }
  for (int i = 0; i < hosts; ++i) s.hosts.push_back({"host" + std::to_string(i), "/tmp/sim/host" + std::to_string(i)});
  s.gnmi_username = "admin";
  s.gnmi_password_file = "/tmp/sim/gnmi-password";
  return s;
}

TEST(ScaleConfigTest, OneTargetPerLeafAndHost) {
  const ScaleGatewaySpec s = spec(3, 5);
  auto cfg = gateway::parseConfig(scaleGatewayYaml(s), "scale.yaml");
  ASSERT_TRUE(cfg.isOk()) << cfg.status().message() << "\n" << scaleGatewayYaml(s);
  ASSERT_EQ(cfg->targets.size(), 8u);
  const gateway::TargetConfig& leaf = cfg->targets[1];
  EXPECT_EQ(leaf.name, "leaf1");
  EXPECT_EQ(leaf.kind, "nexus");
  EXPECT_EQ(leaf.transport, "gnmi");
  EXPECT_EQ(leaf.gnmi.address, "127.0.0.1:50001");
  EXPECT_EQ(leaf.gnmi.ca_file, "/tmp/ca dir/ca.pem");
  EXPECT_EQ(leaf.gnmi.password_file, "/tmp/sim/gnmi-password");
  EXPECT_EQ(leaf.gnmi.sample_interval, std::chrono::seconds(10));
  const gateway::TargetConfig& host = cfg->targets[7];
  EXPECT_EQ(host.name, "host4");
  EXPECT_EQ(host.kind, "rdma-host");
  EXPECT_EQ(host.rdma.sysfs_root, "/tmp/sim/host4/sys");
  EXPECT_EQ(host.rdma.ethtool_dir, "/tmp/sim/host4/ethtool");
  EXPECT_FALSE(cfg->gnmi_enabled);
  EXPECT_FALSE(cfg->snmp_enabled);
}

TEST(ScaleConfigTest, AllThreeNorthboundsWhenAsked) {
  ScaleGatewaySpec s = spec(1, 1);
  s.prometheus_listen = "127.0.0.1:19464";
  s.gnmi_listen = "127.0.0.1:19339";
  s.snmp_agentx_socket = "/tmp/snmpd/agentx.sock";
  s.snmp_state_dir = "/tmp/sim/snmp-state";
  auto cfg = gateway::parseConfig(scaleGatewayYaml(s), "scale.yaml");
  ASSERT_TRUE(cfg.isOk()) << cfg.status().message();
  EXPECT_EQ(cfg->prometheus.listen, "127.0.0.1:19464");
  EXPECT_TRUE(cfg->gnmi_enabled);
  EXPECT_EQ(cfg->gnmi.listen, "127.0.0.1:19339");
  EXPECT_TRUE(cfg->gnmi.insecure);
  EXPECT_TRUE(cfg->snmp_enabled);
  EXPECT_EQ(cfg->snmp.agentx_socket, "/tmp/snmpd/agentx.sock");
  EXPECT_EQ(cfg->snmp.refresh_period, std::chrono::seconds(10));
}

// With the leaves' CLI over SSH: transport auto (gNMI, the CLI beside it)
// with the SSH key; analytics as asked, the RoCE check on or off.
TEST(ScaleConfigTest, SshBesideGnmiAndAnalyticsWhenAsked) {
  ScaleGatewaySpec s = spec(2, 1);
  s.switches[1].ssh_key_file = "/tmp/keys/leaf1";
  s.switches[1].ssh_port = 2222;
  s.switches[1].known_hosts_file = "/tmp/sim/.known_hosts";
  s.analytics = true;
  s.roce_checks = false;
  s.no_drop_priority = 5;
  auto cfg = gateway::parseConfig(scaleGatewayYaml(s), "scale.yaml");
  ASSERT_TRUE(cfg.isOk()) << cfg.status().message() << "\n" << scaleGatewayYaml(s);
  EXPECT_EQ(cfg->targets[0].transport, "gnmi");
  const gateway::TargetConfig& leaf = cfg->targets[1];
  EXPECT_EQ(leaf.transport, "auto");
  EXPECT_EQ(leaf.ssh.port, 2222);
  EXPECT_EQ(leaf.ssh.key_file, "/tmp/keys/leaf1");
  EXPECT_EQ(leaf.ssh.known_hosts_file, "/tmp/sim/.known_hosts");
  EXPECT_EQ(leaf.gnmi.address, "127.0.0.1:50001");
  ASSERT_TRUE(cfg->analytics_enabled);
  EXPECT_FALSE(cfg->analytics.roce_checks);
  EXPECT_EQ(cfg->analytics.no_drop_priorities, std::vector<int>{5});
  EXPECT_EQ(cfg->analytics.period, std::chrono::seconds(10));
}

}  // namespace
}  // namespace rdmagw::bench
