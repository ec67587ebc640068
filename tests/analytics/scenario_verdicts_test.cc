// The scenarios of the simulated fabric (sim/scenario.h) through the real
// collectors and parsers into the analytics engine (sim_feed.h): each one,
// switched on in a calm fabric, must flip its verdicts on exactly the
// ports, priority and devices the fault is on, and nowhere else, and they
// must all clear once it is switched off. Waits are counted in simulated
// ticks, with generous limits.

#include <gtest/gtest.h>

#include "sim/scenario.h"
#include "tests/analytics/sim_feed.h"

namespace rdmagw::analytics {
namespace {

using testing::SimFeed;
using Codes = std::map<std::string, std::string>;

constexpr int kWaitTicks = 60;  // generous: every verdict here settles within a window or two (4 s)

class ScenarioVerdictsTest : public ::testing::Test {
 protected:
  void SetUp() override {
    feed_.ticks(6);  // two samples and a full window
    ASSERT_TRUE(everythingNormal()) << report();
  }

  // Nothing flagged anywhere: every verdict at its quiet value.
  bool everythingNormal() const {
    return feed_.flagged("verdict-code", "0").empty() && feed_.flagged("pause-tree-state-code", "0").empty() &&
           feed_.flagged("pause-storm", "0").empty() && feed_.flagged("lossless-drop-alarm", "0").empty() &&
           only(feed_.derived("pause-balance-code"), "2").empty();
  }

  std::string report() const {
    std::string out;
    for (const char* leaf : {"verdict", "pause-tree-state", "pause-storm", "lossless-drop-alarm", "pause-balance"}) {
      for (const auto& [k, v] : feed_.derived(leaf)) {
        if (v != "idle" && v != "clear" && v != "0" && v != "balanced") out += std::string(leaf) + " " + k + "=" + v + "\n";
      }
    }
    return out;
  }

  static Codes only(const Codes& all, const std::string& value) {
    Codes out;
    for (const auto& [k, v] : all) {
      if (v == value) out[k] = v;
    }
    return out;
  }

  void start(sim::ScenarioKind kind, int receiver) {
    feed_.fabric().setScenario({kind, receiver});
    cast_ = feed_.fabric().scenarioCast();
    feed_.forget();
  }

  // Switched off: every verdict back to quiet within the wait, and it stays so.
  void stopAndExpectClear() {
    feed_.fabric().setScenario({});
    EXPECT_TRUE(feed_.tickUntil([&] { return everythingNormal(); }, kWaitTicks)) << report();
    feed_.ticks(8);
    EXPECT_TRUE(everythingNormal()) << report();
  }

  // Every port in a pause tree is the root, an ii port, or a port at either
  // end of a cable whose endpoint the model paused or whose NIC paused.
  void expectVictimsOnlyWhereTheModelPaused() const {
    std::set<std::string> allowed;
    for (int e : feed_.pausedByModel()) {
      allowed.insert(feed_.switchPort(e) + ":3");
      allowed.insert(feed_.hostPort(e) + ":3");
    }
    for (int e = 0; e < feed_.fabric().endpointCount(); ++e) {
      if (feed_.fabric().endpointPort(e).tx_roce_prio_pause > 0) allowed.insert(feed_.switchPort(e) + ":3");
    }
    for (const auto& [port, state] : feed_.flagged("pause-tree-state", "clear")) {
      if (state == "root") continue;
      const bool ii = port.find(":ii") != std::string::npos;
      EXPECT_TRUE(ii || allowed.count(port)) << port << " is a " << state << " the model never paused";
      EXPECT_TRUE(port.ends_with(":3")) << port << ": pause on a priority other than RoCE's";
    }
  }

