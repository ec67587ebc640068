// The real `rdmagw run` as systemd runs it (Type=notify, WatchdogSec=):
// READY=1 only once Prometheus and gNMI accept connections, watchdog pets
// while it runs, and SIGTERM drains: STOPPING=1, a gNMI subscriber (Debian's
// python3-grpcio) gets a gRPC status rather than a broken connection, the
// AgentX session with a real snmpd ends, the process exits 0.

#include <arpa/inet.h>
#include <gtest/gtest.h>
#include <netinet/in.h>
#include <signal.h>
#include <stdlib.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <fstream>
#include <thread>

#include "sim/fabric.h"
#include "sim/snmpd_launcher.h"
#include "sim/tree_writer.h"
#include "tests/northbound/gnmi/python_client.h"
#include "tests/service/notify_socket.h"
#include "tests/support/test_support.h"

namespace rdmagw {
namespace {

using namespace std::chrono_literals;
using testing::PythonClient;
using testing::kEventWait;
using testing::TempDir;

bool accepts(int port) {
  int fd = ::socket(AF_INET, SOCK_STREAM, 0);
  sockaddr_in a{};
  a.sin_family = AF_INET;
  a.sin_port = htons(uint16_t(port));
  a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  const bool ok = ::connect(fd, reinterpret_cast<sockaddr*>(&a), sizeof a) == 0;
  ::close(fd);
  return ok;
}

// As systemd starts a Type=notify service with WatchdogSec=4s.
pid_t startUnderNotify(const std::string& config, const std::string& notify_socket) {
  pid_t pid = fork();
  if (pid == 0) {
    setenv("NOTIFY_SOCKET", notify_socket.c_str(), 1);
    setenv("WATCHDOG_USEC", "4000000", 1);
    setenv("WATCHDOG_PID", std::to_string(getpid()).c_str(), 1);
    execl(RDMAGW_BIN, RDMAGW_BIN, "run", "--config", config.c_str(), static_cast<char*>(nullptr));
    _exit(127);
  }
  return pid;
}

// Rows of IF-MIB ifName the gateway serves in `ctx` through snmpd.
size_t ifNameRows(const sim::SnmpdLauncher& snmpd, const std::string& ctx) {
  testing::CommandResult r = testing::runCommand(snmpd.clientEnv() + " snmpwalk -On -Oq -t 2 " +
                                                         snmpd.v2cArgs(ctx) + " .1.3.6.1.2.1.31.1.1.1.1");
  size_t rows = 0;
  for (size_t at = r.output.find(".1.3.6.1.2.1.31.1.1.1.1."); at != std::string::npos;
       at = r.output.find(".1.3.6.1.2.1.31.1.1.1.1.", at + 1)) {
    ++rows;
  }
  return rows;
}

// Kills the gateway when a failed assertion leaves the test early.
struct ChildGuard {
  pid_t pid;
  ~ChildGuard() {
    if (pid > 0 && waitpid(pid, nullptr, WNOHANG) == 0) {
      kill(pid, SIGKILL);
      waitpid(pid, nullptr, 0);
    }
  }
};

TEST(ServiceLifecycleTest, ReadyWhenListeningWatchdogAndSigtermDrains) {
  if (access("/usr/sbin/snmpd", X_OK) != 0) GTEST_SKIP() << "snmpd (Debian package snmpd) is not installed";
  std::string why;
  if (!testing::preparePythonClient(&why)) {
    GTEST_SKIP() << "no python3-grpcio gNMI client: " << why;
  }
  TempDir tmp("rdmagw-lifecycle");
  Result<std::string> one_host = sim::writeOneHostTree(tmp.file("sim"));
  ASSERT_TRUE(one_host.isOk()) << one_host.status().message();
  const std::string host = one_host.value();
  sim::SnmpdOptions so;
  so.contexts = {host};
  sim::SnmpdLauncher snmpd(so);
  Status st = snmpd.start();
  ASSERT_TRUE(st.isOk()) << st.message();

  const int prom = testing::freeLoopbackPort();
  const int gnmi = testing::freeLoopbackPort();
  std::ofstream(tmp.file("gw.yaml"))
      << "targets:\n"
      << "  - name: " << host << "\n    kind: rdma-host\n    interval: 500ms\n"
      << "    rdma: {sysfs_root: " << tmp.file("sim/" + host + "/sys") << ", ethtool: text, ethtool_dir: "
      << tmp.file("sim/" + host + "/ethtool") << "}\n"
      << "northbound:\n"
      << "  prometheus: {listen: 127.0.0.1:" << prom << "}\n"
      << "  gnmi: {listen: 127.0.0.1:" << gnmi << ", insecure: true}\n"
      << "  snmp:\n    agentx_socket: " << snmpd.agentxSocket() << "\n    state_dir: " << tmp.file("state")
      << "\n    refresh_period: 500ms\n";

  testing::NotifySocket notify(tmp.file("notify"));
  ASSERT_TRUE(notify.ok());
  const pid_t gw = startUnderNotify(tmp.file("gw.yaml"), notify.path());
  ASSERT_GT(gw, 0);
  ChildGuard guard{gw};

  ASSERT_NE(notify.until("READY=1", kEventWait), "") << "no READY=1";
  // Checked right at READY=1: both listeners must already accept.
  EXPECT_TRUE(accepts(prom)) << "READY=1 before Prometheus listens";
  EXPECT_TRUE(accepts(gnmi)) << "READY=1 before gNMI listens";
  EXPECT_NE(notify.until("WATCHDOG=1", kEventWait), "") << "no watchdog pet";
  EXPECT_NE(notify.until("WATCHDOG=1", kEventWait), "") << "only one watchdog pet";

  PythonClient sub("127.0.0.1:" + std::to_string(gnmi),
                   R"({"rpc": "sub", "mode": "STREAM", "timeout": 120, "target": ")" + host +
                       R"(", "subs": [{"path": "/interfaces", "mode": "SAMPLE", "sample_ms": 1000}]})");
  std::vector<std::string> lines = sub.until("SYNC");
  ASSERT_TRUE(!lines.empty() && lines.back() == "SYNC")
      << "the subscription never synced: " << (lines.empty() ? "" : lines.back());
  ASSERT_TRUE(testing::waitUntil([&] { return ifNameRows(snmpd, host) > 0; }, kEventWait, 500ms))
      << "snmpd never served the gateway's IF-MIB rows: " << snmpd.logText();

