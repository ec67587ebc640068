#pragma once
// What every launcher of a real peer (sshd, snmpd, snmptrapd, etcd) needs:
// a free loopback port to hand it, and the set-up of the forked child
// before its exec.

#include <string>

namespace rdmagw::sim {

// A port on 127.0.0.1 that nothing was bound to a moment ago (0 when the
// probe socket could not be made). `socket_type` is SOCK_STREAM or
// SOCK_DGRAM: a TCP port says nothing of the same UDP port.
int freeLoopbackPort(int socket_type);
int freeTcpPort();
int freeUdpPort();

// In the child between fork and exec; only async-signal-safe calls (the
// parent has gRPC and Net-SNMP threads). Clears the signal mask (a parent
// that blocks SIGTERM for sigwait, as `rdmagw demo` does, must not hand that
// mask on, or the peer could not be stopped) and appends stdout and stderr
// to `log`.
void prepareChildOutput(const std::string& log);

}  // namespace rdmagw::sim
