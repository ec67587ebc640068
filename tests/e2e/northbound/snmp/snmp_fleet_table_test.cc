// The fleet target table through a real snmpd, as an NMS sees it: the
// default context of a member lists every target of the fleet with its
// owner's SNMP address (snmptable, with RDMAGW-MIB loaded); a target this
// member owns answers in its context at the address the table gives; and a
// target that moves to another member changes its row once the fleet view
// changes.

#include <gtest/gtest.h>

#include <chrono>
#include <map>
#include <sstream>
#include <thread>

#include "northbound/snmp/snmp_agent.h"
#include "sim/snmpd_launcher.h"
#include "tests/northbound/snmp/fleet_test_view.h"
#include "tests/northbound/snmp/snmp_test_store.h"
#include "tests/support/test_support.h"

namespace rdmagw::northbound::snmp {
namespace {

using testing::runCommand;

constexpr const char* kIfName = ".1.3.6.1.2.1.31.1.1.1.1";

// One row of the table as snmptable prints it.
struct Row {
  std::string context, owner, snmp, gnmi, owned_here;
};

std::string unquote(std::string s) {
  if (s.size() >= 2 && s.front() == '"' && s.back() == '"') s = s.substr(1, s.size() - 2);
  return s;
}

std::vector<std::string> splitComma(const std::string& line) {
  std::vector<std::string> out;
  std::string cell;
  std::istringstream in(line);
  while (std::getline(in, cell, ',')) out.push_back(unquote(cell));
  if (!line.empty() && line.back() == ',') out.push_back("");
  return out;
}

// One snmpd and one agent for the suite: Net-SNMP's subagent state is
// process-wide (snmp_agent.h), so a second agent in the same process would
// dial the first snmpd's socket. Each test starts from the three-member
// fleet.
class SnmpFleetTableTest : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    store_ = new Store();
    testing::fillStore(store_);
    state_ = new testing::TempDir("rdmagw-snmp-fleet-state");
    view_ = new FleetView();
    sim::SnmpdOptions opts;
    opts.contexts = {testing::kSwitch, testing::kHost, testing::kEsxi};
    opts.mib_dirs = std::string(RDMAGW_SOURCE_DIR) + "/mibs:" + RDMAGW_SOURCE_DIR + "/mibs/standard";
    snmpd_ = new sim::SnmpdLauncher(opts);
    Status st = snmpd_->start();
    ASSERT_TRUE(st.isOk()) << st.message();
    SnmpConfig cfg;
    cfg.agentx_socket = snmpd_->agentxSocket();
    cfg.state_dir = state_->path();
    cfg.refresh_period = std::chrono::milliseconds(200);
    cfg.agentx_ping_interval = std::chrono::seconds(1);
    view_->set(initialFleet());
    agent_ = new SnmpAgent(*store_, cfg, view_);
    st = agent_->start();
    ASSERT_TRUE(st.isOk()) << st.message();
  }
  static void TearDownTestSuite() {
    delete agent_;
    delete snmpd_;
    delete view_;
    delete state_;
    delete store_;
  }
  void SetUp() override {
    ASSERT_NE(agent_, nullptr);
    fleet_ = initialFleet();
    view_->set(fleet_);
    agent_->refreshNow();
  }
  void TearDown() override {
    if (HasFailure()) std::fprintf(stderr, "%s\n", snmpd_->logText().c_str());
  }

  // This member (gw1) advertises the snmpd it is the subagent of.
  static FleetSnapshot initialFleet() {
    FleetSnapshot f = testing::threeMemberFleet();
    f.members[0].addresses["snmp"] = snmpd_->address();
    return f;
  }

  // The table from the default context, by target name; empty when
  // snmptable fails.
  static std::map<std::string, Row> fleetTable(std::string* raw = nullptr) {
    testing::CommandResult r =
        runCommand(snmpd_->clientEnv() + " snmptable -m +RDMAGW-MIB -Cf , -Ci -t 2 -r 1 " + snmpd_->v2cArgs("") +
                   " RDMAGW-MIB::rdmagwFleetTargetTable");
    if (raw != nullptr) *raw = r.output;
    std::map<std::string, Row> rows;
    if (r.exit_code != 0) return rows;
    std::istringstream in(r.output);
    std::string line;
    std::vector<std::string> header;
    while (std::getline(in, line)) {
      std::vector<std::string> cells = splitComma(line);
      if (header.empty()) {
        if (line.find("rdmagwFleetTargetOwner") != std::string::npos) header = cells;
        continue;
      }
      if (cells.size() != header.size()) continue;
      std::map<std::string, std::string> by;
      for (size_t i = 0; i < cells.size(); ++i) by[header[i]] = cells[i];
      Row row{by["rdmagwFleetTargetContextName"], by["rdmagwFleetTargetOwner"],
              by["rdmagwFleetTargetOwnerSnmpAddress"], by["rdmagwFleetTargetOwnerGnmiAddress"],
              by["rdmagwFleetTargetOwnedHere"]};
      rows[row.context] = row;
    }
    return rows;
  }

  // Waits (up to 60 s) until `ok` holds for the table served.
  template <typename Pred>
  static std::map<std::string, Row> waitForTable(Pred ok, std::string* raw) {
    std::map<std::string, Row> rows;
    for (int i = 0; i < 120; ++i) {
      rows = fleetTable(raw);
      if (ok(rows)) break;
      std::this_thread::sleep_for(std::chrono::milliseconds(500));
    }
    return rows;
  }

