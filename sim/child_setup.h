#pragma once
// What every launcher of a real peer (sshd, snmpd, snmptrapd, etcd) needs:
// a free loopback port to hand it, and the set-up of the forked child
// before its exec.

#include <string>

#include "sim/loopback_port.h"  // the ports launchers hand their peers

namespace rdmagw::sim {

// In the child between fork and exec; only async-signal-safe calls (the
// parent has gRPC and Net-SNMP threads). Clears the signal mask (a parent
// that blocks SIGTERM for sigwait, as `rdmagw-demo` does, must not hand that
// mask on, or the peer could not be stopped) and appends stdout and stderr
// to `log`.
void prepareChildOutput(const std::string& log);

}  // namespace rdmagw::sim
