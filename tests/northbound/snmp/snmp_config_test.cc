// SnmpConfig::validate reports every problem, each under its key.

#include "northbound/snmp/snmp_config.h"

#include <gtest/gtest.h>

namespace rdmagw::northbound::snmp {
namespace {

TEST(SnmpConfigTest, DefaultsAreValid) { EXPECT_TRUE(SnmpConfig{}.validate().isOk()); }

TEST(SnmpConfigTest, AcceptsUnixAndTcpSockets) {
  SnmpConfig c;
  for (const char* socket : {"/var/agentx/master", "unix:/run/agentx.sock", "tcp:127.0.0.1:705", "tcp:localhost:7050"}) {
    c.agentx_socket = socket;
    EXPECT_TRUE(c.validate().isOk()) << socket << ": " << c.validate().message();
  }
}

TEST(SnmpConfigTest, ReportsEveryProblem) {
  SnmpConfig c;
  c.agentx_socket = "tcp:127.0.0.1:99999";
  c.state_dir = "";
  c.refresh_period = std::chrono::milliseconds(5);
  Status st = c.validate();
  ASSERT_FALSE(st.isOk());
  EXPECT_NE(st.message().find("agentx_socket: 'tcp:127.0.0.1:99999' has an invalid port"), std::string::npos)
      << st.message();
  EXPECT_NE(st.message().find("state_dir: is empty"), std::string::npos) << st.message();
  EXPECT_NE(st.message().find("refresh_period:"), std::string::npos) << st.message();
  c = SnmpConfig{};
  c.agentx_socket = "agentx.sock";
  EXPECT_NE(c.validate().message().find("absolute unix socket path"), std::string::npos);
}

}  // namespace
}  // namespace rdmagw::northbound::snmp
