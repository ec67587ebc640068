// The verdicts as an SNMP manager's trap receiver sees them (SNMPv2c and v3
// notifications sent when a verdict changes). The real
// simulated fabric feeds the store through the real collectors and the
// analytics engine (sim_feed.h); the SNMP northbound watches that store
// and sends to a real snmptrapd started here. A pause storm from one host
// must arrive as one pause-storm alarm for exactly that NIC and priority,
// with the NIC as the only pause-tree root; its end as the clear of the
// same port; and no other port ever gets a pause-storm notification.
// Waits are counted in simulated ticks for the fabric, and bounded by
// testing::kEventWait for the network.

#include <gtest/gtest.h>

#include <map>
#include <set>
#include <string>

#include "northbound/snmp/snmp_agent.h"
#include "sim/scenario.h"
#include "sim/snmptrapd_launcher.h"
#include "tests/analytics/sim_feed.h"
#include "tests/northbound/snmp/notify_test_util.h"
#include "tests/support/test_support.h"

namespace rdmagw::analytics {
namespace {

using northbound::snmp::SnmpAgent;
using northbound::snmp::SnmpNotifyDestination;
using sim::ReceivedTrap;
using testing::SimFeed;

constexpr int kWaitTicks = 60;  // generous: the verdicts settle within a window or two (4 ticks)
constexpr int kRoceDefaultPriority = 3;

class FabricSnmpNotifyTest : public ::testing::Test {
 protected:
  void SetUp() override {
    feed_.ticks(6);  // two samples and a full window: every verdict present and quiet
    ASSERT_TRUE(trapd_.start().isOk()) << trapd_.logText();
    northbound::snmp::SnmpConfig cfg = testing::notifyAgentConfig(state_.path());
    cfg.notifications = {testing::v2cDestination(trapd_, SnmpNotifyDestination::Type::kTrap)};
    agent_ = std::make_unique<SnmpAgent>(feed_.store(), cfg);
    Status st = agent_->start();
    ASSERT_TRUE(st.isOk()) << st.message();
    settle();
    ASSERT_TRUE(trapd_.received().empty()) << "a calm fabric alerts nothing: " << trapd_.received()[0].text();
  }
  void TearDown() override {
    if (agent_) agent_->stop();
  }

  // Every store change so far is in a snapshot the agent served, and what it
  // found is sent: two more snapshots taken into service after this call.
  void settle() {
    const uint64_t served = agent_->snapshotsServed();
    ASSERT_TRUE(testing::waitRefreshing(*agent_, [&] { return agent_->snapshotsServed() >= served + 2; }));
  }

  // "target:interface" of a SimFeed key as the notification names it: the
  // target, the port and the verdict's instance (ifIndex.priority).
  struct Where {
    std::string target, port, instance;
  };
  Where where(const std::string& key) const {
    const size_t colon = key.find(':');
    Where w{key.substr(0, colon), key.substr(colon + 1), ""};
    const uint32_t if_index = testing::ifIndexOf(*agent_, w.target, w.port);
    w.instance = "." + std::to_string(if_index) + "." + std::to_string(kRoceDefaultPriority);
    return w;
  }
  static std::string unquoted(const std::string& v) {
    return v.size() >= 2 && v.front() == '"' ? v.substr(1, v.size() - 2) : v;
  }
  // Per pause-storm notification: "target port instance code".
  std::vector<std::string> received(const std::string& trap_oid, uint32_t column) const {
    std::vector<std::string> out;
    const std::string col = std::string(testing::kFabricPrioEntry) + std::to_string(column);
    for (const ReceivedTrap& t : testing::trapsOf(trapd_, trap_oid)) {
      const std::string oid = t.oid(col + ".");
      out.push_back(unquoted(t.value(testing::kNotifyTarget)) + " " + unquoted(t.value(testing::kNotifyPort)) + " " +
                    oid.substr(col.size()) + " " + t.value(col + "."));
    }
    return out;
  }
  std::string event(const Where& w, const std::string& code) const {
    return w.target + " " + w.port + " " + w.instance + " " + code;
  }

