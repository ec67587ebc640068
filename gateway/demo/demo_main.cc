// rdmagw-demo: a simulated congested RoCE fabric (RDMA hosts, Nexus leaves
// over gNMI with SSH fallback, ESXi hosts over a real sshd, its own snmpd)
// and the gateway on it, in one process. Built from the source tree only.

#include "gateway/demo/cmd_demo.h"
#include "gateway/runtime/grpc_log_bridge.h"

int main(int argc, char** argv) {
  // Before any gRPC use: gRPC's lines in the gateway's log, not beside it.
  rdmagw::gateway::installGrpcLogBridge();
  return rdmagw::gateway::demoMain(rdmagw::gateway::Args(argv + 1, argv + argc));
}
