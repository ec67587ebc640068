// A simulated fabric with NO static links: the analytics learn every cable
// from LLDP (the leaf's `show lldp neighbors detail` over its CLI, or the
// OpenConfig LLDP paths of its gNMI target) and must reach exactly the
// verdicts the same fabric reaches with the cabling configured statically.
// Both feeds run in lockstep on identical simulated fabrics (a seed gives
// bit-identical counters), so every derived leaf must be equal, port by
// port, except where the link came from.

#include <gtest/gtest.h>

#include "sim/scenario.h"
#include "tests/analytics/sim_feed.h"

namespace rdmagw::analytics {
namespace {

using testing::SimFeed;
using testing::SimFeedOptions;
using Leaves = std::map<std::string, std::string>;

constexpr int kWaitTicks = 60;

const char* const kVerdictLeaves[] = {"verdict",          "pause-balance",   "pause-tree-state", "pause-tree-roots",
                                      "pause-storm",      "lossless-drop-alarm", "peer-in-pause-rate",
                                      "switch-ecn-marked-rate", "paused-ratio"};

class LldpVerdictsTest : public ::testing::TestWithParam<bool> {
 protected:
  LldpVerdictsTest()
      : static_(SimFeed::calmFabric(), SimFeed::config(), SimFeedOptions{true, GetParam()}),
        lldp_(SimFeed::calmFabric(), SimFeed::config(), SimFeedOptions{false, GetParam()}) {}

  void ticks(int n) {
    for (int i = 0; i < n; ++i) {
      static_.tick();
      lldp_.tick();
    }
  }

  // Every verdict leaf of both feeds equal; what differs is listed.
  std::string differences() const {
    std::string out;
    for (const char* leaf : kVerdictLeaves) {
      const Leaves a = static_.derived(leaf), b = lldp_.derived(leaf);
      for (const auto& [k, v] : a) {
        auto it = b.find(k);
        if (it == b.end() || it->second != v) out += std::string(leaf) + " " + k + ": static " + v + ", lldp " + (it == b.end() ? "absent" : it->second) + "\n";
      }
      for (const auto& [k, v] : b) {
        if (!a.count(k)) out += std::string(leaf) + " " + k + ": static absent, lldp " + v + "\n";
      }
    }
    return out;
  }

  SimFeed static_;
  SimFeed lldp_;
};

TEST_P(LldpVerdictsTest, EveryCableIsLearnedFromLldpAsTheStaticConfigHasIt) {
  ticks(3);
  const Leaves want = static_.derived("peer-interface");
  ASSERT_EQ(want.size(), size_t(2 * static_.fabric().endpointCount()));
  EXPECT_EQ(lldp_.derived("peer-interface"), want);
  EXPECT_EQ(lldp_.derived("peer-target"), static_.derived("peer-target"));
  for (const auto& [port, source] : lldp_.derived("source")) EXPECT_EQ(source, "lldp") << port;
  for (const auto& [port, source] : static_.derived("source")) EXPECT_EQ(source, "static") << port;
  // Both ends were heard (the leaf's LLDP and every host's lldpd), and each cable counted once.
  size_t switch_side = 0, host_side = 0;
  lldp_.store().forEach([&](const SeriesView& s) {
    if (!s.path.ends_with("/state/system-name") || !s.path.starts_with("/lldp/")) return;
    (s.target.starts_with("leaf") ? switch_side : host_side)++;
  });
  EXPECT_EQ(switch_side, size_t(lldp_.fabric().endpointCount()));
  EXPECT_EQ(host_side, size_t(lldp_.fabric().deviceCount()));
  // last-seen: the collection time of the neighbour leaves, unix seconds; static links have none.
  EXPECT_EQ(lldp_.derived("last-seen").size(), want.size());
  EXPECT_TRUE(static_.derived("last-seen").empty());
}

TEST_P(LldpVerdictsTest, EveryScenarioReachesTheSameVerdictsAsWithStaticLinks) {
  ticks(6);
  ASSERT_EQ(differences(), "");
  for (sim::ScenarioKind kind : {sim::ScenarioKind::kIncast, sim::ScenarioKind::kNpOff, sim::ScenarioKind::kRpOff,
                                 sim::ScenarioKind::kPfcMismatch, sim::ScenarioKind::kPauseStorm}) {
    SCOPED_TRACE(std::string(sim::scenarioName(kind)));
    static_.fabric().setScenario({kind, 1});
    lldp_.fabric().setScenario({kind, 1});
    // Something must flip (else the comparison proves nothing), and on both.
    bool flagged = false;
    for (int i = 0; i < kWaitTicks && !flagged; ++i) {
      ticks(1);
      flagged = !static_.flagged("verdict-code", "0").empty() || !static_.flagged("pause-tree-state-code", "0").empty() ||
                !static_.flagged("pause-storm", "0").empty() || !static_.flagged("lossless-drop-alarm", "0").empty();
    }
    EXPECT_TRUE(flagged);
    ticks(6);
    EXPECT_EQ(differences(), "");
    static_.fabric().setScenario({});
    lldp_.fabric().setScenario({});
    ticks(12);
    EXPECT_EQ(differences(), "");
  }
}

INSTANTIATE_TEST_SUITE_P(OverSshCliAndGnmi, LldpVerdictsTest, ::testing::Values(false, true),
                         [](const ::testing::TestParamInfo<bool>& i) { return i.param ? "Gnmi" : "SshCli"; });

}  // namespace
}  // namespace rdmagw::analytics
