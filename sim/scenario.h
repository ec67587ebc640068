#pragma once
// Faults the simulated fabric can be switched into while it runs, one at a
// time (Fabric::setScenario, SimRunner::setScenario, `rdmagw-demo
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
//                consistency check shows. Also named trust-pcp.
//
// Misconfigurations of the RoCE QoS plan (sim/roce_qos.h), no traffic of
// their own; each touches one device or port, named by the receiver
// endpoint (Fabric::scenarioTarget says which):
//   cnp-lossy    the endpoint's leaf: its type-qos policy has no class for
//                the CNP DSCP 48, so CNPs fall to class-default (qos-group
//                0, the lossy default queue), and its queue counters
//                count them there.
//   ecn-off      the endpoint's leaf: WRED on the RoCE egress queue without
//                `ecn` (it drops instead of marking).
//   pause-cos-missing
//                the endpoint's leaf: the RoCE network-qos class has no
//                `pause pfc-cos` (mtu only): nothing is no-drop.
//   roce-ets-zero
//                the endpoint's NIC port: the RoCE traffic class at 0 % ETS.
//   strict-starve
//                the endpoint's NIC port: the RoCE TC and every TC above it
//                strict, the RoCE TC with no ETS share (as on a recorded
//                ConnectX-7: priorities 4-7 strict, RoCE on 5).
//   watchdog-off the endpoint's leaf port: `priority-flow-control
//                watch-dog-interval off` (and Disabled in pfc-queue detail).
//   mtu-small    the endpoint's leaf port: MTU 1500 (show interface, its
//                JSON and the gNMI tree) under the hosts' 9000.
//   pfc-lossy-prio
//                the endpoint's leaf port receives PFC frames on the lossy
//                priority (0, or 1 when RoCE is on 0), which no network-qos
//                class pauses: per-CoS RxPPP counts move there every tick.
//   watchdog-false-trip
//                the endpoint's leaf port: its PFC watchdog shuts the RoCE
//                queue (Shutdown in pfc-queue detail, one shutdown event,
//                what arrives counted as drained) though nothing pauses
//                the port; restored when the scenario stops. The pause-storm
//                scenario shuts the same queue too, after the NIC has
//                paused the port throughout for as long as its storm
//                warning takes: there, the watchdog is right.
//   ecn-late     the endpoint's leaf: WRED with ECN on the RoCE queue, but
//                from 1500 to 6000 kbytes, ten times later than the other
//                leaves' 150 kbytes: its hosts see pause before any CNP. A
//                fault only a comparison across switches shows (three or
//                more, so that a majority says which one is out of line).
//   acs-redirect the endpoint's host, with `rdmagw-demo --gpus`: ACS P2P
//                redirect on the PCIe switch port above the endpoint's NIC,
//                so the GPU beside it cannot reach the NIC directly (its
//                peer requests go up to the root complex).
//   nic-down     the endpoint's RDMA port loses its link: port state DOWN
//                (sysfs), nothing sent or received on it. With
//                `rdmagw-demo --gpus`, the GPU beside it loses its near NIC
//                and reaches the fabric only through a far one. (The leaf
//                port is left up in this model.)
//
// A scenario names one endpoint (Fabric endpoint index): the receiver; the
// fabric works out the rest (Fabric::scenarioCast).

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace rdmagw::sim {

enum class ScenarioKind {
  kNone,
  kIncast,
  kNpOff,
  kRpOff,
  kPfcMismatch,
  kPauseStorm,
  kPfcMismatchSwitch,
  kTrustMismatch,
  kCnpLossy,
  kEcnOff,
  kPauseCosMissing,
  kRoceEtsZero,
  kStrictStarve,
  kWatchdogOff,
  kMtuSmall,
  kPfcLossyPrio,
  kWatchdogFalseTrip,
  kEcnLate,
  kAcsRedirect,
  kNicDown,
};

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
// Also takes "trust-pcp" for trust-mismatch.
std::optional<ScenarioKind> parseScenarioName(std::string_view name);
// A misconfiguration without traffic of its own: trust-mismatch and the
// RoCE QoS faults (cnp-lossy .. ecn-late).
bool isConfigScenario(ScenarioKind kind);
// One line on what a configuration scenario does to its device or port
// (Fabric::scenarioTarget), for `rdmagw-demo`; "" for the others.
std::string_view scenarioSummary(ScenarioKind kind);
// The names a user may give, in a stable order ("incast, np-off, ...").
std::string scenarioNameList();

}  // namespace rdmagw::sim