  SimFeed feed_{SimFeed::calmFabric(), SimFeed::config()};
  sim::ScenarioCast cast_;
};

TEST_F(ScenarioVerdictsTest, IncastMakesTheCongestedEgressPortTheRootAndItsUpstreamVictims) {
  start(sim::ScenarioKind::kIncast, 0);
  const std::string root = feed_.switchPort(0) + ":3";
  ASSERT_TRUE(feed_.tickUntil([&] { return feed_.derived("pause-tree-state")[root] == "root"; }, kWaitTicks)) << report();
  feed_.ticks(4);
  EXPECT_EQ(only(feed_.derived("pause-tree-state"), "root"), (Codes{{root, "root"}})) << report();
  for (int s : cast_.senders) {
    EXPECT_EQ(feed_.derived("pause-tree-state")[feed_.switchPort(s) + ":3"], "victim") << s;
    EXPECT_EQ(feed_.derived("pause-tree-state")[feed_.hostPort(s) + ":3"], "victim") << s;
    EXPECT_EQ(feed_.derived("pause-tree-roots")[feed_.hostPort(s) + ":3"], feed_.switchPort(0));
  }
  // host04 sits on the leaf's other ASIC: its pause crossed an ii port.
  bool ii_victim = false;
  for (const auto& [port, state] : feed_.flagged("pause-tree-state", "clear")) ii_victim |= port.find(":ii1/1/") != std::string::npos;
  EXPECT_TRUE(ii_victim) << report();
  expectVictimsOnlyWhereTheModelPaused();
  // DCQCN works: the receiver and its senders; nobody is broken.
  EXPECT_EQ(feed_.derived("verdict")[feed_.rdmaPort(0)], "working");
  for (const auto& [port, code] : feed_.flagged("verdict-code", "0")) EXPECT_EQ(code, "1") << port << "\n" << report();
  EXPECT_TRUE(feed_.flagged("pause-storm", "0").empty()) << report();
  EXPECT_TRUE(feed_.flagged("lossless-drop-alarm", "0").empty()) << report();
  EXPECT_TRUE(only(feed_.derived("pause-balance-code"), "2").empty()) << report();
  stopAndExpectClear();
}

TEST_F(ScenarioVerdictsTest, NpOffFlagsTheReceiverAloneAndTheFabricFallsBackOnPause) {
  start(sim::ScenarioKind::kNpOff, 0);
  const std::string receiver = feed_.rdmaPort(0);
  ASSERT_TRUE(feed_.tickUntil([&] { return feed_.derived("verdict")[receiver] == "marks-no-cnp"; }, kWaitTicks)) << report();
  feed_.ticks(4);
  EXPECT_EQ(feed_.flagged("verdict-code", "0"), (Codes{{receiver, "2"}})) << report();
  EXPECT_EQ(feed_.derived("cnp-sent-rate")[receiver], "0");
  EXPECT_NE(feed_.derived("switch-ecn-marked-rate")[receiver], "0");
  // The leaf pauses the senders instead: a tree rooted at the receiver's port.
  EXPECT_EQ(only(feed_.derived("pause-tree-state"), "root"), (Codes{{feed_.switchPort(0) + ":3", "root"}})) << report();
  for (int s : cast_.senders) EXPECT_EQ(feed_.derived("pause-tree-state")[feed_.hostPort(s) + ":3"], "victim") << s;
  expectVictimsOnlyWhereTheModelPaused();
  EXPECT_TRUE(feed_.flagged("lossless-drop-alarm", "0").empty()) << report();
  stopAndExpectClear();
}

TEST_F(ScenarioVerdictsTest, RpOffFlagsThatSenderAloneAsIgnoringCnps) {
  start(sim::ScenarioKind::kRpOff, 0);
  const std::string sender = feed_.rdmaPort(cast_.faulty);
  ASSERT_TRUE(feed_.tickUntil([&] { return feed_.derived("verdict")[sender] == "cnp-ignored"; }, kWaitTicks)) << report();
  feed_.ticks(4);
  Codes broken;
  for (const auto& [port, code] : feed_.flagged("verdict-code", "0")) {
    if (code != "1") broken[port] = code;
  }
  EXPECT_EQ(broken, (Codes{{sender, "4"}})) << report();
  EXPECT_EQ(feed_.derived("verdict")[feed_.rdmaPort(0)], "working") << "the other senders still slow down";
  EXPECT_EQ(feed_.derived("cnp-handled-rate")[sender], "0");
  EXPECT_TRUE(feed_.flagged("pause-storm", "0").empty()) << report();
  stopAndExpectClear();
}

TEST_F(ScenarioVerdictsTest, PfcMismatchIsUnbalancedPauseTowardThatNicAndLosslessDropsAtTheReceiversQueue) {
  start(sim::ScenarioKind::kPfcMismatch, 0);
  const std::string leaf_to_sender = feed_.switchPort(cast_.faulty) + ":3";
  const std::string leaf_to_receiver = feed_.switchPort(0) + ":3";
  ASSERT_TRUE(feed_.tickUntil(
      [&] {
        return feed_.derived("pause-balance")[leaf_to_sender] == "unbalanced" &&
               feed_.derived("lossless-drop-alarm")[leaf_to_receiver] == "1";
      },
      kWaitTicks))
      << report();
  feed_.ticks(4);
  // The leaf pauses a NIC that counts no pause on the priority: only that link.
  EXPECT_EQ(only(feed_.derived("pause-balance-code"), "2"), (Codes{{leaf_to_sender, "2"}})) << report();
  EXPECT_EQ(feed_.derived("peer-in-pause-rate")[leaf_to_sender], "0");
  // What it could not hold back is lost on the lossless class, at the queue that overflowed.
  EXPECT_EQ(feed_.flagged("lossless-drop-alarm", "0"), (Codes{{leaf_to_receiver, "1"}})) << report();
  EXPECT_EQ(only(feed_.derived("pause-tree-state"), "root"), (Codes{{leaf_to_receiver, "root"}})) << report();
  for (const auto& [port, code] : feed_.flagged("verdict-code", "0")) EXPECT_EQ(code, "1") << port << "\n" << report();
  EXPECT_TRUE(feed_.flagged("pause-storm", "0").empty()) << report();
  stopAndExpectClear();
}

TEST_F(ScenarioVerdictsTest, PauseStormFlagsTheStormingNicAloneAndItsSwitchPortIsPausedNearlyAlways) {
  start(sim::ScenarioKind::kPauseStorm, 3);  // host02:mlx5_1
  const std::string nic = feed_.hostPort(3) + ":3";
  ASSERT_TRUE(feed_.tickUntil([&] { return feed_.derived("pause-storm")[nic] == "1"; }, kWaitTicks)) << report();
  feed_.ticks(4);
  EXPECT_EQ(feed_.flagged("pause-storm", "0"), (Codes{{nic, "1"}})) << report();
  const std::string paused = feed_.derived("paused-ratio")[feed_.switchPort(3) + ":3"];
  ASSERT_FALSE(paused.empty());
  EXPECT_GE(std::stod(paused), 0.99) << "the leaf port toward the storm is paused nearly all the time";
  // The storming NIC is the root; everything it holds up is a victim.
  EXPECT_EQ(only(feed_.derived("pause-tree-state"), "root"), (Codes{{nic, "root"}})) << report();
  EXPECT_EQ(feed_.derived("pause-tree-state")[feed_.switchPort(3) + ":3"], "victim");
  expectVictimsOnlyWhereTheModelPaused();
  EXPECT_TRUE(feed_.flagged("lossless-drop-alarm", "0").empty()) << report();
  stopAndExpectClear();
}

TEST_F(ScenarioVerdictsTest, TheNicsOwnStormCountersFlagItToo) {
  // With the ratio rule out of reach (100% for a day), only the NIC's
  // storm warning (after 5 s of storm) can raise the alarm.
  AnalyticsConfig config = SimFeed::config();
  config.pause_storm_for = std::chrono::hours(24);
  SimFeed feed(SimFeed::calmFabric(), config);
  feed.ticks(6);
  feed.fabric().setScenario({sim::ScenarioKind::kPauseStorm, 3});
  const std::string nic = feed.hostPort(3) + ":3";
  ASSERT_TRUE(feed.tickUntil([&] { return feed.derived("pause-storm")[nic] == "1"; }, kWaitTicks));
  EXPECT_EQ(feed.flagged("pause-storm", "0"), (Codes{{nic, "1"}}));
  EXPECT_GE(feed.fabric().endpointPort(3).tx_pause_storm_warning_events, 1u);
}

}  // namespace
}  // namespace rdmagw::analytics