  const auto t0 = std::chrono::steady_clock::now();
  ASSERT_EQ(kill(gw, SIGTERM), 0);
  int wstatus = 0;
  // A hang guard only: the drain's figure is printed, not asserted.
  const bool exited = testing::waitUntil([&] { return waitpid(gw, &wstatus, WNOHANG) == gw; }, kEventWait, 5ms);
  const auto drain_ms = std::chrono::duration_cast<std::chrono::milliseconds>(std::chrono::steady_clock::now() - t0);
  if (!exited) {
    kill(gw, SIGKILL);
    waitpid(gw, &wstatus, 0);
  }
  ASSERT_TRUE(exited) << "rdmagw hung on SIGTERM";
  // Datagrams sent before the exit wait in the socket.
  EXPECT_NE(notify.until("STOPPING=1", 5s), "") << "no STOPPING=1";
  std::printf("SIGTERM drain: %lld ms (gNMI stream, AgentX session, 1 polled target)\n",
              static_cast<long long>(drain_ms.count()));
  ASSERT_TRUE(WIFEXITED(wstatus)) << "killed by signal " << (WIFSIGNALED(wstatus) ? WTERMSIG(wstatus) : 0);
  EXPECT_EQ(WEXITSTATUS(wstatus), 0);

  std::string status;
  for (const std::string& l : sub.rest()) {
    if (l.starts_with("STATUS")) status = l;
  }
  // A stream ended by the server's shutdown, with its reason; a dropped
  // connection would read "Socket closed" or similar.
  EXPECT_EQ(status.rfind("STATUS UNAVAILABLE", 0), 0u) << status;
  EXPECT_NE(status.find("shutting down"), std::string::npos) << status;
  EXPECT_EQ(ifNameRows(snmpd, host), 0u) << "snmpd still serves the gateway's rows";
  EXPECT_TRUE(snmpd.running());
}

}  // namespace
}  // namespace rdmagw
