#pragma once
// Faults the simulated fabric can be switched into while it runs, one at a
// time (Fabric::setScenario, SimRunner::setScenario, `rdmagw demo
// --scenario NAME`). Each is an overload or a misconfiguration operators meet
// on real RoCE fabrics, and moves the counters the way that fault does:
//
//   incast       three senders on the receiver's rail push 60% of line each
//                at one host port: its leaf egress queue marks ECN and,
//                past its threshold, pauses the senders' ports (through the
//                ii ports when a sender sits on the other ASIC).
//   np-off       the same incast, with the receiver's DCQCN notification
//                point off (mlx5 ecn/roce_np/enable/<prio> = 0): it counts
//                np_ecn_marked_roce_packets but sends no CNP, so no sender
//                slows down and the leaf falls back on pause.
//   rp-off       the same incast, with the first sender's reaction point off
//                (ecn/roce_rp/enable/<prio> = 0): the CNPs it receives count
//                as rp_cnp_ignored and it keeps its rate.
//   pfc-mismatch the same incast, with the first sender's NIC not doing PFC
//                on the RoCE priority while its leaf port does: the leaf's
//                pause reaches the NIC's MAC (rx_pause_ctrl_phy counts it),
//                the NIC keeps sending, counts no pause on the priority (mlx5
//                then shows no rx_prioN_pause* at all), and what the leaf
//                could not hold back is dropped at the queue toward the
//                receiver: a lossless class that loses packets.
//   pfc-mismatch-switch
//                the other direction: the same incast, the first sender's
//                leaf port without PFC on the RoCE priority while its NIC has
//                it: the leaf sends that port no pause at all, the NIC keeps
//                sending, and the leaf drops the excess at the receiver's
//                queue, as above.
//   pause-storm  the receiver's NIC cannot hand packets to the host (a stuck
//                receive pipeline) and pauses its leaf port for the whole of
//                every tick; the leaf's queue toward it fills and pauses the
//                hosts sending to it, and the NIC counts pause storm events.
//   trust-mismatch
//                no traffic of its own: the endpoint's netdev drops its
//                `dcb app` dscp-prio rules (trust pcp) while its leaf
//                classifies RoCE by DSCP: a configuration fault only the DCB
//                consistency check shows.
//
// A scenario names one endpoint (Fabric endpoint index): the receiver; the
// fabric works out the rest (Fabric::scenarioCast).

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace rdmagw::sim {

enum class ScenarioKind { kNone, kIncast, kNpOff, kRpOff, kPfcMismatch, kPauseStorm, kPfcMismatchSwitch, kTrustMismatch };

struct Scenario {
  ScenarioKind kind = ScenarioKind::kNone;
  int receiver = 0;  // endpoint index
};

// Who a scenario involves, in endpoint indices; empty/-1 when kNone.
struct ScenarioCast {
  int receiver = -1;
  std::vector<int> senders;  // the incast's senders (none in pause-storm)
  int faulty = -1;           // the endpoint whose NIC misbehaves (-1: none, plain incast)
};

std::string_view scenarioName(ScenarioKind kind);  // "np-off"; "none" for kNone
std::optional<ScenarioKind> parseScenarioName(std::string_view name);
// The names a user may give, in a stable order ("incast, np-off, ...").
std::string scenarioNameList();

}  // namespace rdmagw::sim
