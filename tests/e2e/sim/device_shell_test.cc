// rdmagw-sim-shell: NX-OS command matching, and the real binary run as sshd
// would run it (forced command, $SSH_ORIGINAL_COMMAND), for a leaf and for
// an ESXi host whose esxcli and vsish are symlinks back to the shell, and
// for a Linux host whose ethtool, dcb and mlnx_qos are.

#include "sim/device_shell.h"

#include <gtest/gtest.h>
#include <stdlib.h>
#include <sys/wait.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <sstream>

#include "sim/fabric.h"
#include "sim/linux_host_shell.h"
#include "sim/tree_writer.h"

namespace rdmagw::sim {
namespace {

namespace fs = std::filesystem;

TEST(NxosMatchTest, ExactAbbreviatedAndSpacedFormsResolve) {
  EXPECT_EQ(matchNxos("show interface").command, "show interface");
  EXPECT_EQ(matchNxos("  sh   int  |  json ").command, "show interface | json");
  EXPECT_EQ(matchNxos("show int|json").command, "show interface | json");
  EXPECT_EQ(matchNxos("SHOW Interface Priority-Flow-Control").command,
            "show interface priority-flow-control");
  EXPECT_EQ(matchNxos("sh queueing int").command, "show queuing interface");
  EXPECT_EQ(matchNxos("show queuing interface | json").command, "show queuing interface | json");
}

TEST(NxosMatchTest, BadWordsPointTheCaretAtThemselves) {
  NxosMatch m = matchNxos("show foo");
  EXPECT_EQ(m.kind, NxosMatch::Kind::kInvalid);
  EXPECT_EQ(m.marker, 5u);
  m = matchNxos("show interface bar");
  EXPECT_EQ(m.kind, NxosMatch::Kind::kInvalid);
  EXPECT_EQ(m.marker, 15u);
  m = matchNxos("s int");  // one letter is too short to be unique on NX-OS
  EXPECT_EQ(m.kind, NxosMatch::Kind::kInvalid);
  EXPECT_EQ(matchNxos("show queuing").kind, NxosMatch::Kind::kIncomplete);
}

struct ShellRun {
  std::string out;
  int status = -1;
};

// Runs the shell as sshd does: fixed argv, command in the environment.
ShellRun runShell(const std::string& dir, const std::string& device, const std::string& command) {
  int fds[2];
  if (pipe(fds) != 0) return {};
  const pid_t pid = fork();
  if (pid == 0) {
    dup2(fds[1], 1);
    dup2(fds[1], 2);
    close(fds[0]);
    setenv("SSH_ORIGINAL_COMMAND", command.c_str(), 1);
    unsetenv(kDeviceDirEnv);
    execl(RDMAGW_SIM_SHELL_PATH, "rdmagw-sim-shell", "--dir", dir.c_str(), "--device",
          device.c_str(), static_cast<char*>(nullptr));
    _exit(127);
  }
  close(fds[1]);
  ShellRun r;
  char buf[4096];
  for (ssize_t n; (n = read(fds[0], buf, sizeof buf)) > 0;) r.out.append(buf, size_t(n));
  close(fds[0]);
  int status = 0;
  waitpid(pid, &status, 0);
  r.status = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  return r;
}

std::string slurp(const fs::path& p) {
  std::ifstream in(p, std::ios::binary);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

class DeviceShellTest : public ::testing::Test {
 protected:
  void SetUp() override {
    std::string t = (fs::temp_directory_path() / "rdmagw-shell-XXXXXX").string();
    ASSERT_NE(mkdtemp(t.data()), nullptr);
    dir_ = t;
    FabricConfig config;
    config.mlnx_qos_hosts = 1;  // the last host shows its DCB through mlnx_qos alone
    Fabric f(config);
    mlnx_qos_host_ = f.hosts().back().name;
    for (int i = 0; i < 12; ++i) f.step();
    ASSERT_TRUE(writeTree(f, dir_.string()).isOk());
    for (const EsxiHost& esx : f.esxiHosts()) {
      ASSERT_TRUE(installEsxiShims((dir_ / esx.name).string(), RDMAGW_SIM_SHELL_PATH).isOk());
    }
    for (const Host& h : f.hosts()) {
      ASSERT_TRUE(installLinuxHostShims((dir_ / h.name).string(), RDMAGW_SIM_SHELL_PATH).isOk());
    }
  }
  void TearDown() override { fs::remove_all(dir_); }
  fs::path dir_;
  std::string mlnx_qos_host_;
};

TEST_F(DeviceShellTest, SwitchAnswersARenderedCommand) {
  const ShellRun r = runShell(dir_.string(), "leaf01", "sh int priority-flow-control");
  EXPECT_EQ(r.status, 0);
  EXPECT_EQ(r.out, slurp(dir_ / "leaf01/cli/show_interface_priority_flow_control"));
  const ShellRun j = runShell(dir_.string(), "leaf01", "show queuing interface | json");
  EXPECT_EQ(j.status, 0);
  EXPECT_NE(j.out.find("\"TABLE_queuing_interface\""), std::string::npos);
}

TEST_F(DeviceShellTest, SwitchRejectsAnUnknownCommandLikeNxos) {
  // (`show running-config` alone is a prefix of `show running-config ipqos`:
  // the shell calls it incomplete.)
  const ShellRun r = runShell(dir_.string(), "leaf01", "show version");
  EXPECT_EQ(r.status, 1);
  EXPECT_EQ(r.out, "     ^\n% Invalid command at '^' marker.\n");
}

TEST_F(DeviceShellTest, EsxiRunsACompoundLoopThroughEsxcliAndVsish) {
  const std::string loop =
      "for n in $(esxcli network nic list | awk 'NR>2{print $1}'); do "
      "esxcli network nic stats get -n $n | head -2; "
      "vsish -e cat /net/pNics/$n/stats | grep '^rx_prio3_pause:'; done";
  const ShellRun r = runShell(dir_.string(), "esx02", loop);
  EXPECT_EQ(r.status, 0) << r.out;
  const std::string v0 = slurp(dir_ / "esx02/cli/esxcli_network_nic_stats_get_n_vmnic0");
  const std::string v1 = slurp(dir_ / "esx02/cli/esxcli_network_nic_stats_get_n_vmnic1");
  const auto firstTwo = [](const std::string& s) {
    return s.substr(0, s.find('\n', s.find('\n') + 1) + 1);
  };
  const std::string p0 = slurp(dir_ / "esx02/cli/vsish_e_cat_net_pnics_vmnic0_stats");
  const std::string p1 = slurp(dir_ / "esx02/cli/vsish_e_cat_net_pnics_vmnic1_stats");
  const auto pauseLine = [](const std::string& s) {
    const size_t at = s.find("\nrx_prio3_pause:") + 1;
    return s.substr(at, s.find('\n', at) + 1 - at);
  };
  EXPECT_EQ(r.out, firstTwo(v0) + pauseLine(p0) + firstTwo(v1) + pauseLine(p1));
}

TEST_F(DeviceShellTest, EsxiUnknownNamespaceFailsLikeEsxcli) {
  const ShellRun r = runShell(dir_.string(), "esx01", "esxcli network nic foo");
  EXPECT_EQ(r.status, 1);
  EXPECT_EQ(r.out, "Error: Unknown command or namespace network nic foo\n");
  const ShellRun n = runShell(dir_.string(), "esx01", "esxcli network nic stats get -n vmnic7");
  EXPECT_EQ(n.status, 1);
  const ShellRun plain = runShell(dir_.string(), "esx01", "esxcli network nic list");
  EXPECT_EQ(plain.status, 0);
  EXPECT_EQ(plain.out, slurp(dir_ / "esx01/cli/esxcli_network_nic_list"));
}

// The remote dump's way: a loop over netdevs, each tool's status checked.
TEST_F(DeviceShellTest, LinuxHostRunsEthtoolDcbAndMlnxQosFromTheRenderedFiles) {
  ASSERT_TRUE(isLinuxHostDir((dir_ / "host01").string()));
  EXPECT_FALSE(isLinuxHostDir((dir_ / "leaf01").string()));
  const std::string loop =
      "for x in ens1f0np0; do ethtool -S $x; echo \"rc=$?\"; dcb -j ets show dev $x; echo \"rc=$?\"; "
      "command -v mlnx_qos >/dev/null && echo has-mlnx_qos; done";
  const ShellRun r = runShell(dir_.string(), "host01", loop);
  EXPECT_EQ(r.status, 0) << r.out;
  EXPECT_EQ(r.out, slurp(dir_ / "host01/ethtool/ens1f0np0.txt") + "rc=0\n" +
                       slurp(dir_ / "host01/ethtool/ens1f0np0.dcb-ets.json") + "rc=0\nhas-mlnx_qos\n");

  // The mlnx_qos host has no DCB netlink to show: dcb fails, mlnx_qos answers.
  const ShellRun m = runShell(dir_.string(), mlnx_qos_host_, "dcb -j pfc show dev ens1f0np0 2>/dev/null; echo \"rc=$?\"; "
                                                       "mlnx_qos -i ens1f0np0");
  EXPECT_EQ(m.status, 0) << m.out;
  const std::string shown = slurp(dir_ / mlnx_qos_host_ / "ethtool/ens1f0np0.mlnx_qos.txt");
  EXPECT_FALSE(shown.empty());
  EXPECT_EQ(m.out, "rc=1\n" + shown);
}

TEST_F(DeviceShellTest, LinuxHostToolsRefuseOtherFormsAndNamesOutsideTheirDirectory) {
  for (const std::string& cmd : {std::string("ethtool -S ../../leaf01/os"), std::string("ethtool -S nosuch0"),
                                 std::string("ethtool -i ens1f0np0"), std::string("dcb -j maxrate show dev ens1f0np0"),
                                 std::string("dcb pfc show dev ens1f0np0"), std::string("mlnx_qos -i ens1f0np0")}) {
    const ShellRun r = runShell(dir_.string(), "host01", cmd + " >/dev/null 2>&1");
    EXPECT_EQ(r.status, 1) << cmd << ": " << r.out;
  }
}

}  // namespace
}  // namespace rdmagw::sim
