#pragma once
// The RoCE QoS plan every simulated device is configured with, and what each
// device prints of it: Linux hosts (`dcb -j ets|buffer show`, the mlx5 ECN
// knobs, configfs RDMA CM), ESXi (`esxcli network nic dcb status get`) and
// Nexus leaves (`show running-config ipqos`, `show queuing pfc-queue
// detail`). RoCE is DSCP 26 (AF31) on roce_priority, CNPs DSCP 48 (CS6) on
// cnp_priority; a leaf maps each priority to the qos-group of the same number
// (DSCP 26 -> qos-group R -> pause pfc-cos R), as Cisco's RoCE template does.
//
// The misconfiguration scenarios (sim/scenario.h) flip one flag on one host
// port (PortCounters), one leaf port (SwitchPort) or one leaf (Switch); the
// renderers below read those flags, so a scenario changes exactly one
// device's output and switching it off restores the original text.

#include <array>
#include <cstdint>
#include <string>

#include "sim/device.h"
#include "sim/switch.h"

namespace rdmagw::sim {

inline constexpr uint32_t kRoceDscp = 26;  // AF31
inline constexpr uint32_t kCnpDscp = 48;   // CS6
// RDMA CM's default ToS: DSCP 26 << 2 | ECT(0) (binary 10), so every QP the
// CM creates is ECN-capable RoCE on the no-drop class.
inline constexpr uint32_t kRoceTos = kRoceDscp << 2 | 2;
// Ingress no-drop thresholds of the RoCE qos-group (bytes), as `show queuing
// interface` prints them and the ingress queuing policy configures them.
inline constexpr uint64_t kPauseBufferSize = 348608;
inline constexpr uint64_t kPauseThreshold = 77376;
inline constexpr uint64_t kResumeThreshold = 75712;
// Egress WRED/ECN of the RoCE queue (kbytes), and its and the default
// queue's share of what the strict CNP queue leaves.
inline constexpr uint64_t kWredMinKbytes = 150;
inline constexpr uint64_t kWredMaxKbytes = 3000;
// The ecn-late leaf's: marking starts when the queue already holds more than
// the ingress pause threshold of several ports.
inline constexpr uint64_t kLateWredMinKbytes = 1500;
inline constexpr uint64_t kLateWredMaxKbytes = 6000;
inline constexpr uint32_t kRoceQueuePercent = 60;  // what the hosts give the RoCE class: both ends agree
// The host receive buffers (mlx5 port buffer, bytes): buffer 0 for the lossy
// priorities, buffer 1 for the PFC one; sizes of a recorded ConnectX-7.
inline constexpr uint64_t kLossyBufferBytes = 19872;
inline constexpr uint64_t kPfcBufferBytes = 220896;
inline constexpr uint64_t kTotalBufferBytes = 4151520;

struct RoceQosPlan {
  int roce_priority = 3;
  int cnp_priority = 6;
  int lossy_priority = 0;  // ordinary traffic (TCP, LLDP, ARP); the default queue
};

// A host port's IEEE 802.1Qaz ETS, priority i in traffic class i.
struct HostEts {
  std::array<int, kPriorities> prio_tc{};
  std::array<int, kPriorities> bw{};          // percent, ETS classes only
  std::array<bool, kPriorities> strict{};     // TSA strict (else ets)
};

// Normal: every TC ETS, RoCE kRoceQueuePercent (as on the leaves), CNPs
// 10 %, the lossy class the rest.
// ets_fault kRoceZero: RoCE 0 %; kStrictStarve: the RoCE TC and every TC
// above it strict (a recorded ConnectX-7: priorities 4-7 strict, RoCE on 5).
HostEts hostEts(const PortCounters& port, const RoceQosPlan& plan);

// iproute2 `dcb -j ets show dev X` (dcb/dcb_ets.c member names and order).
std::string dcbEtsJson(const PortCounters& port, const RoceQosPlan& plan);
// `dcb -j buffer show dev X`: the PFC priority in buffer 1, the rest in 0.
std::string dcbBufferJson(const PortCounters& port, const RoceQosPlan& plan);
// A host without `dcb`: `mlnx_qos -i <netdev>` (MLNX_OFED) text of the same
// trust, DSCP rules, PFC, ETS and receive buffers as the four dcb documents.
std::string mlnxQosText(const Device& dev, const RoceQosPlan& plan);

// `show running-config ipqos` of one leaf: classification, the egress and
// ingress queuing policies, the network-qos policy, system qos and every
// Ethernet port's PFC mode, watchdog and policies.
std::string nxosRunningConfigIpqos(const Switch& sw, const RoceQosPlan& plan);
// `show policy-map system type network-qos`: the same network-qos policy.
std::string nxosShowNetworkQos(const Switch& sw, const RoceQosPlan& plan);
// `show queuing pfc-queue detail`: per Ethernet port the PFC watchdog and
// the no-drop group's state as it runs ([Shutdown] while the watchdog holds
// it shut, its Shutdown/Restored events and drained packets; layout of a
// third party's synthetic fixture: unverified against a real switch, as
// the parser's).
std::string nxosShowPfcQueueDetail(const Switch& sw, const RoceQosPlan& plan);

}  // namespace rdmagw::sim
