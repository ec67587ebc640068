// The real `rdmagw run` with northbound.snmp against a real snmpd: the
// simulated host's interfaces keep their ifIndex across a gateway restart.

#include <gtest/gtest.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <fstream>
#include <map>
#include <sstream>
#include <thread>

#include "sim/fabric.h"
#include "sim/snmpd_launcher.h"
#include "sim/tree_writer.h"
#include "tests/support/test_support.h"

namespace rdmagw {
namespace {

using testing::TempDir;

pid_t startGateway(const std::string& config) {
  pid_t pid = fork();
  if (pid == 0) {
    execl(RDMAGW_BIN, RDMAGW_BIN, "run", "--config", config.c_str(), "--log-level", "warn",
          static_cast<char*>(nullptr));
    _exit(127);
  }
  return pid;
}

void stopGateway(pid_t pid) {
  kill(pid, SIGTERM);
  for (int i = 0; i < 100; ++i) {
    if (waitpid(pid, nullptr, WNOHANG) == pid) return;
    std::this_thread::sleep_for(std::chrono::milliseconds(100));
  }
  kill(pid, SIGKILL);
  waitpid(pid, nullptr, 0);
}

// ifName -> ifIndex in the context, once the walk shows `want` interfaces (60 s at most).
std::map<std::string, std::string> ifIndexes(const sim::SnmpdLauncher& snmpd, const std::string& ctx, size_t want) {
  std::map<std::string, std::string> out;
  for (int i = 0; i < 120 && out.size() < want; ++i) {
    out.clear();
    testing::CommandResult r = testing::runCommand(snmpd.clientEnv() + " snmpwalk -On -Oq -t 2 " +
                                                           snmpd.v2cArgs(ctx) + " .1.3.6.1.2.1.31.1.1.1.1");
    std::istringstream in(r.output);
    for (std::string line; std::getline(in, line);) {
      if (line.rfind(".1.3.6.1.2.1.31.1.1.1.1.", 0) != 0) continue;
      size_t sp = line.find(' ');
      out[line.substr(sp + 1)] = line.substr(line.rfind('.', sp) + 1, sp - line.rfind('.', sp) - 1);
    }
    if (out.size() < want) std::this_thread::sleep_for(std::chrono::milliseconds(500));
  }
  return out;
}

TEST(SnmpGatewayTest, IfIndexSurvivesAGatewayRestart) {
  TempDir tmp("rdmagw-snmp-gw");
  Result<std::string> one_host = sim::writeOneHostTree(tmp.file("sim"));
  ASSERT_TRUE(one_host.isOk()) << one_host.status().message();
  sim::SnmpdOptions opts;
  opts.contexts = {"host01"};
  sim::SnmpdLauncher snmpd(opts);
  Status st = snmpd.start();
  ASSERT_TRUE(st.isOk()) << st.message();
  std::ofstream(tmp.file("gw.yaml")) << "targets:\n"
                                     << "  - name: host01\n    kind: rdma-host\n    interval: 500ms\n"
                                     << "    rdma: {sysfs_root: " << tmp.file("sim/host01/sys")
                                     << ", ethtool: text, ethtool_dir: " << tmp.file("sim/host01/ethtool") << "}\n"
                                     << "northbound:\n  snmp:\n    agentx_socket: " << snmpd.agentxSocket()
                                     << "\n    state_dir: " << tmp.file("state") << "\n    refresh_period: 500ms\n";
  pid_t gw = startGateway(tmp.file("gw.yaml"));
  std::map<std::string, std::string> first = ifIndexes(snmpd, "host01", 2);
  stopGateway(gw);
  ASSERT_GE(first.size(), 2u) << snmpd.logText();

  gw = startGateway(tmp.file("gw.yaml"));
  std::map<std::string, std::string> second = ifIndexes(snmpd, "host01", first.size());
  stopGateway(gw);
  EXPECT_EQ(second, first);
}

}  // namespace
}  // namespace rdmagw
