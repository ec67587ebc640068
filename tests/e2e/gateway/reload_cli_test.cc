// `rdmagw run` reloads on SIGHUP and on a changed targets_dir file, and a
// check-config of the same files sees the same targets (the real binary).

#include <gtest/gtest.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <filesystem>

#include "sim/sim_runner.h"
#include "tests/support/test_support.h"

namespace rdmagw::gateway {
namespace {

using testing::httpGet;
using testing::writeFile;

std::string hostYaml(const std::string& sim, const std::string& h) {
  return "- name: " + h + "\n  kind: rdma-host\n  interval: 300ms\n  rdma: {sysfs_root: " + sim + "/" + h +
         "/sys, ethtool: text, ethtool_dir: " + sim + "/" + h + "/ethtool, lldp: off}\n";
}

TEST(ReloadCliTest, RunReloadsOnSighupAndOnAChangedFile) {
  testing::TempDir tmp("rdmagw-reload-cli");
  const std::string sim_dir = tmp.file("sim");
  sim::FabricConfig fc;
  fc.hosts = 2;
  fc.esxi_hosts = 0;
  sim::SimRunner sim(fc, sim_dir, std::chrono::milliseconds(200));
  ASSERT_TRUE(sim.start().isOk());
  std::filesystem::create_directories(tmp.file("targets.d"));
  const int port = testing::freeLoopbackPort();
  const std::string config = tmp.file("rdmagw.yaml");
  ASSERT_TRUE(writeFile(config, "targets_dir: targets.d\nnorthbound:\n  prometheus: {listen: \"127.0.0.1:" +
                                    std::to_string(port) + "\"}\ntargets:\n" + hostYaml(sim_dir, "host01")));
  ASSERT_TRUE(writeFile(tmp.file("targets.d/h2.yaml"), hostYaml(sim_dir, "host02")));
  const auto check = testing::runCommand(std::string(RDMAGW_BIN) + " check-config " + config);
  EXPECT_EQ(check.exit_code, 0) << check.output;
  EXPECT_NE(check.output.find("target host02: kind rdma-host"), std::string::npos) << check.output;
  EXPECT_NE(check.output.find("targets_dir: " + tmp.file("targets.d") + " (1 file(s))"), std::string::npos)
      << check.output;

  pid_t pid = fork();
  ASSERT_GE(pid, 0);
  if (pid == 0) {
    execl(RDMAGW_BIN, RDMAGW_BIN, "run", "--config", config.c_str(), "--log-level", "warn", static_cast<char*>(nullptr));
    _exit(127);
  }
  const std::string url = "http://127.0.0.1:" + std::to_string(port) + "/metrics";
  std::string body;
  auto scrapeUntil = [&](const std::string& want) {
    return testing::waitUntil([&] {
      body = httpGet(url);
      return body.find(want) != std::string::npos;
    }, testing::kEventWait, std::chrono::milliseconds(200));
  };
  EXPECT_TRUE(scrapeUntil("rdmagw_target_up{target=\"host02\"} 1")) << body.substr(0, 1000);
  EXPECT_TRUE(scrapeUntil("rdmagw_config_reloads_total{result=\"success\"} 0"));
  EXPECT_TRUE(scrapeUntil("rdmagw_config_last_reload_successful 1"));

  kill(pid, SIGHUP);  // nothing changed: a reload all the same, nothing restarts
  EXPECT_TRUE(scrapeUntil("rdmagw_config_reloads_total{result=\"success\"} 1")) << body.substr(0, 1000);
  // A broken file: refused, with host02 still served.
  ASSERT_TRUE(writeFile(tmp.file("targets.d/h2.yaml"), hostYaml(sim_dir, "host02") + "  colour: blue\n"));
  EXPECT_TRUE(scrapeUntil("rdmagw_config_last_reload_successful 0")) << body.substr(0, 1000);
  EXPECT_NE(body.find("rdmagw_target_up{target=\"host02\"} 1"), std::string::npos);
  // The file goes: host02 with it.
  std::filesystem::remove(tmp.file("targets.d/h2.yaml"));
  EXPECT_TRUE(scrapeUntil("rdmagw_config_reloads_total{result=\"success\"} 2")) << body.substr(0, 1000);
  EXPECT_EQ(body.find("target=\"host02\""), std::string::npos);
  EXPECT_NE(body.find("rdmagw_target_up{target=\"host01\"} 1"), std::string::npos);

  std::optional<int> status = testing::interruptChild(pid);
  ASSERT_TRUE(status.has_value());
  EXPECT_TRUE(WIFEXITED(*status) && WEXITSTATUS(*status) == 0);
  sim.stop();
}

}  // namespace
}  // namespace rdmagw::gateway
