// The DCB consistency verdict on the real simulated fabric, through the
// gateway's own collectors and parsers (sim_feed.h): the PFC mismatch in
// both directions, the DCQCN knobs of np-off and rp-off, and the trust mode
// of trust-mismatch, flip it on
// exactly the faulty endpoint's link (both ends) and it clears when the
// scenario stops. The configuration is read each poll, so one tick settles
// it; the waits are still counted in ticks, with generous limits.

#include <gtest/gtest.h>

#include "sim/scenario.h"
#include "tests/analytics/sim_feed.h"

namespace rdmagw::analytics {
namespace {

using testing::SimFeed;
using Codes = std::map<std::string, std::string>;

constexpr int kWaitTicks = 30;

class DcbScenarioTest : public ::testing::Test {
 protected:
  void SetUp() override {
    feed_.ticks(2);
    // Every link has a verdict at both ends (Linux hosts and ESXi vmnics), all consistent.
    const Codes codes = feed_.derived("consistency-code");
    EXPECT_EQ(codes.size(), size_t(2 * feed_.fabric().endpointCount()));
    EXPECT_TRUE(feed_.flagged("consistency-code", "0").empty()) << report();
  }

  std::string report() const {
    std::string out;
    for (const auto& [k, v] : feed_.derived("mismatches")) {
      if (!v.empty()) out += k + ": " + v + "\n";
    }
    return out;
  }

  // The scenario flags the faulty endpoint's link, both ends, and nothing
  // else; `expected` is the mismatches text. Then it clears.
  void expectOnlyFaultyLink(sim::ScenarioKind kind, const std::string& expected) {
    feed_.fabric().setScenario({kind, 0});
    const int faulty = feed_.fabric().scenarioCast().faulty;
    ASSERT_GE(faulty, 0);
    const std::string host = feed_.hostPort(faulty);
    const std::string leaf = feed_.switchPort(faulty);
    ASSERT_TRUE(feed_.tickUntil([&] { return feed_.derived("consistency-code")[host] == "1"; }, kWaitTicks)) << report();
    feed_.ticks(2);
    EXPECT_EQ(feed_.flagged("consistency-code", "0"), (Codes{{host, "1"}, {leaf, "1"}})) << report();
    EXPECT_EQ(feed_.derived("mismatches")[leaf], expected);
    EXPECT_EQ(feed_.derived("consistency")[host], "mismatch");
    feed_.fabric().setScenario({});
    EXPECT_TRUE(feed_.tickUntil([&] { return feed_.flagged("consistency-code", "0").empty(); }, kWaitTicks)) << report();
  }

  // "leaf01:Ethernet1/3" -> "leaf01:Ethernet1/3 {3}" style halves.
  std::string pfcText(int e, const std::string& leaf_prios, const std::string& host_prios) const {
    return "pfc priorities: " + feed_.switchPort(e) + " {" + leaf_prios + "} vs " + feed_.hostPort(e) + " {" +
           host_prios + "}";
  }

  SimFeed feed_{SimFeed::calmFabric(), SimFeed::config()};
};

TEST_F(DcbScenarioTest, PfcMismatchHostOffFlagsThatLinkOnly) {
  sim::Fabric probe(SimFeed::calmFabric());
  probe.setScenario({sim::ScenarioKind::kPfcMismatch, 0});
  expectOnlyFaultyLink(sim::ScenarioKind::kPfcMismatch, pfcText(probe.scenarioCast().faulty, "3", ""));
}

TEST_F(DcbScenarioTest, PfcMismatchSwitchOffFlagsThatLinkOnly) {
  sim::Fabric probe(SimFeed::calmFabric());
  probe.setScenario({sim::ScenarioKind::kPfcMismatchSwitch, 0});
  expectOnlyFaultyLink(sim::ScenarioKind::kPfcMismatchSwitch, pfcText(probe.scenarioCast().faulty, "", "3"));
}

TEST_F(DcbScenarioTest, NpOffIsTheReceiversDcqcnKnobOnItsLosslessPriority) {
  expectOnlyFaultyLink(sim::ScenarioKind::kNpOff, "dcqcn np off on lossless priorities: " + feed_.hostPort(0) + " {3}");
}

TEST_F(DcbScenarioTest, RpOffIsTheSendersDcqcnKnobOnItsLosslessPriority) {
  sim::Fabric probe(SimFeed::calmFabric());
  probe.setScenario({sim::ScenarioKind::kRpOff, 0});
  expectOnlyFaultyLink(sim::ScenarioKind::kRpOff,
                       "dcqcn rp off on lossless priorities: " + feed_.hostPort(probe.scenarioCast().faulty) + " {3}");
}

TEST_F(DcbScenarioTest, TrustMismatchIsTheHostsPcpAgainstTheLeafsDscp) {
  // The leaf's type-qos classes match DSCP (show class-map type qos); the
  // endpoint's netdev has no dscp-prio rules left (dcb app show: {}).
  expectOnlyFaultyLink(sim::ScenarioKind::kTrustMismatch,
                       "trust: " + feed_.switchPort(0) + " dscp vs " + feed_.hostPort(0) + " pcp");
  EXPECT_EQ(feed_.derived("trust")[feed_.hostPort(0)], "dscp") << "cleared: the rules are back";
  EXPECT_EQ(feed_.derived("peer-trust")[feed_.hostPort(0)], "dscp");
}

TEST_F(DcbScenarioTest, PfcMismatchSwitchAlsoLosesPacketsOnTheLosslessClass) {
  feed_.fabric().setScenario({sim::ScenarioKind::kPfcMismatchSwitch, 0});
  const std::string leaf_to_receiver = feed_.switchPort(0) + ":3";
  ASSERT_TRUE(feed_.tickUntil([&] { return feed_.derived("lossless-drop-alarm")[leaf_to_receiver] == "1"; }, 60));
  EXPECT_GT(feed_.fabric().totals().lossless_drops, 0u);
  EXPECT_EQ(feed_.fabric().totals().ignored_pause_frames, 0u) << "the leaf sends that NIC no pause at all";
}

}  // namespace
}  // namespace rdmagw::analytics
