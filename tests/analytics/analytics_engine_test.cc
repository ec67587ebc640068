// Scenarios on a small fabric (small_fabric.h): each one moves a few
// counters and checks that the derived verdicts flip on the right ports,
// links and priorities, stay put everywhere else, and clear once the
// counters stop moving for a window.

#include "analytics/analytics_engine.h"

#include <gtest/gtest.h>

#include "analytics/fabric_reader.h"
#include "analytics/pfc_links.h"
#include "tests/analytics/small_fabric.h"

namespace rdmagw::analytics {
namespace {

using testing::SmallFabric;
using Codes = std::map<std::string, std::string>;

const char* const kH1 = "host01:ens1f0np0";
const char* const kH2 = "host02:ens1f0np0";

// Every port and priority of the fabric at `value`, except those in `set`.
Codes allPorts(const std::string& value, const Codes& set = {}) {
  Codes out;
  for (const char* port : {"leaf01:Ethernet1/1", "leaf01:Ethernet1/2", "leaf01:Ethernet1/3", kH1, kH2,
                           "esx01:vmnic4"}) {
    for (const char* prio : {":0", ":3"}) out[std::string(port) + prio] = value;
  }
  for (const auto& [k, v] : set) out[k] = v;
  return out;
}

class AnalyticsEngineTest : public ::testing::Test {
 protected:
  // Enough quiet ticks for the window (4 s) to hold no movement at all.
  void quietWindow() { fabric_.ticks(6); }
  SmallFabric fabric_;
};

TEST_F(AnalyticsEngineTest, LinksAreLeavesAtBothEnds) {
  fabric_.tick();
  EXPECT_EQ(fabric_.derived("peer-target"), (Codes{{"leaf01:Ethernet1/1", "host01"},
                                                   {"leaf01:Ethernet1/2", "host02"},
                                                   {"leaf01:Ethernet1/3", "esx01"},
                                                   {kH1, "leaf01"},
                                                   {kH2, "leaf01"},
                                                   {"esx01:vmnic4", "leaf01"}}));
  // The RDMA-port end was resolved to its netdev through the store.
  EXPECT_EQ(fabric_.derived("peer-interface")["leaf01:Ethernet1/1"], "ens1f0np0");
  EXPECT_EQ(fabric_.derived("peer-interface")[kH1], "Ethernet1/1");
  for (const auto& [port, source] : fabric_.derived("source")) EXPECT_EQ(source, "static") << port;
}

TEST_F(AnalyticsEngineTest, NoVerdictBeforeTwoSamples) {
  fabric_.tick();
  EXPECT_TRUE(fabric_.derived("verdict-code").empty());
  EXPECT_TRUE(fabric_.derived("pause-tree-state").empty());
  fabric_.tick();
  EXPECT_EQ(fabric_.derived("verdict-code").size(), 2u);
}

TEST_F(AnalyticsEngineTest, AQuietFabricIsIdleAndClearEverywhere) {
  quietWindow();
  EXPECT_EQ(fabric_.derived("verdict"), (Codes{{"host01:mlx5_0:1", "idle"}, {"host02:mlx5_0:1", "idle"}}));
  EXPECT_EQ(fabric_.derived("pause-tree-state-code"), allPorts("0"));
  EXPECT_EQ(fabric_.derived("pause-tree-size"), allPorts("0"));
  EXPECT_TRUE(fabric_.derived("pause-tree-roots").empty());
  // Lossless drops are judged on priority 3 only (the leaf's bitmap, the config's default).
  EXPECT_EQ(fabric_.derived("lossless-drop-alarm"),
            (Codes{{"leaf01:Ethernet1/1:3", "0"}, {"leaf01:Ethernet1/2:3", "0"}, {"leaf01:Ethernet1/3:3", "0"},
                   {"host01:ens1f0np0:3", "0"}, {"host02:ens1f0np0:3", "0"}}));
  for (const auto& [port, code] : fabric_.derived("pause-balance-code")) EXPECT_EQ(code, "0") << port;
}

TEST_F(AnalyticsEngineTest, MarksWithoutCnpsFlagTheReceiverOnlyAndClear) {
  fabric_.ticks(6, [&] {
    fabric_.bump("leaf01", SmallFabric::queue("Ethernet1/1", 3, "ecn-marked-pkts"), 1000);
    fabric_.bump("host01", SmallFabric::hw("np-ecn-marked-roce-packets"), 1000);
  });
  EXPECT_EQ(fabric_.derived("verdict-code"), (Codes{{"host01:mlx5_0:1", "2"}, {"host02:mlx5_0:1", "0"}}));
  EXPECT_EQ(fabric_.derived("verdict")["host01:mlx5_0:1"], "marks-no-cnp");
  EXPECT_EQ(fabric_.derived("switch-ecn-marked-rate")["host01:mlx5_0:1"], "1000");
  EXPECT_EQ(fabric_.derived("switch-ecn-marked-rate")["host02:mlx5_0:1"], "0");
  EXPECT_EQ(fabric_.derived("ecn-marked-rate")["host01:mlx5_0:1"], "1000");
  quietWindow();
  EXPECT_EQ(fabric_.derived("verdict-code"), (Codes{{"host01:mlx5_0:1", "0"}, {"host02:mlx5_0:1", "0"}}));
}

TEST_F(AnalyticsEngineTest, CnpsNobodyHandlesFlagTheReceiverAndTheIgnoringSender) {
  fabric_.ticks(6, [&] {
    fabric_.bump("host01", SmallFabric::hw("np-ecn-marked-roce-packets"), 1000);
    fabric_.bump("host01", SmallFabric::hw("np-cnp-sent"), 800);
    fabric_.bump("host02", SmallFabric::hw("rp-cnp-ignored"), 800);
  });
  // The receiver's CNPs went nowhere; the sender is the port to fix.
  EXPECT_EQ(fabric_.derived("verdict-code"), (Codes{{"host01:mlx5_0:1", "3"}, {"host02:mlx5_0:1", "4"}}));
  EXPECT_EQ(fabric_.derived("verdict")["host02:mlx5_0:1"], "cnp-ignored");
  EXPECT_EQ(fabric_.derived("cnp-ignored-rate")["host02:mlx5_0:1"], "800");
  EXPECT_EQ(fabric_.derived("peers-cnp-handled-rate")["host01:mlx5_0:1"], "0");
  // The sender's reaction point comes back: the chain works end to end.
  fabric_.ticks(6, [&] {
    fabric_.bump("host01", SmallFabric::hw("np-ecn-marked-roce-packets"), 1000);
    fabric_.bump("host01", SmallFabric::hw("np-cnp-sent"), 800);
    fabric_.bump("host02", SmallFabric::hw("rp-cnp-handled"), 800);
  });
  EXPECT_EQ(fabric_.derived("verdict-code"), (Codes{{"host01:mlx5_0:1", "1"}, {"host02:mlx5_0:1", "1"}}));
  EXPECT_EQ(fabric_.derived("cnp-sent-rate")["host01:mlx5_0:1"], "800");
  EXPECT_EQ(fabric_.derived("peers-cnp-handled-rate")["host01:mlx5_0:1"], "800");
  quietWindow();
  EXPECT_EQ(fabric_.derived("verdict-code"), (Codes{{"host01:mlx5_0:1", "0"}, {"host02:mlx5_0:1", "0"}}));
}

// host01 cannot drain: it pauses the leaf, whose ports toward the other
// senders then pause them (a slow receiver).
void slowReceiverHost01(SmallFabric& f) {
  f.bump("host01", SmallFabric::pfc("ens1f0np0", 3, "out-pause-frames"), 100);
  f.bump("leaf01", SmallFabric::pfc("Ethernet1/1", 3, "in-pause-frames"), 100);
  f.bump("leaf01", SmallFabric::pfc("Ethernet1/2", 3, "out-pause-frames"), 100);
  f.bump("host02", SmallFabric::pfc("ens1f0np0", 3, "in-pause-frames"), 100);
  f.bump("leaf01", SmallFabric::pfc("Ethernet1/3", 3, "out-pause-frames"), 100);
  f.bump("esx01", SmallFabric::nicPfc("vmnic4", 3, "rx-pause"), 100);
}

TEST_F(AnalyticsEngineTest, APausingHostIsTheRootAndEveryPortItPausesAVictim) {
  fabric_.ticks(6, [&] { slowReceiverHost01(fabric_); });
  EXPECT_EQ(fabric_.derived("pause-tree-state-code"),
            allPorts("0", {{"host01:ens1f0np0:3", "2"},
                           {"leaf01:Ethernet1/1:3", "1"},
                           {"leaf01:Ethernet1/2:3", "1"},
                           {"leaf01:Ethernet1/3:3", "1"},
                           {"host02:ens1f0np0:3", "1"},
                           {"esx01:vmnic4:3", "1"}}));
  EXPECT_EQ(fabric_.derived("pause-tree-size"),
            allPorts("0", {{"host01:ens1f0np0:3", "6"},
                           {"leaf01:Ethernet1/1:3", "6"},
                           {"leaf01:Ethernet1/2:3", "6"},
                           {"leaf01:Ethernet1/3:3", "6"},
                           {"host02:ens1f0np0:3", "6"},
                           {"esx01:vmnic4:3", "6"}}));
  for (const auto& [port, roots] : fabric_.derived("pause-tree-roots")) {
    EXPECT_EQ(roots, "host01:ens1f0np0") << port;
  }
  EXPECT_EQ(fabric_.derived("pause-tree-roots").size(), 6u);
  // Every pause sent was received at the other end of its cable.
  for (const char* sender : {"host01:ens1f0np0:3", "leaf01:Ethernet1/2:3", "leaf01:Ethernet1/3:3"}) {
    EXPECT_EQ(fabric_.derived("pause-balance")[sender], "balanced") << sender;
  }
  EXPECT_EQ(fabric_.derived("pause-balance")["leaf01:Ethernet1/1:3"], "idle");
  EXPECT_EQ(fabric_.derived("pause-balance")["esx01:vmnic4:3"], "idle");
  quietWindow();
  EXPECT_EQ(fabric_.derived("pause-tree-state-code"), allPorts("0"));
  EXPECT_TRUE(fabric_.derived("pause-tree-roots").empty());
}

TEST_F(AnalyticsEngineTest, AnIncastAtTheLeafMakesItsPausingPortsTheRoots) {
  // The leaf's queue toward host01 fills; it pauses the senders' ports, and
  // nothing pauses the leaf.
  fabric_.ticks(6, [&] {
    fabric_.bump("leaf01", SmallFabric::pfc("Ethernet1/2", 3, "out-pause-frames"), 50);
    fabric_.bump("host02", SmallFabric::pfc("ens1f0np0", 3, "in-pause-frames"), 50);
    fabric_.bump("leaf01", SmallFabric::pfc("Ethernet1/3", 3, "out-pause-frames"), 50);
    fabric_.bump("esx01", SmallFabric::nicPfc("vmnic4", 3, "rx-pause"), 50);
  });
  EXPECT_EQ(fabric_.derived("pause-tree-state"),
            allPorts("clear", {{"leaf01:Ethernet1/2:3", "root"},
                               {"leaf01:Ethernet1/3:3", "root"},
                               {"host02:ens1f0np0:3", "victim"},
                               {"esx01:vmnic4:3", "victim"}}));
  EXPECT_EQ(fabric_.derived("pause-tree-roots")["host02:ens1f0np0:3"], "leaf01:Ethernet1/2");
  EXPECT_EQ(fabric_.derived("pause-tree-roots")["esx01:vmnic4:3"], "leaf01:Ethernet1/3");
  EXPECT_EQ(fabric_.derived("pause-tree-size")["leaf01:Ethernet1/2:3"], "2");
}

TEST_F(AnalyticsEngineTest, PauseThePeerNeverCountsIsUnbalancedOnTheSenderOnly) {
  fabric_.ticks(6, [&] { fabric_.bump("leaf01", SmallFabric::pfc("Ethernet1/2", 3, "out-pause-frames"), 100); });
  Codes want;
  for (const auto& [port, code] : fabric_.derived("pause-balance-code")) want[port] = "0";
  want["leaf01:Ethernet1/2:3"] = "2";
  EXPECT_EQ(fabric_.derived("pause-balance-code"), want);
  EXPECT_EQ(fabric_.derived("out-pause-rate")["leaf01:Ethernet1/2:3"], "100");
  EXPECT_EQ(fabric_.derived("peer-in-pause-rate")["leaf01:Ethernet1/2:3"], "0");
  quietWindow();
  EXPECT_EQ(fabric_.derived("pause-balance-code")["leaf01:Ethernet1/2:3"], "0");
}

TEST_F(AnalyticsEngineTest, DropsOnTheLosslessPriorityRaiseTheAlarmThereOnly) {
  fabric_.ticks(6, [&] {
    fabric_.bump("leaf01", SmallFabric::queue("Ethernet1/3", 3, "dropped-pkts"), 5);
    fabric_.bump("host01", SmallFabric::pfc("ens1f0np0", 3, "in-discards"), 1);
    // Lossy priority 0 may drop: no alarm.
    fabric_.bump("leaf01", SmallFabric::queue("Ethernet1/1", 0, "dropped-pkts"), 500);
    fabric_.bump("host02", SmallFabric::pfc("ens1f0np0", 0, "in-discards"), 10);
  });
  EXPECT_EQ(fabric_.derived("lossless-drop-alarm"),
            (Codes{{"leaf01:Ethernet1/1:3", "0"}, {"leaf01:Ethernet1/2:3", "0"}, {"leaf01:Ethernet1/3:3", "1"},
                   {"host01:ens1f0np0:3", "1"}, {"host02:ens1f0np0:3", "0"}}));
  EXPECT_EQ(fabric_.derived("lossless-drop-rate")["leaf01:Ethernet1/3:3"], "5");
  quietWindow();
  for (const auto& [port, alarm] : fabric_.derived("lossless-drop-alarm")) EXPECT_EQ(alarm, "0") << port;
}

TEST_F(AnalyticsEngineTest, PausedRatioComesFromPauseDurations) {
  fabric_.ticks(6, [&] {
    fabric_.bump("host01", SmallFabric::pfc("ens1f0np0", 3, "in-pause-duration"), 250'000);  // us per 1 s tick
  });
  EXPECT_EQ(fabric_.derived("paused-ratio")["host01:ens1f0np0:3"], "0.25");
  EXPECT_EQ(fabric_.derived("paused-ratio")["host02:ens1f0np0:3"], "0");
  EXPECT_EQ(fabric_.derived("paused-ratio")["esx01:vmnic4:3"], "0");
  EXPECT_EQ(fabric_.derived("paused-ratio").count("leaf01:Ethernet1/3:3"), 0u)
      << "the leaf counts no durations, nor does the vmnic the time it pauses the leaf";
}

TEST_F(AnalyticsEngineTest, ASwitchPortsPausedTimeIsWhatItsHostCountsPausingIt) {
  fabric_.ticks(6, [&] {
    fabric_.bump("host02", SmallFabric::pfc("ens1f0np0", 3, "out-pause-duration"), 500'000);
    fabric_.bump("host02", SmallFabric::pfc("ens1f0np0", 3, "out-pause-frames"), 100);
    fabric_.bump("leaf01", SmallFabric::pfc("Ethernet1/2", 3, "in-pause-frames"), 100);
  });
  EXPECT_EQ(fabric_.derived("paused-ratio")["leaf01:Ethernet1/2:3"], "0.5");
  EXPECT_EQ(fabric_.derived("peer-paused-ratio")["host02:ens1f0np0:3"], "0.5");
  EXPECT_EQ(fabric_.derived("paused-ratio")["leaf01:Ethernet1/1:3"], "0");
}

// host02's NIC holds the leaf paused: all of every tick.
void stormFromHost02(SmallFabric& f) {
  f.bump("host02", SmallFabric::pfc("ens1f0np0", 3, "out-pause-duration"), 1'000'000);
  f.bump("host02", SmallFabric::pfc("ens1f0np0", 3, "out-pause-frames"), 2000);
  f.bump("leaf01", SmallFabric::pfc("Ethernet1/2", 3, "in-pause-frames"), 2000);
}

TEST_F(AnalyticsEngineTest, PausingThePeerAboveTheShareForLongEnoughIsAStormThereOnly) {
  // From the second sample on the ratio is 1; it must then last 3 s.
  fabric_.ticks(4, [&] { stormFromHost02(fabric_); });
  EXPECT_EQ(fabric_.derived("pause-storm")["host02:ens1f0np0:3"], "0") << "not for long enough yet";
  fabric_.tick([&] { stormFromHost02(fabric_); });
  Codes storms;
  for (const auto& [port, v] : fabric_.derived("pause-storm")) {
    if (v != "0") storms[port] = v;
  }
  EXPECT_EQ(storms, (Codes{{"host02:ens1f0np0:3", "1"}}));
  EXPECT_EQ(fabric_.derived("paused-ratio")["leaf01:Ethernet1/2:3"], "1");
  quietWindow();
  for (const auto& [port, v] : fabric_.derived("pause-storm")) EXPECT_EQ(v, "0") << port;
}

TEST_F(AnalyticsEngineTest, TheNicsOwnStormEventsAreAStormOnThePriorityItPauses) {
  fabric_.tick();
  fabric_.tick([&] {
    fabric_.bump("host01", SmallFabric::portPfc("ens1f0np0", "pause-storm-warning-events"), 1);
    fabric_.bump("host01", SmallFabric::pfc("ens1f0np0", 3, "out-pause-frames"), 500);
    fabric_.bump("host01", SmallFabric::pfc("ens1f0np0", 3, "out-pause-duration"), 300'000);
  });
  EXPECT_EQ(fabric_.derived("pause-storm")["host01:ens1f0np0:3"], "1");
  EXPECT_EQ(fabric_.derived("pause-storm")["host01:ens1f0np0:0"], "0");
  EXPECT_EQ(fabric_.derived("pause-storm")["host02:ens1f0np0:3"], "0");
  quietWindow();
  EXPECT_EQ(fabric_.derived("pause-storm")["host01:ens1f0np0:3"], "0");
}

TEST_F(AnalyticsEngineTest, AnIncastsCongestedEgressPortIsTheRootAndThePortsItPausesVictims) {
  // The queue toward host01 marks; the leaf pauses the two senders' ports.
  fabric_.ticks(6, [&] {
    fabric_.bump("leaf01", SmallFabric::queue("Ethernet1/1", 3, "ecn-marked-pkts"), 400);
    fabric_.bump("leaf01", SmallFabric::pfc("Ethernet1/2", 3, "out-pause-frames"), 50);
    fabric_.bump("host02", SmallFabric::pfc("ens1f0np0", 3, "in-pause-frames"), 50);
    fabric_.bump("leaf01", SmallFabric::pfc("Ethernet1/3", 3, "out-pause-frames"), 50);
    fabric_.bump("esx01", SmallFabric::nicPfc("vmnic4", 3, "rx-pause"), 50);
  });
  EXPECT_EQ(fabric_.derived("pause-tree-state"),
            allPorts("clear", {{"leaf01:Ethernet1/1:3", "root"},
                               {"leaf01:Ethernet1/2:3", "victim"},
                               {"leaf01:Ethernet1/3:3", "victim"},
                               {"host02:ens1f0np0:3", "victim"},
                               {"esx01:vmnic4:3", "victim"}}));
  EXPECT_EQ(fabric_.derived("pause-tree-roots")["esx01:vmnic4:3"], "leaf01:Ethernet1/1");
  EXPECT_EQ(fabric_.derived("pause-tree-size")["host02:ens1f0np0:3"], "5");
  // Marks with no pause anywhere are no pause tree.
  fabric_.ticks(6, [&] { fabric_.bump("leaf01", SmallFabric::queue("Ethernet1/1", 3, "ecn-marked-pkts"), 400); });
  EXPECT_EQ(fabric_.derived("pause-tree-state-code"), allPorts("0"));
}

TEST_F(AnalyticsEngineTest, ATargetThatStopsAnsweringLosesItsVerdictsNotTheOthers) {
  fabric_.ticks(3, [&] { fabric_.bump("host02", SmallFabric::hw("np-ecn-marked-roce-packets"), 10); });
  ASSERT_EQ(fabric_.derived("verdict-code")["host02:mlx5_0:1"], "2");
  fabric_.silence("host02");
  quietWindow();
  EXPECT_EQ(fabric_.derived("verdict-code"), (Codes{{"host01:mlx5_0:1", "0"}}));
  EXPECT_EQ(fabric_.derived("pause-tree-state").count("host02:ens1f0np0:3"), 0u);
}

TEST_F(AnalyticsEngineTest, ATargetThatIsDownKeepsNoDerivedLeaves) {
  fabric_.ticks(3);
  ASSERT_EQ(fabric_.derived("peer-target").count("esx01:vmnic4"), 1u);
  TargetHealth down;
  down.kind = "esxi";
  down.up = false;
  fabric_.store().setHealth("esx01", down);
  fabric_.silence("esx01");
  fabric_.tick();
  EXPECT_EQ(fabric_.derived("peer-target").count("esx01:vmnic4"), 0u);
  EXPECT_EQ(fabric_.derived("pause-tree-state").count("esx01:vmnic4:3"), 0u);
  EXPECT_EQ(fabric_.derived("peer-target").count("leaf01:Ethernet1/3"), 1u) << "the switch end stays";
}

// A far end whose collection stopped (in a fleet: its owner died) is stale:
// the link says so, and the balance that needs its counters is not given
// on its last ones.
TEST_F(AnalyticsEngineTest, AFarEndThatIsDownIsStaleAndItsCountersAreNotJudged) {
  fabric_.ticks(6, [&] {
    fabric_.bump("leaf01", SmallFabric::pfc("Ethernet1/3", 3, "out-pause-frames"), 100);
    fabric_.bump("esx01", SmallFabric::nicPfc("vmnic4", 3, "rx-pause"), 100);
  });
  ASSERT_EQ(fabric_.derived("peer-state")["leaf01:Ethernet1/3"], "current");
  ASSERT_EQ(fabric_.derived("pause-balance-code")["leaf01:Ethernet1/3:3"], "1");
  TargetHealth down;
  down.kind = "esxi";
  down.up = false;
  fabric_.store().setHealth("esx01", down);
  fabric_.silence("esx01");
  fabric_.tick([&] { fabric_.bump("leaf01", SmallFabric::pfc("Ethernet1/3", 3, "out-pause-frames"), 100); });
  EXPECT_EQ(fabric_.derived("peer-state")["leaf01:Ethernet1/3"], "stale");
  EXPECT_EQ(fabric_.derived("pause-balance-code").count("leaf01:Ethernet1/3:3"), 0u);
  EXPECT_EQ(fabric_.derived("peer-in-pause-rate").count("leaf01:Ethernet1/3:3"), 0u);
  EXPECT_EQ(fabric_.derived("out-pause-rate").count("leaf01:Ethernet1/3:3"), 1u) << "its own counters still count";
}

TEST(PauseBalanceTest, EqualWithinAQuarterOrOneFramePerWindow) {
  EXPECT_EQ(judgeBalance(0, 0, 60), PauseBalance::kIdle);
  EXPECT_EQ(judgeBalance(100, 80, 60), PauseBalance::kBalanced);
  EXPECT_EQ(judgeBalance(100, 70, 60), PauseBalance::kUnbalanced);
  EXPECT_EQ(judgeBalance(100, 0, 60), PauseBalance::kUnbalanced);
  EXPECT_EQ(judgeBalance(0.01, 0, 60), PauseBalance::kBalanced) << "less than a frame in the window";
}

TEST(QueuePriorityTest, TrailingNumberOfTheQueueName) {
  EXPECT_EQ(queuePriority("3"), 3);
  EXPECT_EQ(queuePriority("q3"), 3);
  EXPECT_EQ(queuePriority("c-out-8q-q3"), 3);
  EXPECT_EQ(queuePriority("c-out-8q-q-default"), -1);
  EXPECT_EQ(queuePriority("RDMA"), -1);
  EXPECT_EQ(queuePriority("q9"), -1);
}

}  // namespace
}  // namespace rdmagw::analytics
