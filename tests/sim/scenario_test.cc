// Scenarios of the simulated fabric (sim/scenario.h), on a calm fabric so
// that each fault is the only thing moving the congestion counters: what
// moves, where, and that it all stops once the scenario is switched off.

#include <gtest/gtest.h>

#include <algorithm>
#include <vector>

#include "sim/fabric.h"
#include "sim/scenario.h"
#include "sim/tree_writer.h"

namespace rdmagw::sim {
namespace {

FabricConfig calm() {
  FabricConfig c;  // 4 hosts x 2 devices, one leaf, 2 ESXi hosts
  c.calm = true;
  return c;
}

// Counter deltas over `ticks` ticks, per endpoint.
std::vector<PortCounters> deltas(Fabric& f, int ticks) {
  std::vector<PortCounters> before;
  for (int e = 0; e < f.endpointCount(); ++e) before.push_back(f.endpointPort(e));
  for (int t = 0; t < ticks; ++t) f.step();
  std::vector<PortCounters> out(before.size());
  for (int e = 0; e < f.endpointCount(); ++e) {
    const PortCounters& now = f.endpointPort(e);
    PortCounters& d = out[e];
    d.np_ecn_marked_roce_packets = now.np_ecn_marked_roce_packets - before[e].np_ecn_marked_roce_packets;
    d.np_cnp_sent = now.np_cnp_sent - before[e].np_cnp_sent;
    d.rp_cnp_handled = now.rp_cnp_handled - before[e].rp_cnp_handled;
    d.rp_cnp_ignored = now.rp_cnp_ignored - before[e].rp_cnp_ignored;
    d.rx_roce_prio_pause = now.rx_roce_prio_pause - before[e].rx_roce_prio_pause;
    d.tx_roce_prio_pause = now.tx_roce_prio_pause - before[e].tx_roce_prio_pause;
    d.tx_roce_prio_pause_duration = now.tx_roce_prio_pause_duration - before[e].tx_roce_prio_pause_duration;
    d.tx_pause_storm_warning_events = now.tx_pause_storm_warning_events - before[e].tx_pause_storm_warning_events;
    d.tx_pause_storm_error_events = now.tx_pause_storm_error_events - before[e].tx_pause_storm_error_events;
  }
  return out;
}

uint64_t iiPause(const Fabric& f) {
  uint64_t sum = 0;
  for (const Switch& sw : f.switches()) {
    for (int k = 0; k < sw.internalPorts(); ++k) sum += sw.ports[sw.internalIndex(k)].txPpp();
  }
  return sum;
}

TEST(ScenarioTest, NamesParseAndUnknownOnesDoNot) {
  for (ScenarioKind k : {ScenarioKind::kIncast, ScenarioKind::kNpOff, ScenarioKind::kRpOff, ScenarioKind::kPfcMismatch,
                         ScenarioKind::kPauseStorm}) {
    EXPECT_EQ(parseScenarioName(scenarioName(k)), k);
  }
  EXPECT_EQ(parseScenarioName("none"), ScenarioKind::kNone);
  EXPECT_FALSE(parseScenarioName("pause_storm").has_value());
  EXPECT_EQ(scenarioNameList(),
            "incast, np-off, rp-off, pfc-mismatch, pfc-mismatch-switch, pause-storm, trust-mismatch, cnp-lossy, "
            "ecn-off, pause-cos-missing, roce-ets-zero, strict-starve, watchdog-off, mtu-small, pfc-lossy-prio, "
            "watchdog-false-trip, ecn-late, acs-redirect, nic-down");
  EXPECT_EQ(parseScenarioName("trust-pcp"), ScenarioKind::kTrustMismatch);
}

TEST(ScenarioTest, ACalmFabricNeitherMarksNorPauses) {
  Fabric f(calm());
  for (int t = 0; t < 64; ++t) f.step();  // eight epochs: no hot spot ever comes
  EXPECT_EQ(f.totals().ecn_marks, 0u);
  EXPECT_EQ(f.totals().pause_frames, 0u);
  EXPECT_EQ(f.totals().nic_pause_frames, 0u);
  EXPECT_GT(f.endpointPort(0).port_rcv_packets, 0u) << "it still carries traffic";
}

TEST(ScenarioTest, TheCastIsTheReceiversRailWithOneSenderAcrossTheAsics) {
  Fabric f(calm());
  f.setScenario({ScenarioKind::kRpOff, 0});
  const ScenarioCast& c = f.scenarioCast();
  EXPECT_EQ(c.receiver, 0);
  EXPECT_EQ(c.senders, (std::vector<int>{2, 4, 6}));  // host02..04:mlx5_0
  EXPECT_EQ(c.faulty, 2);
  const Switch& leaf = f.switches()[0];
  EXPECT_NE(leaf.ports[f.attachment(0).port].asic, leaf.ports[f.attachment(6).port].asic);
  f.setScenario({ScenarioKind::kPauseStorm, 99});
  EXPECT_EQ(f.scenarioCast().receiver, f.endpointCount() - 1) << "clamped";
  EXPECT_TRUE(f.scenarioCast().senders.empty());
  f.setScenario({});
  EXPECT_EQ(f.scenarioCast().receiver, -1);
}

TEST(ScenarioTest, IncastMarksTowardTheReceiverSlowsItsSendersAndPausesThroughTheIiPorts) {
  Fabric f(calm());
  f.setScenario({ScenarioKind::kIncast, 0});
  const ScenarioCast cast = f.scenarioCast();
  const uint64_t ii_before = iiPause(f);
  const std::vector<PortCounters> d = deltas(f, 16);
  EXPECT_GT(d[0].np_ecn_marked_roce_packets, 0u);
  EXPECT_GT(d[0].np_cnp_sent, 0u);
  EXPECT_EQ(d[0].tx_roce_prio_pause, 0u) << "the receiver drains at line rate: it does not pause";
  for (int s : cast.senders) {
    EXPECT_GT(d[s].rp_cnp_handled, 0u) << s;
    EXPECT_EQ(d[s].rp_cnp_ignored, 0u) << s;
    EXPECT_GT(d[s].rx_roce_prio_pause, 0u) << s << ": the leaf pauses the incast's senders";
  }
  for (int e = 1; e < f.endpointCount(); ++e) {
    EXPECT_EQ(d[e].np_ecn_marked_roce_packets, 0u) << e << ": only the receiver is congested";
    EXPECT_EQ(d[e].tx_roce_prio_pause, 0u) << e;
  }
  EXPECT_GT(iiPause(f), ii_before) << "host04 sits on the other ASIC";
}

TEST(ScenarioTest, NpOffCountsMarksSendsNoCnpAndFallsBackOnPause) {
  Fabric f(calm());
  f.setScenario({ScenarioKind::kNpOff, 0});
  const std::vector<PortCounters> d = deltas(f, 16);
  EXPECT_GT(d[0].np_ecn_marked_roce_packets, 0u);
  EXPECT_EQ(d[0].np_cnp_sent, 0u);
  for (int e = 0; e < f.endpointCount(); ++e) {
    EXPECT_EQ(d[e].rp_cnp_handled + d[e].rp_cnp_ignored, 0u) << e << ": nobody gets a CNP";
  }
  for (int s : f.scenarioCast().senders) EXPECT_GT(d[s].rx_roce_prio_pause, 0u) << s;
  // Without DCQCN the senders never slow down: more pause than with it.
  Fabric g(calm());
  g.setScenario({ScenarioKind::kIncast, 0});
  const std::vector<PortCounters> dg = deltas(g, 16);
  EXPECT_GT(d[2].rx_roce_prio_pause, dg[2].rx_roce_prio_pause);
}

TEST(ScenarioTest, RpOffIgnoresEveryCnpAtThatSenderOnly) {
  Fabric f(calm());
  f.setScenario({ScenarioKind::kRpOff, 0});
  const ScenarioCast cast = f.scenarioCast();
  const std::vector<PortCounters> d = deltas(f, 16);
  EXPECT_GT(d[0].np_cnp_sent, 0u);
  EXPECT_GT(d[cast.faulty].rp_cnp_ignored, 0u);
  EXPECT_EQ(d[cast.faulty].rp_cnp_handled, 0u);
  for (int e = 0; e < f.endpointCount(); ++e) {
    if (e != cast.faulty) {
      EXPECT_EQ(d[e].rp_cnp_ignored, 0u) << e;
    }
  }
  for (int s : cast.senders) {
    if (s != cast.faulty) {
      EXPECT_GT(d[s].rp_cnp_handled, 0u) << s;
    }
  }
}

TEST(ScenarioTest, PauseStormPausesTheLeafPortAllTheTimeAndCountsStormEvents) {
  Fabric f(calm());
  f.setScenario({ScenarioKind::kPauseStorm, 3});
  const std::vector<PortCounters> d = deltas(f, 24);
  EXPECT_EQ(d[3].tx_roce_prio_pause_duration, 24u * 1'000'000u) << "paused the whole of every tick";
  EXPECT_EQ(d[3].tx_pause_storm_warning_events, 1u);
  EXPECT_EQ(d[3].tx_pause_storm_error_events, 1u);
  EXPECT_GT(f.switchPortOf(3).rxPpp(), 0u);
  uint64_t paused_senders = 0;
  for (int e = 0; e < f.endpointCount(); ++e) {
    if (e == 3) continue;
    EXPECT_EQ(d[e].tx_roce_prio_pause, 0u) << e;
    if (d[e].rx_roce_prio_pause > 0) ++paused_senders;
  }
  EXPECT_GT(paused_senders, 0u) << "the full queue toward the storm pauses whoever sends to it";
}

TEST(ScenarioTest, PfcMismatchPausesANicThatNeitherCountsNorHonoursItAndTheLeafDrops) {
  Fabric f(calm());
  f.setScenario({ScenarioKind::kPfcMismatch, 0});
  const int s = f.scenarioCast().faulty;
  EXPECT_FALSE(f.endpointPort(s).pfc_roce);
  const uint64_t leaf_paused_before = f.switchPortOf(s).tx_ppp[3];
  const uint64_t ctrl_before = f.endpointPort(s).rx_pause_ctrl_phy;
  const uint64_t drops_before = f.switchPortOf(0).queues[3].drop_pkts;
  const std::vector<PortCounters> d = deltas(f, 16);
  EXPECT_GT(f.switchPortOf(s).tx_ppp[3], leaf_paused_before) << "the leaf pauses it";
  EXPECT_GT(f.endpointPort(s).rx_pause_ctrl_phy, ctrl_before) << "its MAC sees the frames";
  EXPECT_EQ(d[s].rx_roce_prio_pause, 0u) << "it counts none on the priority";
  EXPECT_EQ(f.endpointPort(s).rx_roce_prio_pause_duration, 0u) << "and never stops";
  EXPECT_GT(f.switchPortOf(0).queues[3].drop_pkts, drops_before) << "the lossless queue toward the receiver drops";
  EXPECT_EQ(f.switchPortOf(0).queues[3].drop_pkts - drops_before, f.totals().lossless_drops);
  const std::string ethtool = ethtoolText(f.device(s), 3);
  EXPECT_EQ(ethtool.find("rx_prio3_pause"), std::string::npos) << "mlx5 lists no pause counters for it";
  EXPECT_NE(ethtoolText(f.device(0), 3).find("rx_prio3_pause"), std::string::npos);
  for (int o : f.scenarioCast().senders) {
    if (o != s) {
      EXPECT_GT(d[o].rx_roce_prio_pause, 0u) << o;
    }
  }
  f.setScenario({});
  EXPECT_TRUE(f.endpointPort(s).pfc_roce);
}

TEST(ScenarioTest, SwitchedOffEverythingStopsMoving) {
  for (ScenarioKind k : {ScenarioKind::kIncast, ScenarioKind::kNpOff, ScenarioKind::kRpOff, ScenarioKind::kPfcMismatch,
                         ScenarioKind::kPauseStorm}) {
    SCOPED_TRACE(std::string(scenarioName(k)));
    Fabric f(calm());
    f.setScenario({k, 0});
    deltas(f, 12);
    f.setScenario({});
    deltas(f, 4);  // the queues drain, the last CNPs and pauses land
    const uint64_t marks = f.totals().ecn_marks, pauses = f.totals().pause_frames, nic = f.totals().nic_pause_frames;
    deltas(f, 16);
    EXPECT_EQ(f.totals().ecn_marks, marks);
    EXPECT_EQ(f.totals().pause_frames, pauses);
    EXPECT_EQ(f.totals().nic_pause_frames, nic);
  }
}

TEST(ScenarioTest, ConservationHoldsInEveryScenario) {
  for (ScenarioKind k : {ScenarioKind::kIncast, ScenarioKind::kNpOff, ScenarioKind::kRpOff, ScenarioKind::kPfcMismatch,
                         ScenarioKind::kPauseStorm}) {
    SCOPED_TRACE(std::string(scenarioName(k)));
    FabricConfig c;  // the congested default fabric, with the fault on top
    Fabric f(c);
    f.setScenario({k, 5});
    for (int t = 0; t < 40; ++t) {
      f.step();
      uint64_t marks = 0, cnps = 0, answered = 0, rx_pause = 0, tx_pause = 0, tx = 0, rx = 0, queued = 0;
      for (int e = 0; e < f.endpointCount(); ++e) {
        const PortCounters& p = f.endpointPort(e);
        marks += p.np_ecn_marked_roce_packets;
        cnps += p.np_cnp_sent;
        answered += p.rp_cnp_handled + p.rp_cnp_ignored;
        rx_pause += p.rx_roce_prio_pause;
        tx_pause += p.tx_roce_prio_pause;
        tx += p.port_xmit_packets;
        rx += p.port_rcv_packets;
        queued += f.bufferedPackets(e);
      }
      ASSERT_EQ(marks, f.totals().ecn_marks);
      ASSERT_EQ(cnps, f.totals().cnps);
      ASSERT_EQ(cnps, answered);
      ASSERT_EQ(rx_pause, f.totals().pause_frames);
      ASSERT_EQ(tx_pause, f.totals().nic_pause_frames);
      ASSERT_EQ(tx, rx + queued + f.totals().lossless_drops) << "lossless but for what pfc-mismatch drops";
      if (k != ScenarioKind::kPfcMismatch) {
        ASSERT_EQ(f.totals().lossless_drops, 0u);
      }
    }
  }
}

}  // namespace
}  // namespace rdmagw::sim