  static Store* store_;
  static testing::TempDir* state_;
  static FleetView* view_;
  static sim::SnmpdLauncher* snmpd_;
  static SnmpAgent* agent_;
  FleetSnapshot fleet_;  // what this test's view says
};

Store* SnmpFleetTableTest::store_ = nullptr;
testing::TempDir* SnmpFleetTableTest::state_ = nullptr;
FleetView* SnmpFleetTableTest::view_ = nullptr;
sim::SnmpdLauncher* SnmpFleetTableTest::snmpd_ = nullptr;
SnmpAgent* SnmpFleetTableTest::agent_ = nullptr;

TEST_F(SnmpFleetTableTest, DefaultContextListsEveryFleetTargetWithItsOwnersAddress) {
  std::string raw;
  std::map<std::string, Row> rows =
      waitForTable([](const auto& r) { return r.size() == 5 && r.at("host1").owner == "gw2"; }, &raw);
  ASSERT_EQ(rows.size(), 5u) << raw;
  for (const auto& [target, owner] : fleet_.owners) {
    ASSERT_TRUE(rows.count(target)) << target << "\n" << raw;
    EXPECT_EQ(rows[target].owner, owner) << target;
  }
  EXPECT_EQ(rows["sw1"].snmp, snmpd_->address());
  EXPECT_EQ(rows["sw1"].gnmi, "10.0.0.1:9339");
  EXPECT_EQ(rows["sw1"].owned_here, "true");
  EXPECT_EQ(rows["host1"].snmp, "10.0.0.2:1161");
  EXPECT_EQ(rows["host1"].owned_here, "false");
  EXPECT_EQ(rows["spine1"].snmp, "10.0.0.2:1161");
  EXPECT_EQ(rows["leaf7"].owner, "gw3");
  EXPECT_EQ(rows["leaf7"].snmp, "");  // gw3 advertises no SNMP agent

  // Every row this member owns points at this snmpd, and the device answers
  // there in the context the row names (SNMPv3, as an NMS would ask).
  int owned = 0;
  for (const auto& [target, row] : rows) {
    if (row.owned_here != "true") continue;
    ++owned;
    ASSERT_EQ(row.snmp, snmpd_->address()) << target;
    testing::CommandResult r = runCommand(snmpd_->clientEnv() + " snmpwalk -On -Oq -t 2 -r 1 " +
                                              snmpd_->v3Args(row.context) + " " + kIfName);
    EXPECT_EQ(r.exit_code, 0) << target << ": " << r.output;
    EXPECT_NE(r.output.find(kIfName), std::string::npos) << target << ": " << r.output;
  }
  EXPECT_EQ(owned, 2);  // sw1, esxi1
}

TEST_F(SnmpFleetTableTest, AMovedTargetChangesItsRow) {
  std::string raw;
  std::map<std::string, Row> rows =
      waitForTable([](const auto& r) { return r.count("host1") && r.at("host1").owner == "gw2"; }, &raw);
  ASSERT_EQ(rows["host1"].owner, "gw2") << raw;
  // gw2 leaves the fleet: host1 comes to this member, spine1 goes to gw3.
  FleetSnapshot moved = fleet_;
  moved.members.erase(moved.members.begin() + 1);
  moved.owners["host1"] = "gw1";
  moved.owners["spine1"] = "gw3";
  view_->set(moved);
  agent_->refreshNow();
  rows = waitForTable([](const auto& r) { return r.count("host1") && r.at("host1").owner == "gw1"; }, &raw);
  ASSERT_TRUE(rows.count("host1")) << raw;
  EXPECT_EQ(rows["host1"].owner, "gw1") << raw;
  EXPECT_EQ(rows["host1"].snmp, snmpd_->address());
  EXPECT_EQ(rows["host1"].owned_here, "true");
  EXPECT_EQ(rows["spine1"].owner, "gw3");
  EXPECT_EQ(rows["spine1"].snmp, "");
  EXPECT_EQ(rows["sw1"].owner, "gw1");  // unchanged
  EXPECT_EQ(rows.size(), 5u);
}

TEST_F(SnmpFleetTableTest, EmptyWhenTheGatewayIsNotInAFleet) {
  view_->set(FleetSnapshot{});
  agent_->refreshNow();
  // The walk of the table ends at once (nothing under it), while the
  // gateway's own target table still answers.
  const std::string table = ".1.3.6.1.4.1.32473.1.1.11";
  testing::CommandResult r;
  for (int i = 0; i < 120; ++i) {
    r = runCommand(snmpd_->clientEnv() + " snmpwalk -On -Oq -t 2 -r 1 " + snmpd_->v2cArgs("") + " " + table);
    if (r.output.find(table + ".") == std::string::npos && r.output.find("Timeout") == std::string::npos) break;
    std::this_thread::sleep_for(std::chrono::milliseconds(500));
  }
  EXPECT_EQ(r.output.find(table + "."), std::string::npos) << r.output;
  testing::CommandResult targets = runCommand(snmpd_->clientEnv() + " snmpwalk -On -Oq -t 2 -r 1 " +
                                                  snmpd_->v2cArgs("") + " .1.3.6.1.4.1.32473.1.1.1");
  EXPECT_NE(targets.output.find("\"nexus\""), std::string::npos) << targets.output;
}

}  // namespace
}  // namespace rdmagw::northbound::snmp
