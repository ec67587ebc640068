#pragma once
// A real Net-SNMP snmpd on 127.0.0.1 (unprivileged UDP port, temp dir) as
// the AgentX master for tests, the demo and benchmarks. It is configured
// the way an operator would configure the system snmpd for rdmagw:
//
//   master agentx / agentXSocket <dir>/agentx.sock
//   v2c: community <community> for the default context, and one community
//        per device context mapped with `com2sec -Cn <context>`
//   v3:  one authPriv user (SHA-256 / AES) with access to every context
//
// snmpd's persistent state (engine id, the v3 user's keys) lives in the
// dir; clientEnv() points the command-line tools there too.

#include <sys/types.h>

#include <string>
#include <vector>

#include "models/status.h"
#include "sim/child_setup.h"  // freeUdpPort, which the launchers' callers use

namespace rdmagw::sim {

struct SnmpdOptions {
  std::vector<std::string> contexts;           // device contexts (store target names)
  std::string community = "public";            // default context
  std::string context_community_prefix = "public-";  // + context name
  std::string v3_user = "rdmagw";
  std::string v3_auth_pass = "rdmagw-auth-pass";
  std::string v3_priv_pass = "rdmagw-priv-pass";
  std::string snmpd_path = "/usr/sbin/snmpd";
  std::string mib_dirs;                        // extra -M dirs for the tools, ':' separated
};

class SnmpdLauncher {
 public:
  explicit SnmpdLauncher(SnmpdOptions options);
  ~SnmpdLauncher();
  SnmpdLauncher(const SnmpdLauncher&) = delete;
  SnmpdLauncher& operator=(const SnmpdLauncher&) = delete;

  // Makes the temp dir (so agentxSocket() is known before snmpd runs).
  // start() calls it when needed.
  Status prepare();
  // First call: dir, config and a free port. Later calls (after
  // stopServer) reuse them. Returns once snmpd answers a v2c GET.
  Status start();
  void stopServer();  // kills snmpd, keeps dir and port
  void stop();        // stopServer() and removes the dir
  Status restart();

  int port() const { return port_; }
  bool running() const { return pid_ > 0; }
  const std::string& dir() const { return dir_; }
  std::string agentxSocket() const { return dir_ + "/agentx.sock"; }
  std::string address() const { return "127.0.0.1:" + std::to_string(port_); }
  const SnmpdOptions& options() const { return options_; }

  std::string communityFor(const std::string& context) const;
  // Environment for the net-snmp tools: persistent dir, no system configs.
  std::string clientEnv() const;
  // "-v2c -c <community for context> 127.0.0.1:PORT"
  std::string v2cArgs(const std::string& context) const;
  // "-v3 -l authPriv -u .. -a SHA-256 -A .. -x AES -X .. [-n context] 127.0.0.1:PORT"
  std::string v3Args(const std::string& context) const;
  // The snmpd.conf written (what an operator adds, plus the test plumbing).
  std::string configText() const;
  std::string logText() const;

 private:
  Status spawn();
  bool answers() const;

  SnmpdOptions options_;
  std::string dir_;
  int port_ = 0;
  pid_t pid_ = -1;
};

}  // namespace rdmagw::sim
