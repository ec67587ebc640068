// `northbound.snmp.notifications`: destinations read from YAML, every
// mistake a file:line error naming the key, secrets only as references
// (never inline, never in an error text or in `rdmagw check-config`).

#include <gtest/gtest.h>

#include <cstdlib>

#include "gateway/config/config.h"
#include "gateway/config/snmp_notifications_config.h"
#include "tests/support/test_support.h"

namespace rdmagw::gateway {
namespace {

using northbound::snmp::SnmpNotifyDestination;

constexpr const char* kSecretValue = "s3cret-Community-value";

class SnmpNotificationsConfigTest : public ::testing::Test {
 protected:
  void SetUp() override {
    setenv("RDMAGW_TEST_NOTIFY_COMMUNITY", kSecretValue, 1);
    setenv("RDMAGW_TEST_NOTIFY_AUTH", kSecretValue, 1);
    ASSERT_TRUE(testing::writeFile(dir_.file("priv"), std::string(kSecretValue) + "\n"));
  }
  std::string good() const {
    return R"(northbound:
  snmp:
    agentx_socket: /run/agentx.sock
    notifications:
      - address: nms.example.net
        community_env: RDMAGW_TEST_NOTIFY_COMMUNITY
      - address: "[2001:db8::5]:10162"
        version: 3
        type: inform
        user: rdmagw
        auth_protocol: SHA-256
        auth_passphrase_env: RDMAGW_TEST_NOTIFY_AUTH
        priv_protocol: AES
        priv_passphrase_file: )" +
           dir_.file("priv") + R"(
        retries: 2
        timeout: 3s
)";
  }
  testing::TempDir dir_{"rdmagw-notify-config"};
};

TEST_F(SnmpNotificationsConfigTest, ReadsV2cTrapAndV3InformDestinations) {
  auto cfg = parseConfig(good(), "n.yaml");
  ASSERT_TRUE(cfg.isOk()) << cfg.status().message();
  ASSERT_EQ(cfg->snmp.notifications.size(), 2u);
  const SnmpNotifyDestination& v2 = cfg->snmp.notifications[0];
  EXPECT_EQ(v2.label(), "nms.example.net:162");  // the standard port by default
  EXPECT_EQ(v2.version, SnmpNotifyDestination::Version::kV2c);
  EXPECT_EQ(v2.type, SnmpNotifyDestination::Type::kTrap);
  EXPECT_EQ(v2.community.env, "RDMAGW_TEST_NOTIFY_COMMUNITY");
  const SnmpNotifyDestination& v3 = cfg->snmp.notifications[1];
  EXPECT_EQ(v3.label(), "[2001:db8::5]:10162");
  EXPECT_EQ(v3.version, SnmpNotifyDestination::Version::kV3);
  EXPECT_EQ(v3.type, SnmpNotifyDestination::Type::kInform);
  EXPECT_EQ(v3.auth_protocol, "SHA-256");
  EXPECT_EQ(v3.priv_passphrase.file, dir_.file("priv"));
  EXPECT_EQ(v3.retries, 2);
  EXPECT_EQ(v3.timeout.count(), 3000);
  ASSERT_TRUE(cfg->snmp.read_secret);
  Result<std::string> priv = cfg->snmp.read_secret("priv_passphrase", v3.priv_passphrase);
  ASSERT_TRUE(priv.isOk());
  EXPECT_EQ(*priv, kSecretValue);  // the file's trailing newline trimmed
}

