// rdmagw: streaming-telemetry gateway for lossless RDMA (RoCEv2) fabrics.

#include <cstdio>
#include <cstring>

#include "gateway/commands.h"

namespace {

const char kUsage[] =
    "usage: rdmagw <command> [options]\n"
    "\n"
    "commands:\n"
    "  run --config FILE [--log-level L]   run the gateway with a YAML config\n"
    "  demo [--hosts N] [--devices M] [--switches K] [--esxi E] [--seed S] [--listen ADDR]\n"
    "       [--dir DIR] [--period DUR] [--interval DUR]\n"
    "                                      run a simulated congested RoCE fabric (RDMA hosts,\n"
    "                                      Nexus leaves and ESXi hosts over a real sshd) and\n"
    "                                      the gateway on it (Ctrl-C stops both)\n"
    "  check-config FILE                   validate a config; errors as file:line:col\n"
    "  parse --format FORMAT FILE          run one southbound parser on a saved device\n"
    "                                      output and print the normalized updates\n"
    "  parse --list-formats                list the parser formats\n"
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
  std::fprintf(stderr, "rdmagw: unknown command '%s'\n\n%s", cmd.c_str(), kUsage);
  return 2;
}
