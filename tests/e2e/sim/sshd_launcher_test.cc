#include "sim/sshd_launcher.h"

#include <gtest/gtest.h>

#include "tests/support/test_support.h"

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <string>
#include <thread>

namespace rdmagw::sim {
namespace {

// Runs the OpenSSH client (independent of libssh) and returns its stdout.
std::string sshRun(const SshdLauncher& sshd, const ClientKey& key, const std::string& command) {
  const std::string kh = sshd.dir() + "/launcher_test_known_hosts";
  std::ofstream(kh) << sshd.knownHostsLine() << "\n";
  std::string cmd = "ssh -n -o BatchMode=yes -o StrictHostKeyChecking=yes -o UserKnownHostsFile=" +
                    kh + " -o GlobalKnownHostsFile=/dev/null -F /dev/null -i " +
                    key.private_key_file + " -p " + std::to_string(sshd.port()) +
                    " root@127.0.0.1 '" + command + "' 2>&1";
  std::string out;
  if (FILE* p = ::popen(cmd.c_str(), "r")) {
    char buf[4096];
    size_t n;
    while ((n = std::fread(buf, 1, sizeof buf, p)) > 0) out.append(buf, n);
    ::pclose(p);
  }
  return out;
}

TEST(SshdLauncherTest, ForcedCommandPerDeviceKeySeesOriginalCommand) {
  SshdLauncher sshd;
  ASSERT_TRUE(sshd.start().isOk()) << sshd.logText();
  EXPECT_GT(sshd.port(), 0);
  EXPECT_EQ(sshd.hostKeyLine().rfind("ssh-ed25519 AAAA", 0), 0u) << sshd.hostKeyLine();
  EXPECT_EQ(sshd.knownHostsLine(),
            "[127.0.0.1]:" + std::to_string(sshd.port()) + " " + sshd.hostKeyLine());

  auto nexus = sshd.addDevice("nexus-1", "echo \"nexus got: $SSH_ORIGINAL_COMMAND\"");
  auto esxi = sshd.addDevice("esxi_1", "echo esxi");
  ASSERT_TRUE(nexus.isOk() && esxi.isOk());
  EXPECT_EQ(sshRun(sshd, *nexus, "show version"), "nexus got: show version\n");
  EXPECT_EQ(sshRun(sshd, *esxi, "esxcli network nic list"), "esxi\n");
  EXPECT_EQ(sshd.sessions("nexus-1").size(), 1u);
  EXPECT_EQ(sshd.connectionCount("esxi_1"), 1u);
  EXPECT_FALSE(sshd.addDevice("bad name; rm", "true").isOk());
}

// A simulated device answers without the login user's shell dotfiles: bash
// started by sshd sources ~/.bashrc unless SHLVL marks it nested, and a
// machine's ~/.bashrc (here: pyenv init, which takes a global lock) once
// serialised every device command of the fleet. bash reports the nested
// level as 2; a shell that keeps no SHLVL (dash) shows sshd's 1.
TEST(SshdLauncherTest, DeviceCommandsSkipTheLoginShellRcFiles) {
  SshdLauncher sshd;
  ASSERT_TRUE(sshd.start().isOk()) << sshd.logText();
  auto dev = sshd.addDevice("nx", "echo \"${BASH_VERSION:+bash }${SHLVL:-unset}\"");
  ASSERT_TRUE(dev.isOk());
  const std::string out = sshRun(sshd, *dev, "show version");
  EXPECT_TRUE(out == "bash 2\n" || out == "1\n") << out;
}

TEST(SshdLauncherTest, RestartKeepsPortAndCanRekey) {
  SshdLauncher sshd;
  ASSERT_TRUE(sshd.start().isOk()) << sshd.logText();
  const int port = sshd.port();
  const std::string key = sshd.hostKeyLine();
  ASSERT_TRUE(sshd.restart(false).isOk());
  EXPECT_EQ(sshd.port(), port);
  EXPECT_EQ(sshd.hostKeyLine(), key);
  ASSERT_TRUE(sshd.restart(true).isOk());
  EXPECT_EQ(sshd.port(), port);
  EXPECT_NE(sshd.hostKeyLine(), key);
}

TEST(SshdLauncherTest, StopKillsSessionsAndRemovesDir) {
  SshdLauncher sshd;
  ASSERT_TRUE(sshd.start().isOk());
  auto dev = sshd.addDevice("slow", "sleep 600");
  ASSERT_TRUE(dev.isOk());
  // A session that would outlive a plain kill of the listener.
  std::string cmd = "ssh -n -o BatchMode=yes -o StrictHostKeyChecking=no -o UserKnownHostsFile=/dev/null "
                    "-F /dev/null -i " + dev->private_key_file + " -p " + std::to_string(sshd.port()) +
                    " root@127.0.0.1 x >/dev/null 2>&1";
  FILE* p = ::popen(cmd.c_str(), "r");
  ASSERT_NE(p, nullptr);
  testing::waitUntil([&] { return !sshd.sessions("slow").empty(); });
  ASSERT_EQ(sshd.sessions("slow").size(), 1u);
  const std::string dir = sshd.dir();
  sshd.stop();
  EXPECT_FALSE(sshd.running());
  EXPECT_FALSE(std::filesystem::exists(dir));
  // The client sees its session die instead of sleeping 600 s.
  EXPECT_NE(::pclose(p), 0);
}

}  // namespace
}  // namespace rdmagw::sim
