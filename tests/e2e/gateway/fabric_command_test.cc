// `rdmagw fabric` against the real gNMI server: the analytics engine derives
// verdicts on a small fabric (tests/analytics/small_fabric.h: a receiver
// whose notification point is off, a host pausing the leaf), the gNMI
// northbound serves that store on loopback, and the real binary's tables
// must say exactly what the store holds, port by port.

#include <gtest/gtest.h>

#include <map>
#include <memory>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "northbound/gnmi/gnmi_server.h"
#include "tests/analytics/small_fabric.h"
#include "tests/support/test_support.h"

namespace rdmagw::gateway {
namespace {

using testing::SmallFabric;
using Codes = std::map<std::string, std::string>;

// stdout and stderr together.
testing::CommandResult fabric(const std::string& args) {
  return testing::runCommand(std::string(RDMAGW_BIN) + " fabric " + args);
}

// stdout alone: the tables, without whatever gRPC logs.
testing::CommandResult fabricTables(const std::string& args) {
  return testing::runCommand("{ " + std::string(RDMAGW_BIN) + " fabric " + args + " 2>/dev/null; }");
}

// The rows of one table of the output: each row's cells split on runs of
// spaces, the header row dropped. A table ends at an empty line.
std::vector<std::vector<std::string>> table(const std::string& out, const std::string& title) {
  std::vector<std::vector<std::string>> rows;
  std::istringstream in(out);
  std::string line;
  bool inside = false, header = false;
  while (std::getline(in, line)) {
    if (!inside) {
      inside = line == title;
      header = inside;
      continue;
    }
    if (line.empty()) break;
    if (header) {
      header = false;
      continue;
    }
    std::istringstream cells(line);
    std::vector<std::string> row;
    for (std::string c; cells >> c;) row.push_back(c);
    rows.push_back(row);
  }
  return rows;
}

// Column `col` of a table keyed "c0:c1:c2", as SmallFabric::derived keys.
Codes column(const std::vector<std::vector<std::string>>& rows, size_t col) {
  Codes out;
  for (const auto& r : rows) {
    if (r.size() > col) out[r[0] + ":" + r[1] + ":" + r[2]] = r[col];
  }
  return out;
}

class FabricCommandTest : public ::testing::Test {
 protected:
  void startServer() {
    northbound::gnmi::GnmiServerConfig c;
    c.listen = "127.0.0.1:0";
    c.insecure = true;
    server_ = std::make_unique<northbound::gnmi::GnmiServer>(fabric_.store(), c);
    Status st = server_->start();
    ASSERT_TRUE(st.isOk()) << st.toString();
  }

