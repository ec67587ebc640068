// rdmagw: streaming-telemetry gateway for lossless RDMA (RoCEv2) fabrics.

#include <cstdio>
#include <cstring>

#include "gateway/cli/commands.h"
#include "gateway/runtime/grpc_log_bridge.h"

namespace {

const char kUsage[] =
    "usage: rdmagw <command> [options]\n"
    "\n"
    "commands:\n"
    "  run --config FILE [--log-level L]   run the gateway with a YAML config\n"
    "  demo                                where the demo is: a simulated congested RoCE fabric\n"
    "                                      and the gateway on it is rdmagw-demo, a separate\n"
    "                                      program of a source build (not packaged)\n"
    "  check-config FILE                   validate a config; errors as file:line:col\n"
    "  parse --format FORMAT FILE          run one southbound parser on a saved device\n"
    "                                      output and print the normalized updates\n"
    "  parse --list-formats                list the parser formats\n"
    "  fabric [--address HOST:PORT]        print a running gateway's fabric verdicts and\n"
    "                                      pause-tree roots (read over its gNMI server);\n"
    "                                      --pod NS/NAME: one pod's devices, switch ports\n"
    "                                      and the problems on that path\n"
    "  status [--socket PATH] [--json]     a running gateway's targets, northbounds and last\n"
    "                                      reload (read over its admin socket); exit 1 when\n"
    "                                      a target is down, 2 when it cannot be reached\n"
    "  check roce [--address HOST:PORT]    validate the fabric for RoCE (lossless, classification,\n"
    "                                      congestion control, flow control, ETS, live): a\n"
    "                                      running gateway's check results over gNMI; exit 1\n"
    "                                      when a group fails, 2 when it cannot check\n"
    "\n"
    "`rdmagw <command> --help` describes each command and its options.\n"
    "\n"
    "options:\n"
    "  -h, --help     this help\n"
    "  --version      print the version\n";

}  // namespace

int main(int argc, char** argv) {
  using namespace rdmagw::gateway;
  if (argc < 2) {
    std::fputs(kUsage, stderr);
    return 2;
  }
  // Before any gRPC use: gRPC's lines in the gateway's log, not beside it.
  installGrpcLogBridge();
  const std::string cmd = argv[1];
  Args args(argv + 2, argv + argc);
  if (cmd == "-h" || cmd == "--help" || cmd == "help") {
    std::fputs(kUsage, stdout);
    return 0;
  }
  if (cmd == "--version" || cmd == "version") {
    std::printf("rdmagw %s\n", RDMAGW_VERSION);
    return 0;
  }
  if (cmd == "run") return runCommand(args);
  if (cmd == "demo") return demoCommand(args);
  if (cmd == "check-config") return checkConfigCommand(args);
  if (cmd == "parse") return parseCommand(args);
  if (cmd == "fabric") return fabricCommand(args);
  if (cmd == "status") return statusCommand(args);
  if (cmd == "check") return checkCommand(args);
  std::fprintf(stderr, "rdmagw: unknown command '%s'\n\n%s", cmd.c_str(), kUsage);
  return 2;
}
