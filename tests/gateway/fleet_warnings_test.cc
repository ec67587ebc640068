#include "gateway/fleet/fleet_warnings.h"

#include <gtest/gtest.h>

#include "tests/support/test_support.h"

namespace rdmagw::gateway {
namespace {

GatewayConfig parsed(const std::string& yaml) {
  auto cfg = parseConfig(yaml, "gw.yaml");
  EXPECT_TRUE(cfg.isOk()) << cfg.status().message();
  return cfg.isOk() ? *cfg : GatewayConfig{};
}

const char* kCluster = "cluster:\n  endpoints: [\"http://127.0.0.1:2379\"]\n  name: f\n  member: m1\n";

TEST(FleetWarningsTest, SnmpInAFleetWithoutAnAdvertisedSnmpAddressIsSaid) {
  const std::string snmp = "northbound:\n  snmp: {agentx_socket: /tmp/agentx}\n";
  std::vector<std::string> w = fleetWarnings(parsed(snmp + kCluster));
  ASSERT_EQ(w.size(), 1u);
  EXPECT_NE(w[0].find("cluster.advertise.snmp"), std::string::npos) << w[0];
  EXPECT_TRUE(fleetWarnings(parsed(snmp + kCluster + "  advertise: {snmp: \"10.0.0.5:161\"}\n")).empty());
  EXPECT_TRUE(fleetWarnings(parsed(snmp)).empty()) << "outside a fleet nothing is missing";
}

TEST(FleetWarningsTest, SequentialIfIndexInAFleetIsSaid) {
  const std::string snmp = "northbound:\n  snmp: {agentx_socket: /tmp/agentx";
  const std::string advertised = std::string(kCluster) + "  advertise: {snmp: \"10.0.0.5:161\"}\n";
  std::vector<std::string> w = fleetWarnings(parsed(snmp + ", if_index: sequential}\n" + advertised));
  ASSERT_EQ(w.size(), 1u);
  EXPECT_NE(w[0].find("northbound.snmp.if_index: sequential in a fleet"), std::string::npos) << w[0];
  EXPECT_TRUE(fleetWarnings(parsed(snmp + "}\n" + advertised)).empty()) << "a fleet derives by default";
  EXPECT_TRUE(fleetWarnings(parsed(snmp + ", if_index: derived}\n" + advertised)).empty());
  EXPECT_TRUE(fleetWarnings(parsed(snmp + ", if_index: sequential}\n")).empty()) << "alone: the default";
}

TEST(FleetWarningsTest, AnalyticsWithoutGnmiOrWithGnmiUsersAndNoMemberIdentityCannotJudgeCrossMemberLinks) {
  testing::TempDir dir("rdmagw-fleet-warnings");
  ASSERT_TRUE(testing::writeFile(dir.file("secret"), "0123456789abcdef0123456789abcdef\n"));
  const std::string identity = "  member_secret_file: " + dir.file("secret") + "\n";
  const std::string analytics = "analytics:\n  period: 1s\n";
  std::vector<std::string> w = fleetWarnings(parsed(analytics + kCluster));
  ASSERT_EQ(w.size(), 1u);
  EXPECT_NE(w[0].find("without northbound.gnmi"), std::string::npos) << w[0];
  const std::string gnmi = "northbound:\n  gnmi: {listen: \"127.0.0.1:9339\", insecure: true";
  EXPECT_TRUE(fleetWarnings(parsed(analytics + gnmi + "}\n" + kCluster + identity)).empty());
  const std::string users = ", users_env: RDMAGW_GNMI_USERS}\n";
  EXPECT_TRUE(fleetWarnings(parsed(analytics + gnmi + users + kCluster + identity)).empty());
  w = fleetWarnings(parsed(analytics + gnmi + users + kCluster));
  ASSERT_EQ(w.size(), 2u);
  EXPECT_NE(w[0].find("gNMI users but no member identity"), std::string::npos) << w[0];
  EXPECT_NE(w[1].find("max_subscriptions_per_client"), std::string::npos) << w[1];
}

TEST(FleetWarningsTest, GnmiInAFleetWithoutMemberIdentityCountsForwardedStreamsAsTheMember) {
  const std::string gnmi = "northbound:\n  gnmi: {listen: \"127.0.0.1:9339\", insecure: true}\n";
  std::vector<std::string> w = fleetWarnings(parsed(gnmi + kCluster));
  ASSERT_EQ(w.size(), 1u);
  EXPECT_NE(w[0].find("without a member identity"), std::string::npos) << w[0];
  EXPECT_TRUE(fleetWarnings(parsed(gnmi)).empty()) << "outside a fleet nothing is missing";
}

TEST(FleetWarningsTest, AMissingOrShortMemberSecretIsAConfigErrorThatNeverShowsTheSecret) {
  testing::TempDir dir("rdmagw-fleet-warnings");
  ASSERT_TRUE(testing::writeFile(dir.file("short"), "short-secret\n"));
  auto missing = parseConfig(std::string(kCluster) + "  member_secret_file: " + dir.file("none") + "\n", "gw.yaml");
  ASSERT_FALSE(missing.isOk());
  EXPECT_NE(missing.status().message().find("cluster.member_secret_file: cannot read " + dir.file("none")),
            std::string::npos)
      << missing.status().message();
  auto short_secret =
      parseConfig(std::string(kCluster) + "  member_secret_file: " + dir.file("short") + "\n", "gw.yaml");
  ASSERT_FALSE(short_secret.isOk());
  EXPECT_NE(short_secret.status().message().find("fewer than 16 bytes"), std::string::npos)
      << short_secret.status().message();
  EXPECT_EQ(short_secret.status().message().find("short-secret\n"), std::string::npos);
}

}  // namespace
}  // namespace rdmagw::gateway