  SmallFabric fabric_;
  std::unique_ptr<northbound::gnmi::GnmiServer> server_;
};

TEST_F(FabricCommandTest, PrintsTheVerdictsAndRootsTheStoreHolds) {
  // host02 without PFC on priority 3 while its leaf port has it; host01 consistent.
  fabric_.set("host01", SmallFabric::pfcState("ens1f0np0", "enabled-priorities"), 0x08);
  fabric_.set("host02", SmallFabric::pfcState("ens1f0np0", "enabled-priorities"), 0);
  fabric_.ticks(6, [&] {
    // host01's notification point is off: CE marks arrive, no CNP leaves.
    fabric_.bump("leaf01", SmallFabric::queue("Ethernet1/1", 3, "ecn-marked-pkts"), 1000);
    fabric_.bump("host01", SmallFabric::hw("np-ecn-marked-roce-packets"), 1000);
    // host01 pauses the leaf, which pauses host02 and esx01: host01 is the root.
    fabric_.bump("host01", SmallFabric::pfc("ens1f0np0", 3, "out-pause-frames"), 100);
    fabric_.bump("leaf01", SmallFabric::pfc("Ethernet1/1", 3, "in-pause-frames"), 100);
    fabric_.bump("leaf01", SmallFabric::pfc("Ethernet1/2", 3, "out-pause-frames"), 100);
    fabric_.bump("host02", SmallFabric::pfc("ens1f0np0", 3, "in-pause-frames"), 100);
    fabric_.bump("leaf01", SmallFabric::pfc("Ethernet1/3", 3, "out-pause-frames"), 100);
    fabric_.bump("esx01", SmallFabric::nicPfc("vmnic4", 3, "rx-pause"), 100);
    // host02 drops on the lossless priority.
    fabric_.bump("host02", SmallFabric::pfc("ens1f0np0", 3, "in-discards"), 5);
  });
  // The scenario is what the test thinks it is.
  ASSERT_EQ(fabric_.derived("verdict")["host01:mlx5_0:1"], "marks-no-cnp");
  ASSERT_EQ(fabric_.derived("pause-tree-state")["host01:ens1f0np0:3"], "root");
  ASSERT_EQ(fabric_.derived("lossless-drop-alarm")["host02:ens1f0np0:3"], "1");
  startServer();

  testing::CommandResult r = fabricTables("--address " + server_->address() + " --insecure");
  ASSERT_EQ(r.exit_code, 0) << r.output;

  auto dcqcn = table(r.output, "DCQCN chain per RDMA port");
  EXPECT_EQ(column(dcqcn, 3), fabric_.derived("verdict")) << r.output;
  EXPECT_EQ(dcqcn.size(), 2u) << r.output;

  auto pfc = table(r.output, "PFC per port and priority");
  EXPECT_EQ(column(pfc, 3), fabric_.derived("pause-tree-state")) << r.output;
  EXPECT_EQ(column(pfc, 4), fabric_.derived("pause-tree-size")) << r.output;
  EXPECT_EQ(column(pfc, 5), fabric_.derived("pause-balance")) << r.output;
  Codes alarms;  // "-" where the priority is not lossless (no alarm leaf)
  for (const auto& [port, state] : fabric_.derived("pause-tree-state")) alarms[port] = "-";
  for (const auto& [port, alarm] : fabric_.derived("lossless-drop-alarm")) alarms[port] = alarm == "1" ? "DROPPING" : "no";
  EXPECT_EQ(alarms["host02:ens1f0np0:3"], "DROPPING");
  EXPECT_EQ(column(pfc, 7), alarms) << r.output;
  // The link peer, where the config cabled one.
  EXPECT_EQ(column(pfc, 8)["leaf01:Ethernet1/1:3"], "host01:ens1f0np0") << r.output;

  Codes roots;
  for (const auto& [port, state] : fabric_.derived("pause-tree-state")) {
    if (state == "root") roots[port] = fabric_.derived("pause-tree-size")[port];
  }
  ASSERT_FALSE(roots.empty());
  EXPECT_EQ(column(table(r.output, "Pause-tree roots"), 3), roots) << r.output;

  auto dcb = table(r.output, "DCB consistency per link end");
  Codes consistency;
  for (const auto& row : dcb) consistency[row[0] + ":" + row[1]] = row[2];
  EXPECT_EQ(consistency, (Codes{{"host01:ens1f0np0", "consistent"},
                                {"host02:ens1f0np0", "mismatch"},
                                {"leaf01:Ethernet1/1", "consistent"},
                                {"leaf01:Ethernet1/2", "mismatch"}}))
      << r.output;
  EXPECT_NE(r.output.find("pfc priorities: leaf01:Ethernet1/2 {3} vs host02:ens1f0np0 {}"), std::string::npos)
      << r.output;

  // --problems: the broken chain, the tree and the drops; not the idle
  // receiver, not the clear priority 0.
  testing::CommandResult problems = fabricTables("--address " + server_->address() + " --insecure --problems");
  ASSERT_EQ(problems.exit_code, 0) << problems.output;
  EXPECT_EQ(column(table(problems.output, "DCQCN chain per RDMA port"), 3), (Codes{{"host01:mlx5_0:1", "marks-no-cnp"}}))
      << problems.output;
  Codes in_trees;
  for (const auto& [port, state] : fabric_.derived("pause-tree-state")) {
    if (state != "clear") in_trees[port] = state;
  }
  EXPECT_EQ(in_trees.size(), 6u);
  EXPECT_EQ(column(table(problems.output, "PFC per port and priority"), 3), in_trees) << problems.output;
  EXPECT_EQ(table(problems.output, "DCB consistency per link end").size(), 2u) << problems.output;

  // One target only.
  testing::CommandResult one = fabricTables("--address " + server_->address() + " --insecure --target host02");
  ASSERT_EQ(one.exit_code, 0) << one.output;
  std::set<std::string> targets;
  for (const auto& row : table(one.output, "PFC per port and priority")) targets.insert(row[0]);
  EXPECT_EQ(targets, std::set<std::string>{"host02"}) << one.output;
}

TEST_F(FabricCommandTest, AGatewayWithoutVerdictsOrUnreachableIsAnError) {
  fabric_.ticks(1);  // one sample: no rate, so no verdict yet
  startServer();
  testing::CommandResult none = fabric("--address " + server_->address() + " --insecure");
  EXPECT_EQ(none.exit_code, 1) << none.output;
  EXPECT_NE(none.output.find("has no fabric verdicts"), std::string::npos) << none.output;

  const int port = testing::freeLoopbackPort();
  ASSERT_NE(port, 0);
  testing::CommandResult down =
      fabric("--address 127.0.0.1:" + std::to_string(port) + " --insecure --timeout 2s");
  EXPECT_EQ(down.exit_code, 1) << down.output;
  EXPECT_NE(down.output.find("gNMI Get from 127.0.0.1:" + std::to_string(port) + " failed"), std::string::npos)
      << down.output;

  // TLS by default: a plain-text server does not answer a TLS client.
  testing::CommandResult tls = fabric("--address " + server_->address() + " --skip-verify --timeout 2s");
  EXPECT_EQ(tls.exit_code, 1) << tls.output;
}

TEST_F(FabricCommandTest, HelpAndUsageErrors) {
  testing::CommandResult help = fabric("--help");
  EXPECT_EQ(help.exit_code, 0);
  EXPECT_EQ(help.output.rfind("usage: rdmagw fabric", 0), 0u) << help.output;
  for (const char* opt : {"--address", "--insecure", "--skip-verify", "--ca-file", "--username", "--password-env"}) {
    EXPECT_NE(help.output.find(opt), std::string::npos) << opt;
  }
  EXPECT_EQ(fabric("--insecure --ca-file /x.pem").exit_code, 2);
  EXPECT_EQ(fabric("--timeout soon").exit_code, 2);
  EXPECT_EQ(fabric("--address nohost").exit_code, 2);
}

}  // namespace
}  // namespace rdmagw::gateway
