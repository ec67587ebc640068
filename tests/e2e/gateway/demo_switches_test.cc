// `rdmagw-demo` with several leaves (the real binary, as an operator runs
// it): every simulated switch streams over gNMI, none is left on the SSH
// fallback, and whatever gRPC says reaches stderr in the gateway's format.
// With --nexus-transport nxapi every leaf is read over NX-API instead, and a
// leaf's NX-API answers the curl line the demo prints.

#include <gtest/gtest.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <fcntl.h>

#include <regex>
#include <sstream>
#include <string>

#include "tests/support/test_support.h"

namespace {

using rdmagw::testing::TempDir;

constexpr int kSwitches = 3;

std::string leafName(int i) { return "leaf0" + std::to_string(i); }

TEST(DemoSwitchesTest, EveryLeafStreamsOverGnmi) {
  if (geteuid() != 0) GTEST_SKIP() << "the simulated switches' sshd needs root";
  TempDir tmp("rdmagw-demo-switches");
  const std::string log_file = tmp.file("stderr.log");
  const int port = rdmagw::testing::freeLoopbackPort();
  pid_t pid = fork();
  ASSERT_GE(pid, 0);
  if (pid == 0) {
    const int fd = ::open(log_file.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0600);
    if (fd >= 0) ::dup2(fd, STDERR_FILENO);
    const std::string listen = "127.0.0.1:" + std::to_string(port);
    const std::string dir = tmp.file("sim");
    const std::string switches = std::to_string(kSwitches);
    execl(RDMAGW_DEMO_BIN, RDMAGW_DEMO_BIN, "--switches", switches.c_str(), "--hosts", "2", "--esxi", "0",
          "--period", "200ms", "--interval", "300ms", "--listen", listen.c_str(), "--gnmi-listen", "off",
          "--snmp", "off", "--dir", dir.c_str(), static_cast<char*>(nullptr));
    _exit(127);
  }
  const std::string url = "http://127.0.0.1:" + std::to_string(port) + "/metrics";
  std::string body;
  // Up, on gNMI, and gNMI notifications received from it: target_info alone
  // says gNMI before the first connect too, while its handshake still fails.
  auto onGnmi = [&body](int i) {
    const std::string t = "target=\"" + leafName(i) + "\"";
    const std::regex received("rdmagw_gnmi_source_notifications_received_total\\{" + t + "[^}]*\\} [1-9]");
    const std::regex up("rdmagw_target_up\\{" + t + "[^}]*\\} 1\n");
    return body.find("rdmagw_target_info{" + t + ",kind=\"nexus\",transport=\"gnmi\"") != std::string::npos &&
           std::regex_search(body, up) && std::regex_search(body, received);
  };
  const bool all = rdmagw::testing::waitUntil(
      [&] {
        body = rdmagw::testing::httpGet(url);
        for (int i = 1; i <= kSwitches; ++i) {
          if (!onGnmi(i)) return false;
        }
        return true;
      },
      rdmagw::testing::kEventWait, std::chrono::milliseconds(250));
  for (int i = 1; i <= kSwitches; ++i) {
    EXPECT_TRUE(onGnmi(i)) << leafName(i) << " does not stream over gNMI";
  }
  if (!all) {
    std::istringstream lines(body);
    for (std::string line; std::getline(lines, line);) {
      if (line.find("target=\"leaf") != std::string::npos &&
          (line.rfind("rdmagw_target_info{", 0) == 0 || line.rfind("rdmagw_target_up{", 0) == 0 ||
           line.rfind("rdmagw_gnmi_source_notifications_received_total{", 0) == 0)) {
        ADD_FAILURE() << line;
      }
    }
  }

  const std::optional<int> stopped = rdmagw::testing::interruptChild(pid);
  ASSERT_TRUE(stopped) << "demo did not stop on SIGINT";
  const int status = *stopped;
  EXPECT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == 0);

  // gRPC's own format is "E1125 16:32:21.781339844 23888 file.cc:1501] ...";
  // every line must be the gateway's ("2026-11-25T16:32:21.781Z WARN  [grpc] ...").
  const std::string log = rdmagw::testing::readFile(log_file);
  const std::regex grpc_native(R"((^|\n)[DIE][0-9]{4} [0-9:.]+ +[0-9]+ [^ ]+:[0-9]+\])");
  EXPECT_FALSE(std::regex_search(log, grpc_native)) << log.substr(0, 4000);
  EXPECT_EQ(log.find("Handshake failed"), std::string::npos) << log.substr(0, 4000);
}

