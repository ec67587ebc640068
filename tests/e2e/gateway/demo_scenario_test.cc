// `rdmagw-demo --scenario NAME`: the real binary accepts every scenario the
// simulator has, refuses others with the list (exit 2), and a pause storm
// reaches /metrics as the storming NIC's pause-storm alarm.

#include <gtest/gtest.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <regex>
#include <string>

#include "tests/support/test_support.h"

namespace {

using rdmagw::testing::TempDir;

TEST(DemoScenarioTest, AnUnknownScenarioIsRefusedWithTheList) {
  auto r = rdmagw::testing::runCommand(std::string(RDMAGW_DEMO_BIN) + " --scenario pause_storm");
  EXPECT_EQ(r.exit_code, 2) << r.output;
  EXPECT_NE(r.output.find(
                "unknown --scenario pause_storm (one of: incast, np-off, rp-off, pfc-mismatch, pfc-mismatch-switch, "
                "pause-storm, trust-mismatch, cnp-lossy, ecn-off, pause-cos-missing, roce-ets-zero, strict-starve, "
                "watchdog-off, mtu-small, pfc-lossy-prio, watchdog-false-trip, ecn-late, acs-redirect, nic-down)"),
            std::string::npos)
      << r.output;
  auto help = rdmagw::testing::runCommand(std::string(RDMAGW_DEMO_BIN) + " --help");
  EXPECT_NE(help.output.find("--scenario NAME"), std::string::npos) << help.output;
}

TEST(DemoScenarioTest, PauseStormShowsAsTheStormingNicsAlarm) {
  TempDir tmp("rdmagw-demo-scenario");
  const int port = rdmagw::testing::freeLoopbackPort();
  pid_t pid = fork();
  ASSERT_GE(pid, 0);
  if (pid == 0) {
    const std::string listen = "127.0.0.1:" + std::to_string(port);
    const std::string dir = tmp.file("sim");
    // A tick is a simulated second of pause durations: only a 1 s period
    // keeps paused ratios true against the collection times.
    execl(RDMAGW_DEMO_BIN, RDMAGW_DEMO_BIN, "--scenario", "pause-storm", "--hosts", "4", "--esxi", "0", "--period",
          "1s", "--interval", "1s", "--listen", listen.c_str(), "--gnmi-listen", "off", "--snmp", "off",
          "--dir", dir.c_str(), "--log-level", "warn", static_cast<char*>(nullptr));
    _exit(127);
  }
  const std::string url = "http://127.0.0.1:" + std::to_string(port) + "/metrics";
  // The scenario's receiver is host01:mlx5_0 (ens1f0np0), on the RoCE priority.
  const std::regex storm(
      R"(rdmagw_fabric_pfc_pause_storm_alarm\{target="host01",interface="ens1f0np0",priority="3"[^}]*\} 1\b)");
  std::string body;
  const bool seen = rdmagw::testing::waitUntil(
      [&] {
        body = rdmagw::testing::httpGet(url);
        return std::regex_search(body, storm);
      },
      rdmagw::testing::kEventWait, std::chrono::milliseconds(250));
  EXPECT_TRUE(seen) << body.substr(0, 3000);
  // Nobody else storms.
  const std::regex other(R"re(rdmagw_fabric_pfc_pause_storm_alarm\{target="([^"]+)",interface="([^"]+)"[^}]*\} 1\b)re");
  for (auto it = std::sregex_iterator(body.begin(), body.end(), other); it != std::sregex_iterator(); ++it) {
    EXPECT_EQ((*it)[1].str() + ":" + (*it)[2].str(), "host01:ens1f0np0");
  }
  const std::optional<int> stopped = rdmagw::testing::interruptChild(pid);
  ASSERT_TRUE(stopped) << "demo did not stop on SIGINT";
  const int status = *stopped;
  EXPECT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == 0) << status;
}

}  // namespace