  SimFeed feed_{SimFeed::calmFabric(), SimFeed::config()};
  testing::TempDir state_{"rdmagw-fabric-snmp"};
  sim::SnmptrapdLauncher trapd_;
  std::unique_ptr<SnmpAgent> agent_;
};

TEST_F(FabricSnmpNotifyTest, APauseStormAlertsForTheStormingNicAloneAndClearsWhenItStops) {
  feed_.fabric().setScenario({sim::ScenarioKind::kPauseStorm, 3});  // host02's second NIC
  const std::string nic_key = feed_.hostPort(3);
  ASSERT_TRUE(feed_.tickUntil([&] { return feed_.derived("pause-storm")[nic_key + ":3"] == "1"; }, kWaitTicks));
  feed_.ticks(4);
  const Where nic = where(nic_key);
  ASSERT_NE(nic.instance, ".0.3") << "no ifIndex for " << nic_key;
  ASSERT_TRUE(testing::waitRefreshing(*agent_, [&] { return !received(testing::kPauseStormChange, 2).empty(); }))
      << trapd_.logText();
  settle();
  EXPECT_EQ(received(testing::kPauseStormChange, 2), (std::vector<std::string>{event(nic, "1")}));
  // The storming NIC is the one root of the pause tree it causes.
  std::vector<std::string> roots;
  for (const std::string& e : received(testing::kPauseTreeChange, 4)) {
    if (e.ends_with(" 2")) roots.push_back(e);
  }
  EXPECT_EQ(roots, (std::vector<std::string>{event(nic, "2")}));

  feed_.fabric().setScenario({});
  ASSERT_TRUE(feed_.tickUntil([&] { return feed_.flagged("pause-storm", "0").empty() &&
                                           feed_.flagged("pause-tree-state-code", "0").empty(); },
                              kWaitTicks));
  feed_.ticks(4);
  ASSERT_TRUE(testing::waitRefreshing(*agent_, [&] { return received(testing::kPauseStormChange, 2).size() >= 2; }))
      << trapd_.logText();
  settle();
  EXPECT_EQ(received(testing::kPauseStormChange, 2), (std::vector<std::string>{event(nic, "1"), event(nic, "0")}));
  // Every port that entered the tree left it: its last notification is clear.
  std::map<std::string, std::string> last;
  for (const std::string& e : received(testing::kPauseTreeChange, 4)) last[e.substr(0, e.rfind(' '))] = e.substr(e.rfind(' ') + 1);
  for (const auto& [port, code] : last) EXPECT_EQ(code, "0") << port;
  EXPECT_TRUE(received(testing::kLosslessDropChange, 3).empty());
}


// Every other scenario of sim/scenario.h reaches the trap receiver as the
// notifications of its verdict: the ports whose last notification carries an
// alarming code are exactly the ports the store flags with one (nowhere
// else), and when the scenario stops each notified port's last code is
// normal again.
struct TrapCase {
  sim::ScenarioKind kind;
  const char* trap_oid;
  const char* entry;              // the verdict's MIB table entry
  uint32_t code_column;
  const char* leaf;               // the derived leaf (SimFeed key names)
  std::set<std::string> alarming; // codes that are the scenario's alarm
  bool per_priority;              // instance ifIndex.priority
};

class FabricSnmpScenarioTest : public FabricSnmpNotifyTest, public ::testing::WithParamInterface<TrapCase> {
 protected:
  using Codes = std::map<std::string, std::string>;

  static Codes alarmsOf(const Codes& all, const std::set<std::string>& alarming) {
    Codes out;
    for (const auto& [k, v] : all) {
      if (alarming.count(v)) out[k] = v;
    }
    return out;
  }
  // The last code notified per port, keyed as SimFeed keys the derived leaf.
  Codes lastNotified(const TrapCase& c) const {
    Codes out;
    const std::string col = std::string(c.entry) + std::to_string(c.code_column) + ".";
    for (const ReceivedTrap& t : testing::trapsOf(trapd_, c.trap_oid)) {
      std::string key = unquoted(t.value(testing::kNotifyTarget)) + ":" + unquoted(t.value(testing::kNotifyPort));
      if (c.per_priority) {
        const std::string oid = t.oid(col);
        key += ":" + oid.substr(oid.rfind('.') + 1);
      }
      out[key] = t.value(col);
    }
    return out;
  }
};

TEST_P(FabricSnmpScenarioTest, NotifiesExactlyTheFlaggedPortsThenTheirClear) {
  const TrapCase& c = GetParam();
  feed_.fabric().setScenario({c.kind, 0});
  auto flagged = [&] { return alarmsOf(feed_.derived(c.leaf), c.alarming); };
  ASSERT_TRUE(feed_.tickUntil([&] { return !flagged().empty(); }, kWaitTicks));
  feed_.ticks(4);
  const Codes expected = flagged();
  ASSERT_FALSE(expected.empty());
  EXPECT_TRUE(testing::waitRefreshing(*agent_, [&] { return alarmsOf(lastNotified(c), c.alarming) == expected; }))
      << trapd_.logText();
  settle();
  EXPECT_EQ(alarmsOf(lastNotified(c), c.alarming), expected) << trapd_.logText();

  feed_.fabric().setScenario({});
  ASSERT_TRUE(feed_.tickUntil([&] { return flagged().empty(); }, kWaitTicks));
  feed_.ticks(4);
  EXPECT_TRUE(testing::waitRefreshing(*agent_, [&] { return alarmsOf(lastNotified(c), c.alarming).empty(); }))
      << trapd_.logText();
  settle();
  const Codes after = lastNotified(c);
  EXPECT_TRUE(alarmsOf(after, c.alarming).empty()) << trapd_.logText();
  for (const auto& [port, code] : expected) EXPECT_TRUE(after.count(port)) << port << " never cleared";
}

INSTANTIATE_TEST_SUITE_P(
    Scenarios, FabricSnmpScenarioTest,
    ::testing::Values(
        TrapCase{sim::ScenarioKind::kNpOff, testing::kDcqcnChange, testing::kFabricDcqcnEntry, 1, "verdict-code", {"2", "3", "4"}, false},
        TrapCase{sim::ScenarioKind::kRpOff, testing::kDcqcnChange, testing::kFabricDcqcnEntry, 1, "verdict-code", {"2", "3", "4"}, false},
        TrapCase{sim::ScenarioKind::kIncast, testing::kPauseTreeChange, testing::kFabricPrioEntry, 4, "pause-tree-state-code", {"2"}, true},
        TrapCase{sim::ScenarioKind::kPfcMismatch, testing::kDcbChange, testing::kFabricDcbEntry, 1, "consistency-code", {"1"}, false},
        TrapCase{sim::ScenarioKind::kPfcMismatchSwitch, testing::kDcbChange, testing::kFabricDcbEntry, 1, "consistency-code", {"1"}, false},
        TrapCase{sim::ScenarioKind::kTrustMismatch, testing::kDcbChange, testing::kFabricDcbEntry, 1, "consistency-code", {"1"}, false}),
    [](const ::testing::TestParamInfo<TrapCase>& info) {
      std::string name(sim::scenarioName(info.param.kind));
      std::erase(name, '-');
      return name;
    });

}  // namespace
}  // namespace rdmagw::analytics
