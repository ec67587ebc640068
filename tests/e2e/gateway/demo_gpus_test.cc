// `rdmagw-demo --gpus` with the real binaries: a GPU beside each RDMA NIC,
// metrics from the simulator's nvidia-smi stand-in. On the healthy fabric
// `rdmagw check roce --group gpu` passes; with --scenario acs-redirect it
// fails exactly there: the scenario host's GPU next to its NIC, check
// acs-redirect, and nothing else of the group; with --scenario nic-down
// that GPU loses its near NIC and fails gpudirect-rdma (its far NIC being on
// the other NUMA node warns too).

#include <gtest/gtest.h>
#include <sys/wait.h>
#include <unistd.h>

#include <string>

#include "tests/support/test_support.h"

namespace {

using rdmagw::testing::TempDir;

struct Demo {
  int pid = -1;
  int metrics_port = 0;
  int gnmi_port = 0;
};

Demo startDemo(const TempDir& tmp, const char* scenario) {
  Demo d;
  d.metrics_port = rdmagw::testing::freeLoopbackPort();
  d.gnmi_port = rdmagw::testing::freeLoopbackPort();
  const std::string listen = "127.0.0.1:" + std::to_string(d.metrics_port);
  const std::string gnmi = "127.0.0.1:" + std::to_string(d.gnmi_port);
  const std::string dir = tmp.file("sim");
  d.pid = fork();
  if (d.pid == 0) {
    if (scenario != nullptr) {
      execl(RDMAGW_DEMO_BIN, RDMAGW_DEMO_BIN, "--gpus", "--scenario", scenario, "--hosts", "2", "--esxi", "0",
            "--interval", "1s", "--listen", listen.c_str(), "--gnmi-listen", gnmi.c_str(), "--snmp", "off", "--dir",
            dir.c_str(), "--log-level", "warn", static_cast<char*>(nullptr));
    } else {
      execl(RDMAGW_DEMO_BIN, RDMAGW_DEMO_BIN, "--gpus", "--hosts", "2", "--esxi", "0", "--interval", "1s", "--listen",
            listen.c_str(), "--gnmi-listen", gnmi.c_str(), "--snmp", "off", "--dir", dir.c_str(), "--log-level", "warn",
            static_cast<char*>(nullptr));
    }
    _exit(127);
  }
  return d;
}

rdmagw::testing::CommandResult checkGpu(const Demo& d) {
  return rdmagw::testing::runCommand(std::string(RDMAGW_BIN) + " check roce --group gpu --address 127.0.0.1:" +
                                     std::to_string(d.gnmi_port) + " --insecure");
}

void stop(const Demo& d) {
  const std::optional<int> stopped = rdmagw::testing::interruptChild(d.pid);
  ASSERT_TRUE(stopped) << "demo did not stop on SIGINT";
  EXPECT_TRUE(WIFEXITED(*stopped) && WEXITSTATUS(*stopped) == 0) << *stopped;
}

TEST(DemoGpusTest, HealthyGpusPassAndEachGpuScenarioFailsExactlyThere) {
  TempDir healthy_dir("rdmagw-demo-gpus");
  const Demo healthy = startDemo(healthy_dir, nullptr);
  rdmagw::testing::CommandResult r;
  // Every host's GPUs judged: two hosts, two GPUs each.
  EXPECT_TRUE(rdmagw::testing::waitUntil(
      [&] {
        r = checkGpu(healthy);
        return r.output.find("7  gpu") != std::string::npos;
      },
      rdmagw::testing::kEventWait, std::chrono::milliseconds(500)))
      << r.output;
  EXPECT_EQ(r.exit_code, 0) << r.output;
  EXPECT_NE(r.output.find("PASS"), std::string::npos) << r.output;
  EXPECT_EQ(r.output.find("Failures and warnings"), std::string::npos) << r.output;
  const std::string body =
      rdmagw::testing::httpGet("http://127.0.0.1:" + std::to_string(healthy.metrics_port) + "/metrics");
  EXPECT_NE(body.find("source=\"nvidia-smi\",nearest_nic=\"mlx5_0\",nearest_path=\"PIX\""), std::string::npos)
      << body.substr(0, 2000);
  stop(healthy);

  TempDir acs_dir("rdmagw-demo-gpus-acs");
  const Demo acs = startDemo(acs_dir, "acs-redirect");
  EXPECT_TRUE(rdmagw::testing::waitUntil(
      [&] {
        r = checkGpu(acs);
        return r.output.find("acs-redirect") != std::string::npos;
      },
      rdmagw::testing::kEventWait, std::chrono::milliseconds(500)))
      << r.output;
  EXPECT_EQ(r.exit_code, 1) << r.output;
  EXPECT_NE(r.output.find("FAIL  gpu  host01  GPU0  acs-redirect"), std::string::npos) << r.output;
  // One finding: the other GPUs and checks still pass.
  size_t findings = 0;
  for (size_t at = r.output.find("\nFAIL  gpu"); at != std::string::npos; at = r.output.find("\nFAIL  gpu", at + 1)) {
    ++findings;
  }
  EXPECT_EQ(findings, 1u) << r.output;
  EXPECT_EQ(r.output.find("WARN  gpu"), std::string::npos) << r.output;
  stop(acs);

  TempDir down_dir("rdmagw-demo-gpus-down");
  const Demo down = startDemo(down_dir, "nic-down");
  EXPECT_TRUE(rdmagw::testing::waitUntil(
      [&] {
        r = checkGpu(down);
        return r.output.find("gpudirect-rdma") != std::string::npos;
      },
      rdmagw::testing::kEventWait, std::chrono::milliseconds(500)))
      << r.output;
  EXPECT_EQ(r.exit_code, 1) << r.output;
  EXPECT_NE(r.output.find("FAIL  gpu  host01  GPU0  gpudirect-rdma"), std::string::npos) << r.output;
  EXPECT_NE(r.output.find("found:    nearest NIC with its link up: mlx5_1 at SYS; mlx5_0 at PIX is down"),
            std::string::npos)
      << r.output;
  EXPECT_NE(r.output.find("WARN  gpu  host01  GPU0  numa"), std::string::npos) << r.output;
  EXPECT_EQ(r.output.find("GPU1"), std::string::npos) << r.output;
  stop(down);
}

}  // namespace
