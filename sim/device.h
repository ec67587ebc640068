#pragma once
// What a simulated host looks like: RDMA devices with one port each, and the
// counters the kernel exposes for them (sysfs counters/, hw_counters/ and
// ethtool -S). Field names are the kernel's, so the writer can stay a table.
//
// Longer than a header should be because it is a table of the kernel's counter
// fields under the kernel's own names.

#include <array>
#include <cstdint>
#include <string>
#include <vector>

namespace rdmagw::sim {

inline constexpr int kPriorities = 8;

// A host port's ETS as configured (sim/roce_qos.h): as planned, the RoCE
// traffic class at 0 % (roce-ets-zero), or strict below strict classes
// (strict-starve).
enum class EtsFault { kNone, kRoceZero, kStrictStarve };

struct PortCounters {
  // IB PMA counters/. port_xmit_data and port_rcv_data count 4-octet words,
  // as real hardware does; on RoCE they cover RoCE traffic only.
  uint64_t port_xmit_data = 0;
  uint64_t port_rcv_data = 0;
  uint64_t port_xmit_packets = 0;
  uint64_t port_rcv_packets = 0;
  uint64_t unicast_xmit_packets = 0;
  uint64_t unicast_rcv_packets = 0;
  uint64_t multicast_xmit_packets = 0;
  uint64_t multicast_rcv_packets = 0;
  uint64_t port_xmit_wait = 0;
  // The small saturating error counters stay 0: the simulated links are clean.
  uint64_t symbol_error = 0;
  uint64_t link_error_recovery = 0;
  uint64_t link_downed = 0;
  uint64_t port_rcv_errors = 0;
  uint64_t port_rcv_remote_physical_errors = 0;
  uint64_t port_rcv_switch_relay_errors = 0;
  uint64_t port_xmit_discards = 0;
  uint64_t port_xmit_constraint_errors = 0;
  uint64_t port_rcv_constraint_errors = 0;
  uint64_t local_link_integrity_errors = 0;
  uint64_t excessive_buffer_overrun_errors = 0;
  uint64_t VL15_dropped = 0;

  // mlx5 hw_counters/: congestion counters are 64-bit ...
  uint64_t np_ecn_marked_roce_packets = 0;
  uint64_t np_cnp_sent = 0;
  uint64_t rp_cnp_handled = 0;
  uint64_t rp_cnp_ignored = 0;
  uint64_t rx_icrc_encapsulated = 0;
  // ... queue counters are 32-bit and wrap (see Fabric::add32).
  uint64_t out_of_buffer = 0;
  uint64_t out_of_sequence = 0;
  uint64_t duplicate_request = 0;
  uint64_t rnr_nak_retry_err = 0;
  uint64_t packet_seq_err = 0;
  uint64_t implied_nak_seq_err = 0;
  uint64_t local_ack_timeout_err = 0;
  uint64_t req_cqe_error = 0;
  uint64_t resp_cqe_error = 0;
  uint64_t req_cqe_flush_error = 0;
  uint64_t resp_cqe_flush_error = 0;
  uint64_t req_remote_access_errors = 0;
  uint64_t resp_remote_access_errors = 0;
  uint64_t req_remote_invalid_request = 0;
  uint64_t resp_local_length_error = 0;
  uint64_t req_transport_retries_exceeded = 0;
  uint64_t rx_write_requests = 0;
  uint64_t rx_read_requests = 0;
  uint64_t rx_atomic_requests = 0;
  uint64_t rx_dct_connect = 0;
  uint64_t roce_adp_retrans = 0;
  uint64_t roce_adp_retrans_to = 0;
  uint64_t roce_slow_restart = 0;
  uint64_t roce_slow_restart_cnps = 0;
  uint64_t roce_slow_restart_trans = 0;
  uint64_t lifespan = 10;  // not a counter: the driver's cache time in ms
  // Not a counter: PFC on the RoCE priority at this NIC (off only in the
  // pfc-mismatch scenario; mlx5 then lists no pause counters for it).
  bool pfc_roce = true;
  // Not counters: the mlx5 DCQCN knobs of the RoCE priority
  // (ecn/roce_np/enable/<prio>, ecn/roce_rp/enable/<prio>), off only in the
  // np-off and rp-off scenarios; every other priority's knobs stay on.
  bool np_roce = true;
  bool rp_roce = true;
  // Not a counter: the netdev classifies RoCE by DSCP (`dcb app` dscp-prio
  // rules, as the switch does); off (pcp) only in the trust-mismatch scenario.
  bool dscp_trust = true;
  // Not a counter: the port's ETS (kNone but in roce-ets-zero and strict-starve).
  EtsFault ets_fault = EtsFault::kNone;

  // ethtool -S (mlx5 netdev), all 64-bit.
  uint64_t rx_bytes = 0;
  uint64_t tx_bytes = 0;
  uint64_t rx_packets = 0;
  uint64_t tx_packets = 0;
  uint64_t rx_discards_phy = 0;
  uint64_t rx_pause_ctrl_phy = 0;
  // Multicast (LLDP) and broadcast (ARP) frames, included in rx/tx_packets
  // and bytes; ESXi prints them, mlx5 ethtool -S as rx_vport_multicast_*.
  uint64_t rx_multicast_packets = 0;
  uint64_t tx_multicast_packets = 0;
  uint64_t rx_broadcast_packets = 0;
  uint64_t tx_broadcast_packets = 0;
  uint64_t tx_pause_ctrl_phy = 0;
  std::array<uint64_t, kPriorities> rx_prio_bytes{};
  std::array<uint64_t, kPriorities> rx_prio_packets{};
  std::array<uint64_t, kPriorities> rx_prio_discards{};
  std::array<uint64_t, kPriorities> tx_prio_bytes{};
  std::array<uint64_t, kPriorities> tx_prio_packets{};
  // PFC on the RoCE priority only (the one with PFC enabled); durations in us.
  uint64_t rx_roce_prio_pause = 0;
  uint64_t rx_roce_prio_pause_duration = 0;
  uint64_t rx_roce_prio_pause_transition = 0;
  uint64_t tx_roce_prio_pause = 0;
  uint64_t tx_roce_prio_pause_duration = 0;
  uint64_t tx_pause_storm_warning_events = 0;
  uint64_t tx_pause_storm_error_events = 0;

  bool operator==(const PortCounters&) const = default;
};

struct Device {
  std::string name;       // mlx5_0
  std::string netdev;     // ens1f0np0
  std::string node_guid;  // 248a:0703:00b4:a0c2, sysfs format
  std::string fw_ver;
  std::string hca_type;
  std::string board_id;
  PortCounters port;      // port 1, the only port
};

struct Host {
  std::string name;  // host01
  std::vector<Device> devices;
  bool mlnx_qos = false;  // shows DCB through `mlnx_qos -i`, has no `dcb` (FabricConfig::mlnx_qos_hosts)
};

// An ESXi uplink (nmlx5_core on a ConnectX): the same port model as a Linux
// RDMA device, shown through esxcli and vsish instead of sysfs.
struct Vmnic {
  std::string name;         // vmnic0
  std::string driver;       // nmlx5_core
  std::string pci;          // 0000:3b:00.0
  std::string mac;          // b8:59:9f:..:..:..
  std::string description;  // esxcli's PCI description
  PortCounters port;
};

struct EsxiHost {
  std::string name;  // esx01
  std::vector<Vmnic> nics;
};

}  // namespace rdmagw::sim
