#pragma once
// What a simulated Nexus leaf counts: per-port interface counters, PFC frames
// per CoS, and per-qos-group egress queues. Field names follow the NX-OS
// output they end up in (show interface, show queuing interface), so the
// renderers stay tables.

#include <array>
#include <cstdint>
#include <string>
#include <vector>

#include "sim/device.h"

namespace rdmagw::sim {

inline constexpr int kQosGroups = 8;
// Every Ethernet port's MTU and the network-qos classes' (NX-OS jumbo).
inline constexpr uint64_t kPortMtu = 9216;
// Ethernet's default, what a port forgotten in a jumbo fabric keeps.
inline constexpr uint64_t kDefaultMtu = 1500;

// One egress queue of a port. Unicast and multicast are separate columns in
// `show queuing interface`; drops and ECN marks are unicast only here.
struct QueueCounters {
  uint64_t uc_tx_pkts = 0;
  uint64_t uc_tx_bytes = 0;
  uint64_t mc_tx_pkts = 0;
  uint64_t mc_tx_bytes = 0;
  uint64_t drop_pkts = 0;   // WRED/AFD & tail drop
  uint64_t drop_bytes = 0;
  uint64_t ecn_pkts = 0;    // CE-marked instead of dropped
  uint64_t ecn_bytes = 0;
  uint64_t depth_bytes = 0; // current occupancy (a gauge)

  bool operator==(const QueueCounters&) const = default;
};

enum class PortKind { kHost, kUplink, kInternal };

// What the device at the other end of a port advertises over LLDP, in the
// NX-OS wording of `show lldp neighbors detail` (sim/fabric_lldp.cc).
struct LldpNeighbor {
  std::string system_name;  // host01.rdma.sim (lldpd: the FQDN), esx01; empty: no neighbour
  std::string chassis_id;   // NX-OS dotted MAC: 248a.07b4.a0c2
  std::string port_id;      // a MAC (lldpd on Linux) or the vmnic name (ESXi)
  std::string port_type;    // "Mac Address", "Locally Assigned"
  std::string port_desc;    // lldpd: the netdev; ESXi: none
  bool operator==(const LldpNeighbor&) const = default;
};

struct SwitchPort {
  std::string name;         // Ethernet1/3, ii1/1/2
  PortKind kind = PortKind::kHost;
  std::string description;  // host01:mlx5_0, esx01:vmnic1, spine uplink
  int asic = 0;             // which half of the leaf (0 or 1)
  int endpoint = -1;        // Fabric endpoint index for host ports
  LldpNeighbor lldp;        // host ports: what the cabled host advertises
  // PFC on the RoCE priority at this port (not a counter): off only toward
  // the faulty sender of the pfc-mismatch-switch scenario.
  bool pfc_roce = true;
  // Not counters: the port's PFC watchdog (off only in watchdog-off) and its
  // MTU (1500 only in mtu-small).
  bool pfc_watchdog = true;
  uint64_t mtu = kPortMtu;
  // The PFC watchdog as it runs (`show queuing pfc-queue detail`): the RoCE
  // queue shut while the port's peer pauses it without pause (a storm), or
  // in watchdog-false-trip; its events and the packets it drained.
  bool wd_shutdown = false;
  uint64_t wd_shutdown_events = 0;
  uint64_t wd_restored_events = 0;
  uint64_t wd_drained_pkts = 0;

  uint64_t in_octets = 0;
  uint64_t in_ucast = 0;
  uint64_t in_mcast = 0;
  uint64_t in_bcast = 0;
  uint64_t out_octets = 0;
  uint64_t out_ucast = 0;
  uint64_t out_mcast = 0;
  uint64_t out_bcast = 0;
  uint64_t in_jumbo = 0;     // frames over 1518 bytes: every RoCE data packet
  uint64_t out_jumbo = 0;
  uint64_t in_discard = 0;
  uint64_t out_discard = 0;  // the sum of the queues' drops
  uint64_t in_error = 0;
  uint64_t out_error = 0;
  uint64_t in_pause = 0;     // 802.3x link pause: stays 0, the fabric runs PFC
  uint64_t out_pause = 0;
  uint64_t ingress_overflow_drops = 0;
  std::array<uint64_t, kPriorities> rx_ppp{};  // PFC frames received, per CoS
  std::array<uint64_t, kPriorities> tx_ppp{};  // PFC frames sent, per CoS
  std::array<QueueCounters, kQosGroups> queues{};
  // Rates over the last tick (gauges for the "input rate" lines).
  uint64_t in_bps = 0;
  uint64_t in_pps = 0;
  uint64_t out_bps = 0;
  uint64_t out_pps = 0;

  uint64_t inPackets() const { return in_ucast + in_mcast + in_bcast; }
  uint64_t outPackets() const { return out_ucast + out_mcast + out_bcast; }

  uint64_t rxPpp() const {
    uint64_t s = 0;
    for (uint64_t v : rx_ppp) s += v;
    return s;
  }
  uint64_t txPpp() const {
    uint64_t s = 0;
    for (uint64_t v : tx_ppp) s += v;
    return s;
  }
  bool operator==(const SwitchPort&) const = default;
};

struct Switch {
  std::string name;  // leaf01
  std::string mac;   // base MAC, NX-OS dotted form 00de.fb01.0000
  // Host ports first (Ethernet1/1..), then uplinks, then the ii ports.
  std::vector<SwitchPort> ports;
  int host_ports = 0;
  int uplinks = 0;
  // Every port's line rate (sim.link_gbps), for the gNMI tree's port-speed.
  uint64_t speed_bps = 100'000'000'000;

  // Not counters: device-wide QoS faults (sim/scenario.h), each false but in
  // its scenario: the CNP DSCP left to class-default (cnp-lossy), WRED
  // without ECN on the RoCE queue (ecn-off), no `pause pfc-cos` on the RoCE
  // network-qos class (pause-cos-missing), ECN thresholds ten times the
  // other leaves' (ecn-late).
  bool cnp_lossy = false;
  bool ecn_off = false;
  bool ecn_late = false;
  bool pause_cos_missing = false;

  int uplinkIndex(int u) const { return host_ports + u; }
  int internalIndex(int k) const { return host_ports + uplinks + k; }
  int internalPorts() const { return int(ports.size()) - host_ports - uplinks; }
};

// Where an endpoint is cabled.
struct Attachment {
  int sw = 0;
  int port = 0;  // index into Switch::ports
};

}  // namespace rdmagw::sim
