// The switch ports' PFC watchdog as it runs (`show queuing pfc-queue
// detail`, read through the Nexus profile's parser) cross-checked with the
// engine's own pause-storm verdicts (roce_checks.h checkWatchdogStorms), on
// the real simulated fabric (sim_feed.h):
//   - pause-storm: the leaf port toward the storming NIC shows Shutdown,
//     our verdict sees the storm, and the two agree on every run: no
//     watchdog finding, before, during or after;
//   - watchdog-false-trip: the watchdog shuts the queue on one leaf port
//     with no storm: flow-control WARN on exactly that leaf and port, gone
//     once the scenario stops and its shutdown has left the window.
// (A storm the watchdog does not act on: roce_checks_test.cc.)
#include <gtest/gtest.h>

#include "sim/scenario.h"
#include "tests/analytics/sim_feed.h"

namespace rdmagw::analytics {
namespace {

using testing::SimFeed;
using Codes = std::map<std::string, std::string>;

constexpr int kWaitTicks = 60;

// The watchdog findings, "target:flow-control/<check>/<port>" -> severity.
Codes watchdogFindings(const SimFeed& feed) {
  Codes out;
  for (const auto& [key, severity] : feed.derived("severity")) {
    if (key.find("/watchdog-") != std::string::npos) out[key] = severity;
  }
  return out;
}

std::string queueLeaf(const SimFeed& feed, int endpoint, const std::string& leaf) {
  const std::string port = feed.fabric().switchPortOf(endpoint).name;
  return "/interfaces/interface[name=" + port + "]/ethernet/pfc/watchdog/qos-groups/qos-group[id=" +
         std::to_string(feed.fabric().config().roce_priority) + "]/state/" + leaf;
}

std::string leafOf(const SimFeed& feed, int endpoint) {
  return feed.fabric().switches()[feed.fabric().attachment(endpoint).sw].name;
}

std::string text(const SimFeed& feed, const std::string& target, const std::string& path) {
  auto s = const_cast<SimFeed&>(feed).store().get(target, path);
  if (!s) return "";
  const auto* t = std::get_if<std::string>(&s->value);
  return t ? *t : valueToString(s->value);
}

uint64_t checked(const SimFeed& feed, const std::string& target) {
  const std::string v = feed.derived("checked")[target + ":flow-control"];
  return v.empty() ? 0 : std::stoull(v);
}

TEST(WatchdogScenarioTest, APauseStormShutsTheQueueAndTheWatchdogAgreesWithOurVerdictThroughout) {
  SimFeed feed(SimFeed::calmFabric(), SimFeed::config());
  feed.ticks(6);
  const int e = 3;
  const std::string leaf = leafOf(feed, e);
  ASSERT_EQ(text(feed, leaf, queueLeaf(feed, e, "state")), "Ok");
  ASSERT_EQ(text(feed, leaf, "/interfaces/interface[name=" + feed.fabric().switchPortOf(e).name +
                                 "]/ethernet/pfc/watchdog/state/enabled"),
            "1");
  EXPECT_TRUE(watchdogFindings(feed).empty());
  const uint64_t calm_checked = checked(feed, leaf);
  EXPECT_GT(calm_checked, 0u);

  feed.fabric().setScenario({sim::ScenarioKind::kPauseStorm, e});
  const std::string nic = feed.hostPort(e) + ":" + std::to_string(feed.fabric().config().roce_priority);
  bool shut = false, storm = false;
  for (int t = 0; t < kWaitTicks && !(shut && storm); ++t) {
    feed.tick();
    shut = text(feed, leaf, queueLeaf(feed, e, "state")) == "Shutdown";
    storm = feed.derived("pause-storm")[nic] == "1";
    ASSERT_TRUE(watchdogFindings(feed).empty()) << "tick " << t << ": the watchdog and our verdict disagree";
  }
  ASSERT_TRUE(shut && storm) << "shut " << shut << " storm " << storm;
  feed.ticks(8);
  EXPECT_TRUE(watchdogFindings(feed).empty());
  EXPECT_EQ(text(feed, leaf, queueLeaf(feed, e, "shutdown-events")), "1");
  EXPECT_EQ(checked(feed, leaf), calm_checked) << "the same items, all passing";

  feed.fabric().setScenario({});
  for (int t = 0; t < 12; ++t) {
    feed.tick();
    ASSERT_TRUE(watchdogFindings(feed).empty()) << "tick " << t << " after the storm";
  }
  EXPECT_EQ(text(feed, leaf, queueLeaf(feed, e, "state")), "Ok");
  EXPECT_EQ(text(feed, leaf, queueLeaf(feed, e, "restored-events")), "1");
}

TEST(WatchdogScenarioTest, AFalseTripWarnsOnItsLeafPortAloneAndClearsWhenItStops) {
  SimFeed feed(SimFeed::calmFabric(), SimFeed::config());
  feed.ticks(6);
  const int e = 3;
  feed.fabric().setScenario({sim::ScenarioKind::kWatchdogFalseTrip, e});
  const std::string leaf = leafOf(feed, e);
  const std::string port = feed.fabric().switchPortOf(e).name;
  EXPECT_EQ(feed.fabric().scenarioTarget(), leaf + " " + port);
  const Codes want = {{leaf + ":flow-control/watchdog-shutdown-without-storm/" + port, "WARN"}};
  ASSERT_TRUE(feed.tickUntil([&] { return watchdogFindings(feed) == want; }, kWaitTicks)) << watchdogFindings(feed).size();
  feed.ticks(6);
  EXPECT_EQ(watchdogFindings(feed), want) << "it holds while the queue stays shut";
  EXPECT_EQ(feed.derived("status")[leaf + ":flow-control"], "WARN");
  EXPECT_TRUE(feed.flagged("pause-storm", "0").empty()) << "no storm anywhere";
  const std::string found = feed.derived("found")[leaf + ":flow-control/watchdog-shutdown-without-storm/" + port];
  EXPECT_NE(found.find("Shutdown"), std::string::npos) << found;
  EXPECT_NE(found.find("no pause storm"), std::string::npos) << found;

  feed.fabric().setScenario({});
  ASSERT_TRUE(feed.tickUntil([&] { return watchdogFindings(feed).empty(); }, kWaitTicks));
  EXPECT_EQ(feed.derived("status")[leaf + ":flow-control"], "PASS");
}

}  // namespace
}  // namespace rdmagw::analytics