TEST_F(SnmpNotificationsConfigTest, EveryMistakeIsAFileLineErrorAndNoneShowsASecret) {
  const char* text = R"(northbound:
  snmp:
    notifications:
      - address: nms:0
        version: 1
        type: notify
        community: public
      - address: nms
        community_env: RDMAGW_TEST_NOTIFY_UNSET
        retries: 3
      - address: nms
        version: 3
        auth_protocol: MD5
        auth_passphrase_env: RDMAGW_TEST_NOTIFY_AUTH
        priv_passphrase_env: RDMAGW_TEST_NOTIFY_AUTH
      - address: nms
        community_env: RDMAGW_TEST_NOTIFY_COMMUNITY
        community_file: /nonexistent/community
        colour: blue
)";
  auto cfg = parseConfig(text, "n.yaml");
  ASSERT_FALSE(cfg.isOk());
  const std::string m = cfg.status().message();
  const std::string p = "northbound.snmp.notifications";
  EXPECT_NE(m.find("n.yaml:4:18: " + p + "[0].address: 'nms:0': invalid port"), std::string::npos) << m;
  EXPECT_NE(m.find("n.yaml:5:18: " + p + "[0].version: must be 2c or 3"), std::string::npos) << m;
  EXPECT_NE(m.find("n.yaml:6:15: " + p + "[0].type: must be trap or inform"), std::string::npos) << m;
  EXPECT_NE(m.find("n.yaml:7:20: " + p + "[0].community: inline secrets are not allowed"), std::string::npos) << m;
  EXPECT_NE(m.find(p + "[1]: retries and timeout are for type inform"), std::string::npos) << m;
  EXPECT_NE(m.find(p + "[2]: user: version 3 needs a user"), std::string::npos) << m;
  EXPECT_NE(m.find("auth_protocol: must be SHA or SHA-256, not 'MD5'"), std::string::npos) << m;
  EXPECT_NE(m.find("priv_protocol: a priv passphrase needs priv_protocol: AES"), std::string::npos) << m;
  EXPECT_NE(m.find(p + "[3]: give community_env or community_file, not both"), std::string::npos) << m;
  EXPECT_NE(m.find("n.yaml:19:9: " + p + "[3].colour: unknown key"), std::string::npos) << m;
  EXPECT_EQ(m.find(kSecretValue), std::string::npos) << "a secret in an error text: " << m;
  EXPECT_EQ(m.find("public"), std::string::npos) << "the inline community echoed: " << m;

  auto not_a_list = parseConfig("northbound:\n  snmp:\n    notifications: {address: nms}\n", "l.yaml");
  ASSERT_FALSE(not_a_list.isOk());
  EXPECT_NE(not_a_list.status().message().find("l.yaml:3:20: northbound.snmp.notifications: must be a list"),
            std::string::npos) << not_a_list.status().message();
}

TEST_F(SnmpNotificationsConfigTest, CheckConfigExplainsWhereNotificationsGoWithoutTheSecrets) {
  ASSERT_TRUE(testing::writeFile(dir_.file("gw.yaml"), good()));
  testing::CommandResult r = testing::runCommand(std::string(RDMAGW_BIN) + " check-config " + dir_.file("gw.yaml"));
  ASSERT_EQ(r.exit_code, 0) << r.output;
  EXPECT_NE(r.output.find("snmp: AgentX subagent of /run/agentx.sock"), std::string::npos) << r.output;
  EXPECT_NE(r.output.find("notifications (dcqcn-verdict, pause-storm, lossless-drop, pause-tree-state, dcb-consistency, roce-check-group)"),
            std::string::npos) << r.output;
  EXPECT_NE(r.output.find("- nms.example.net:162: SNMPv2c trap, community from $RDMAGW_TEST_NOTIFY_COMMUNITY"),
            std::string::npos) << r.output;
  EXPECT_NE(r.output.find("- [2001:db8::5]:10162: SNMPv3 inform, user rdmagw authPriv SHA-256/AES, passphrases from "
                          "$RDMAGW_TEST_NOTIFY_AUTH and file " + dir_.file("priv") +
                          ", 2 retries of 3000ms (unacknowledged: counted failed)"),
            std::string::npos) << r.output;
  EXPECT_EQ(r.output.find(kSecretValue), std::string::npos) << r.output;
}

}  // namespace
}  // namespace rdmagw::gateway