TEST(DemoSwitchesTest, WithNexusTransportNxapiEveryLeafIsReadOverNxapi) {
  if (geteuid() != 0) GTEST_SKIP() << "the simulated switches' sshd needs root";
  TempDir tmp("rdmagw-demo-nxapi");
  const std::string out_file = tmp.file("stdout.log");
  const int port = rdmagw::testing::freeLoopbackPort();
  pid_t pid = fork();
  ASSERT_GE(pid, 0);
  if (pid == 0) {
    const int fd = ::open(out_file.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0600);
    if (fd >= 0) ::dup2(fd, STDOUT_FILENO);
    const std::string listen = "127.0.0.1:" + std::to_string(port);
    const std::string dir = tmp.file("sim");
    execl(RDMAGW_DEMO_BIN, RDMAGW_DEMO_BIN, "--switches", "2", "--hosts", "2", "--esxi", "0", "--period", "200ms",
          "--interval", "300ms", "--listen", listen.c_str(), "--gnmi-listen", "off", "--snmp", "off", "--dir",
          dir.c_str(), "--nexus-transport", "nxapi", "--log-level", "warn", static_cast<char*>(nullptr));
    _exit(127);
  }
  const std::string url = "http://127.0.0.1:" + std::to_string(port) + "/metrics";
  std::string body;
  auto onNxapi = [&body](int i) {
    const std::string t = "target=\"" + leafName(i) + "\"";
    const std::regex up("rdmagw_target_up\\{" + t + "[^}]*\\} 1\n");
    const std::regex octets("rdmagw_interface_in_bytes_total\\{" + t + "[^}]*\\} [1-9]");
    return body.find("rdmagw_target_info{" + t + ",kind=\"nexus\",transport=\"nxapi\"") != std::string::npos &&
           std::regex_search(body, up) && std::regex_search(body, octets);
  };
  const bool all = rdmagw::testing::waitUntil(
      [&] {
        body = rdmagw::testing::httpGet(url);
        return onNxapi(1) && onNxapi(2);
      },
      rdmagw::testing::kEventWait, std::chrono::milliseconds(250));
  EXPECT_TRUE(all) << body.substr(0, 3000);
  // Each leaf's NX-API client: requests on one login and one connection.
  for (int i = 1; i <= 2; ++i) {
    const std::string t = "\\{target=\"" + leafName(i) + "\"\\} ";
    EXPECT_TRUE(std::regex_search(body, std::regex("rdmagw_nxapi_requests_total" + t + "[1-9]"))) << leafName(i);
    EXPECT_TRUE(std::regex_search(body, std::regex("rdmagw_nxapi_logins_total" + t + "1\n"))) << leafName(i);
    EXPECT_TRUE(std::regex_search(body, std::regex("rdmagw_nxapi_connections_total" + t + "1\n"))) << leafName(i);
    EXPECT_TRUE(std::regex_search(body, std::regex("rdmagw_nxapi_max_sessions_refusals_total" + t + "0\n")));
  }
  // The curl line the demo prints reaches the leaf with its CA and password.
  const std::string out = rdmagw::testing::readFile(out_file);
  const size_t at = out.find("curl -s --cacert");
  ASSERT_NE(at, std::string::npos) << out;
  const std::string curl = out.substr(at, out.find('\n', at) - at);
  const rdmagw::testing::CommandResult asked = rdmagw::testing::runCommand(curl);
  EXPECT_EQ(asked.exit_code, 0) << asked.output;
  EXPECT_NE(asked.output.find("\"code\":\"200\""), std::string::npos) << asked.output.substr(0, 500);
  EXPECT_NE(asked.output.find("TABLE_interface"), std::string::npos) << asked.output.substr(0, 500);

  const std::optional<int> stopped = rdmagw::testing::interruptChild(pid);
  ASSERT_TRUE(stopped) << "demo did not stop on SIGINT";
  EXPECT_TRUE(WIFEXITED(*stopped) && WEXITSTATUS(*stopped) == 0);
}

}  // namespace
