// The daemon the package installs carries no test bed: `nm -C` of the built
// rdmagw finds nothing of the simulator (namespace rdmagw::sim: the fabric,
// its gNMI servers, the sshd and snmpd launchers), which only the demo's
// program, rdmagw-demo, links (gateway/demo/). Fails as soon as anything in
// the daemon's link pulls a simulator object back in.

#include <gtest/gtest.h>

#include <string>

#include "tests/support/test_support.h"

namespace rdmagw {
namespace {

using testing::CommandResult;
using testing::runCommand;

// How many of `binary`'s symbols (demangled) contain `text`.
long countSymbols(const std::string& binary, const std::string& text) {
  CommandResult r = runCommand("nm -C '" + binary + "' | grep -c -F '" + text + "'");
  return r.output.empty() ? -1 : std::stol(r.output);
}

TEST(DaemonSymbolsTest, TheDaemonLinksNoSimulator) {
  // The symbol table is there (not stripped, nm found): the gateway's own show.
  ASSERT_GT(countSymbols(RDMAGW_BIN, "rdmagw::gateway::"), 0) << "nm (binutils) found no symbol in " RDMAGW_BIN;
  const long sim = countSymbols(RDMAGW_BIN, "rdmagw::sim::");
  EXPECT_EQ(sim, 0) << "simulator code in the daemon; the first of them:\n"
                    << runCommand("nm -C '" RDMAGW_BIN "' | grep -F 'rdmagw::sim::' | head -20").output;
}

// The same count on the demo's program finds the simulator: the check above
// would see it if it were linked into the daemon.
TEST(DaemonSymbolsTest, TheDemoProgramHasTheSimulator) {
  EXPECT_GT(countSymbols(RDMAGW_DEMO_BIN, "rdmagw::sim::"), 0);
}

}  // namespace
}  // namespace rdmagw
