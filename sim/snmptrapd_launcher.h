#pragma once
// A real Net-SNMP snmptrapd on 127.0.0.1 (unprivileged UDP port, temp dir)
// receiving the gateway's notifications in tests and the demo. Configured
// the way an operator configures a trap receiver for rdmagw:
//
//   authCommunity log <community>        v2c traps and informs
//   createUser <user> SHA-256 .. AES ..   v3 informs (snmptrapd is the
//   authUser log <user> priv              authoritative engine)
//
// Every notification it accepts is one line of its output file:
//   TRAP <oid> = <value>|<oid> = <value>|...
// with numeric OIDs (no MIBs loaded), parsed by received().

#include <sys/types.h>

#include <map>
#include <string>
#include <vector>

#include "models/status.h"

namespace rdmagw::sim {

struct SnmptrapdOptions {
  std::string community = "traps-public";
  std::string v3_user = "rdmagw-notify";
  std::string v3_auth_pass = "notify-auth-pass";
  std::string v3_priv_pass = "notify-priv-pass";
  std::string snmptrapd_path = "/usr/sbin/snmptrapd";
  int port = 0;                    // 0: a free one
  std::string v3_trap_engine_id;   // the sender's engine ID, for v3 traps (createUser -e)
};

// One notification as received: its varbinds in order, OID (numeric,
// leading '.') -> value as snmptrapd prints it (-Oq: strings quoted).
struct ReceivedTrap {
  std::vector<std::pair<std::string, std::string>> varbinds;
  // The value of the first varbind whose OID starts with `prefix`, "" if none.
  std::string value(const std::string& prefix) const;
  // The first varbind whose OID starts with `prefix`: its full OID, "" if none.
  std::string oid(const std::string& prefix) const;
  std::string trapOid() const { return value(".1.3.6.1.6.3.1.1.4.1.0"); }
  std::string text() const;  // for failure messages
};

class SnmptrapdLauncher {
 public:
  explicit SnmptrapdLauncher(SnmptrapdOptions options = {});
  ~SnmptrapdLauncher();
  SnmptrapdLauncher(const SnmptrapdLauncher&) = delete;
  SnmptrapdLauncher& operator=(const SnmptrapdLauncher&) = delete;

  // Dir, config, a free port; returns once snmptrapd listens.
  Status start();
  void stop();

  int port() const { return port_; }
  std::string address() const { return "127.0.0.1:" + std::to_string(port_); }
  const SnmptrapdOptions& options() const { return options_; }
  const std::string& dir() const { return dir_; }

  // Everything received so far, in order.
  std::vector<ReceivedTrap> received() const;
  std::string logText() const;

 private:
  Status spawn();

  SnmptrapdOptions options_;
  std::string dir_;
  int port_ = 0;
  pid_t pid_ = -1;
};

}  // namespace rdmagw::sim
