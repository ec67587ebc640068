#pragma once
// Free loopback ports for the real peers the simulator and the tests start
// (sshd, snmpd, etcd, gateways). A port found free is handed to a program
// that binds it a moment later; in that moment anything else on the machine
// may take it. Two things take ports on a test machine: the kernel, for
// every outgoing connection and every server bound to port 0 (from its
// ephemeral range), and the other test processes running beside this one
// picking theirs. So ports are picked below the ephemeral range, where the
// kernel never hands one out, and each is reserved with a lock file that
// this process holds until it exits, which the other pickers respect.

namespace rdmagw::sim {

// A port on 127.0.0.1 that nothing was bound to a moment ago and no other
// process of ours has picked (0 when none could be found). `socket_type` is
// SOCK_STREAM or SOCK_DGRAM: the port is checked free for that type.
int freeLoopbackPort(int socket_type);
int freeTcpPort();
int freeUdpPort();

}  // namespace rdmagw::sim
