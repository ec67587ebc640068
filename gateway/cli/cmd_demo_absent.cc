#include <cstdio>

#include "gateway/cli/command_spec.h"

namespace rdmagw::gateway {
namespace {

// The simulated fabric is test-bed code (sim/): it stays out of the binary
// the package installs, and the demo is a program of its own. This command
// only says where it is, so an operator who read about `rdmagw demo` is not
// left with "unknown command".
const CommandSpec kDemoSpec{
    "usage: rdmagw demo\n"
    "\n"
    "The demo (a simulated congested RoCE fabric and the gateway on it) is not\n"
    "part of this program: it is rdmagw-demo, built beside rdmagw from the\n"
    "source tree. ./scripts/demo.sh builds and runs it; `rdmagw-demo --help`\n"
    "lists its options. The package installs no simulator.\n"
    "\n"
    "options:\n"
    "  -h, --help   this help\n",
    {},
    {},
    0};

}  // namespace

int demoCommand(const Args& args) {
  for (const std::string& a : args) {
    if (a == "--help" || a == "-h") return checkArgs(args, kDemoSpec, "demo");
  }
  std::fputs("rdmagw demo: the demo is a separate program, rdmagw-demo, built beside rdmagw from the\n"
             "source tree (./scripts/demo.sh builds and runs it); this rdmagw carries no simulator\n",
             stderr);
  return 2;
}

}  // namespace rdmagw::gateway
