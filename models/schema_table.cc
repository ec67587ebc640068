// The one schema table. Paths follow the YANG modules in yang/:
//   /interfaces/...   openconfig-interfaces / openconfig-if-ethernet leaves
//                     plus rdmagw-pfc additions (ethernet/pfc)
//   /rdma/...         rdmagw-rdma (IB PMA counters, mlx5 hw_counters)
//   /fabric/...       rdmagw-fabric: derived by analytics/ from the rows above,
//                     written under the target of the port they are about
// Prometheus names: rdmagw_<subsystem>_<name>_<unit>[_total], base units.

#include <cstdlib>
#include <cstdio>
#include <string>
#include <unordered_map>

#include "models/schema.h"

namespace rdmagw {
namespace {

constexpr LeafKind C = LeafKind::kCounter;
constexpr LeafKind G = LeafKind::kGauge;
constexpr LeafKind S = LeafKind::kString;

#define IF_STATE "/interfaces/interface/state/"
#define IF_CTR "/interfaces/interface/state/counters/"
#define ETH_CTR "/interfaces/interface/ethernet/state/counters/"
#define ETH_STATE "/interfaces/interface/ethernet/state/"
#define PFC_CTR "/interfaces/interface/ethernet/pfc/state/counters/"
#define PFC_STATE "/interfaces/interface/ethernet/pfc/state/"
#define PRIO_CTR "/interfaces/interface/ethernet/pfc/priorities/priority/state/counters/"
#define RDEV "/rdma/devices/device/state/"
#define RPORT "/rdma/devices/device/ports/port/state/"
#define PMA RPORT "counters/"
#define HW RPORT "hw-counters/"
#define QUEUE "/qos/interfaces/interface/output/queues/queue/state/"
#define QOS_IN "/qos/interfaces/interface/input/state/"
#define HNIC "/hypervisor/nics/nic/state/"
#define HNIC_CTR HNIC "counters/"
#define HNIC_PAUSE HNIC "pause-counters/"
#define HNIC_PRIO "/hypervisor/nics/nic/priorities/priority/state/counters/"
#define LLDP_NBR "/lldp/interfaces/interface/neighbors/neighbor/state/"
#define FAB_DCQCN "/fabric/dcqcn/devices/device/ports/port/state/"
#define FAB_LINK "/fabric/interfaces/interface/link/state/"
#define FAB_PRIO "/fabric/interfaces/interface/priorities/priority/state/"
#define DCQCN_STATE "/interfaces/interface/ethernet/dcqcn/state/"
#define NQOS "/qos/network-qos/classes/class/state/"
#define DCB_STATE "/interfaces/interface/ethernet/dcb/state/"
#define TQOS "/qos/type-qos/classes/class/state/"
#define FAB_DCB "/fabric/interfaces/interface/dcb/state/"

// SNMP OIDs (LeafSchema::oid): the column(s) each leaf is served as, space
// separated when a standard MIB has both a 32- and a 64-bit object. The
// tables and their indexes are in northbound/snmp/mib_catalog.cc; our own
// objects are documented in mibs/RDMAGW-MIB.txt.
#define IFT "1.3.6.1.2.1.2.2.1."            // IF-MIB ifEntry
#define IFX "1.3.6.1.2.1.31.1.1.1."         // IF-MIB ifXEntry
#define DOT3P "1.3.6.1.2.1.10.7.10.1."      // EtherLike-MIB dot3PauseEntry
#define PFCIF "1.3.111.2.802.1.1.21.1.1.1." // IEEE8021-PFC-MIB ieee8021PfcIfEntry
#define CPFC "1.3.6.1.4.1.9.9.813.1.1.1."   // CISCO-PFC-EXT-MIB cpfcIfEntry
#define CPFCP "1.3.6.1.4.1.9.9.813.1.2.1."  // CISCO-PFC-EXT-MIB cpfcIfPriorityEntry
#define RG "1.3.6.1.4.1.32473.1.1."         // RDMAGW-MIB rdmagwObjects (placeholder arc)
#define RG_IF RG "2.1."
#define RG_PRIO RG "3.1."
#define RG_QUEUE RG "4.1."
#define RG_RDEV RG "5.1."
#define RG_RPORT RG "6.1."
#define RG_VMNIC RG "7.1."
#define RG_FPRIO RG "8.1."  // fabric verdicts per interface and priority
#define RG_FDCQCN RG "9.1." // fabric DCQCN verdict per RDMA port
#define RG_FDCB RG "10.1."  // fabric DCB consistency per interface

const LeafSchema kLeaves[] = {
    // --- OpenConfig interface counters (host netdevs, switch ports) ---
    // Interface state: what IF-MIB serves as ifAlias and ifOperStatus.
    {IF_STATE "description", S, "", "Interface description as configured on the device (NX-OS `description`, OpenConfig state/description); IF-MIB ifAlias.", "rdmagw_interface_description_info", "interface", 1.0, IFX "18"},
    {IF_STATE "oper-status", S, "", "Operational state of the interface: UP, DOWN, or the device's own word upper-cased; IF-MIB ifOperStatus.", "rdmagw_interface_oper_status_info", "interface", 1.0, IFT "8"},
    {IF_STATE "admin-status", S, "", "Administrative state of the interface: UP, DOWN or TESTING (NX-OS `admin state is`, OpenConfig state/admin-status); IF-MIB ifAdminStatus.", "rdmagw_interface_admin_status_info", "interface", 1.0, IFT "7"},
    // Speed twice from one reading (models/ethernet_speed.h): the number every
    // northbound can use, and OpenConfig's identities for OpenConfig clients.
    // state/speed is rdmagw-interfaces' augment of the OpenConfig state
    // container (ietf-interfaces' `speed`, bits/s): it applies to every
    // interface kind (port-channel, Vlan, mgmt), where ethernet/state does not.
    {IF_STATE "speed", G, "bits-per-second", "Speed of the interface as the device reports it (NX-OS BW / eth_bw, OpenConfig port-speed, Linux /sys/class/net/<if>/speed); absent while the device does not know it (link down). IF-MIB ifSpeed (saturating at 4294967295) and ifHighSpeed (Mb/s).", "rdmagw_interface_speed_bytes", "interface", 0.125, IFT "5 " IFX "15"},
    {ETH_STATE "port-speed", S, "", "Speed of the Ethernet port as OpenConfig's ETHERNET_SPEED identity, bare (SPEED_100GB, SPEED_UNKNOWN).", "rdmagw_interface_port_speed_info", "interface"},
    {ETH_STATE "negotiated-port-speed", S, "", "Speed the Ethernet port auto-negotiated, as OpenConfig's ETHERNET_SPEED identity, bare (SPEED_100GB, SPEED_UNKNOWN).", "rdmagw_interface_negotiated_port_speed_info", "interface"},
    {IF_CTR "in-octets", C, "bytes", "Octets received on the interface.", "rdmagw_interface_in_bytes_total", "interface", 1.0, IFX "6 " IFT "10"},
    {IF_CTR "out-octets", C, "bytes", "Octets transmitted on the interface.", "rdmagw_interface_out_bytes_total", "interface", 1.0, IFX "10 " IFT "16"},
    {IF_CTR "in-pkts", C, "packets", "Packets received on the interface.", "rdmagw_interface_in_packets_total", "interface", 1.0, RG_IF "1"},
    {IF_CTR "out-pkts", C, "packets", "Packets transmitted on the interface.", "rdmagw_interface_out_packets_total", "interface", 1.0, RG_IF "2"},
    {IF_CTR "in-unicast-pkts", C, "packets", "Unicast packets received.", "rdmagw_interface_in_unicast_packets_total", "interface", 1.0, IFX "7 " IFT "11"},
    {IF_CTR "out-unicast-pkts", C, "packets", "Unicast packets transmitted.", "rdmagw_interface_out_unicast_packets_total", "interface", 1.0, IFX "11 " IFT "17"},
    {IF_CTR "in-multicast-pkts", C, "packets", "Multicast packets received.", "rdmagw_interface_in_multicast_packets_total", "interface", 1.0, IFX "8 " IFX "2"},
    {IF_CTR "out-multicast-pkts", C, "packets", "Multicast packets transmitted.", "rdmagw_interface_out_multicast_packets_total", "interface", 1.0, IFX "12 " IFX "4"},
    {IF_CTR "in-broadcast-pkts", C, "packets", "Broadcast packets received.", "rdmagw_interface_in_broadcast_packets_total", "interface", 1.0, IFX "9 " IFX "3"},
    {IF_CTR "out-broadcast-pkts", C, "packets", "Broadcast packets transmitted.", "rdmagw_interface_out_broadcast_packets_total", "interface", 1.0, IFX "13 " IFX "5"},
    {IF_CTR "in-discards", C, "packets", "Inbound packets discarded (on mlx5: rx_discards_phy, no receive buffer).", "rdmagw_interface_in_discards_total", "interface", 1.0, IFT "13"},
    {IF_CTR "out-discards", C, "packets", "Outbound packets discarded.", "rdmagw_interface_out_discards_total", "interface", 1.0, IFT "19"},
    {IF_CTR "in-errors", C, "packets", "Inbound packets with errors.", "rdmagw_interface_in_errors_total", "interface", 1.0, IFT "14"},
    {IF_CTR "out-errors", C, "packets", "Outbound packets with errors.", "rdmagw_interface_out_errors_total", "interface", 1.0, IFT "20"},
    {ETH_CTR "in-mac-pause-frames", C, "frames", "802.3x (global) PAUSE frames received.", "rdmagw_interface_in_mac_pause_frames_total", "interface", 1.0, DOT3P "5 " DOT3P "3"},
    {ETH_CTR "out-mac-pause-frames", C, "frames", "802.3x (global) PAUSE frames transmitted.", "rdmagw_interface_out_mac_pause_frames_total", "interface", 1.0, DOT3P "6 " DOT3P "4"},

    // --- Ethernet error counters (NX-OS `show interface counters errors`, dbgDot3Stats) ---
    // OpenConfig leaves where OpenConfig has one that means the same counter;
    // the rdmagw-interfaces additions (in-alignment-errors, in-stomped-crc-errors,
    // the collision, deferral and SQE columns) where it has none.
    // in-maxsize-exceeded, not in-oversize-frames, for Giants: OpenConfig's
    // oversize is RMON's "longer than 1518 octets", which every jumbo RoCE frame is.
    {IF_CTR "in-fcs-errors", C, "frames", "Frames received with a bad FCS (frame check sequence).", "rdmagw_interface_in_fcs_errors_total", "interface"},
    {ETH_CTR "in-alignment-errors", C, "frames", "Frames received that are not a whole number of octets and have a bad FCS.", "rdmagw_interface_in_alignment_errors_total", "interface"},
    {ETH_CTR "in-stomped-crc-errors", C, "frames", "Frames received with a stomped CRC: corrupted upstream and forwarded cut-through with the CRC deliberately invalidated.", "rdmagw_interface_in_stomped_crc_errors_total", "interface"},
    {ETH_CTR "in-undersize-frames", C, "frames", "Frames received shorter than 64 octets with a good FCS (NX-OS UnderSize).", "rdmagw_interface_in_undersize_frames_total", "interface"},
    {ETH_CTR "in-fragment-frames", C, "frames", "Frames received shorter than 64 octets with a bad FCS (NX-OS Runts).", "rdmagw_interface_in_fragment_frames_total", "interface"},
    {ETH_CTR "in-maxsize-exceeded", C, "frames", "Frames received longer than the port's maximum frame size (MTU) and dropped (NX-OS Giants).", "rdmagw_interface_in_maxsize_exceeded_frames_total", "interface"},
    {ETH_CTR "in-symbol-error", C, "errors", "Invalid symbols received by the PHY (line code errors).", "rdmagw_interface_in_symbol_errors_total", "interface"},
    {ETH_CTR "in-mac-errors-rx", C, "frames", "Frames lost to an internal MAC receive error.", "rdmagw_interface_in_mac_errors_total", "interface"},
    {ETH_CTR "out-mac-errors-tx", C, "frames", "Frames lost to an internal MAC transmit error.", "rdmagw_interface_out_mac_errors_total", "interface"},
    {ETH_CTR "in-single-collision", C, "frames", "Frames transmitted after exactly one collision (half duplex only).", "rdmagw_interface_single_collision_frames_total", "interface"},
    {ETH_CTR "out-multiple-collision-frames", C, "frames", "Frames transmitted after more than one collision (half duplex only).", "rdmagw_interface_multiple_collision_frames_total", "interface"},
    {ETH_CTR "in-late-collision", C, "events", "Collisions detected later than 512 bit times into a transmission (half duplex only).", "rdmagw_interface_late_collisions_total", "interface"},
    {ETH_CTR "out-excessive-collision-frames", C, "frames", "Frames not transmitted because of excessive collisions (half duplex only).", "rdmagw_interface_excessive_collision_frames_total", "interface"},
    {ETH_CTR "in-carrier-errors", C, "events", "Times carrier sense was lost or never asserted while transmitting.", "rdmagw_interface_carrier_sense_errors_total", "interface"},
    {ETH_CTR "out-deferred-frames", C, "frames", "Frames whose first transmission attempt was deferred because the medium was busy.", "rdmagw_interface_deferred_frames_total", "interface"},
    {ETH_CTR "out-sqe-test-errors", C, "events", "SQE test errors (10 Mb/s transceivers).", "rdmagw_interface_sqe_test_errors_total", "interface"},

    // --- rdmagw-pfc: interface-wide pause accounting ---
    {PFC_CTR "in-pause-ctrl-frames", C, "frames", "MAC control pause frames received, global and per-priority (mlx5 rx_pause_ctrl_phy).", "rdmagw_interface_in_pause_ctrl_frames_total", "interface", 1.0, RG_IF "3"},
    {PFC_CTR "out-pause-ctrl-frames", C, "frames", "MAC control pause frames transmitted, global and per-priority (mlx5 tx_pause_ctrl_phy).", "rdmagw_interface_out_pause_ctrl_frames_total", "interface", 1.0, RG_IF "4"},
    {PFC_CTR "in-global-pause-duration", C, "microseconds", "Time the port was paused by received 802.3x pause.", "rdmagw_interface_in_global_pause_duration_seconds_total", "interface", 1e-6, RG_IF "5"},
    {PFC_CTR "out-global-pause-duration", C, "microseconds", "Time the port paused its peer with 802.3x pause.", "rdmagw_interface_out_global_pause_duration_seconds_total", "interface", 1e-6, RG_IF "6"},
    {PFC_CTR "in-global-pause-transitions", C, "events", "Transitions from not-paused to paused by received 802.3x pause.", "rdmagw_interface_in_global_pause_transitions_total", "interface", 1.0, RG_IF "7"},
    {PFC_CTR "pause-storm-warning-events", C, "events", "Pause storm warnings: the NIC kept pausing its peer for longer than the warning threshold.", "rdmagw_interface_pause_storm_warning_events_total", "interface", 1.0, RG_IF "8"},
    {PFC_CTR "pause-storm-error-events", C, "events", "Pause storm errors: the NIC stopped sending pause after the storm threshold.", "rdmagw_interface_pause_storm_error_events_total", "interface", 1.0, RG_IF "9"},

    {PFC_CTR "in-pfc-frames", C, "frames", "PFC frames received on the port, all priorities (NX-OS RxPPP).", "rdmagw_interface_pfc_in_frames_total", "interface", 1.0, RG_IF "10 " PFCIF "3 " CPFC "2"},
    {PFC_CTR "out-pfc-frames", C, "frames", "PFC frames transmitted on the port, all priorities (NX-OS TxPPP).", "rdmagw_interface_pfc_out_frames_total", "interface", 1.0, RG_IF "11 " PFCIF "2 " CPFC "1"},
    {PFC_STATE "admin-mode", S, "", "PFC mode configured on the port: on, off or auto.", "rdmagw_interface_pfc_admin_mode_info", "interface", 1.0, RG_IF "12"},
    {PFC_STATE "oper-mode", S, "", "PFC operational state of the port: on or off.", "rdmagw_interface_pfc_oper_mode_info", "interface", 1.0, RG_IF "13"},
    {PFC_STATE "enabled-priorities", G, "", "Bitmap of the priorities with PFC operational (bit 3 set: priority 3; NX-OS VL bmap; Linux `dcb pfc show` prio-pfc).", "rdmagw_interface_pfc_enabled_priorities_bitmap", "interface", 1.0, RG_IF "14"},

    // --- DCB configuration the fabric's DCB consistency check compares ---
    {IF_STATE "mtu", G, "bytes", "MTU of the interface (NX-OS `show interface` MTU, Linux /sys/class/net/<if>/mtu); IF-MIB ifMtu.", "rdmagw_interface_mtu_bytes", "interface", 1.0, IFT "4"},
    {DCQCN_STATE "np-enabled-priorities", G, "", "Bitmap of the priorities whose DCQCN notification point is on (mlx5 /sys/class/net/<if>/ecn/roce_np/enable/<prio>): the NIC answers ECN CE marks with CNPs.", "rdmagw_interface_dcqcn_np_enabled_priorities_bitmap", "interface", 1.0, RG_IF "16"},
    {DCQCN_STATE "rp-enabled-priorities", G, "", "Bitmap of the priorities whose DCQCN reaction point is on (mlx5 ecn/roce_rp/enable/<prio>): the NIC slows down on the CNPs it receives.", "rdmagw_interface_dcqcn_rp_enabled_priorities_bitmap", "interface", 1.0, RG_IF "17"},
    {NQOS "pfc-priorities", G, "", "Bitmap of the CoS values the switch's system network-qos class pauses with PFC (`pause pfc-cos`): its no-drop priorities.", "rdmagw_qos_network_qos_pfc_priorities_bitmap", "class"},
    {NQOS "mtu", G, "bytes", "MTU of the system network-qos class (`mtu` in `show policy-map system type network-qos`).", "rdmagw_qos_network_qos_mtu_bytes", "class"},
    {DCB_STATE "trust", S, "", "Trust mode of a host netdev: how it classifies RoCE traffic to a priority, dscp when `dcb app show` has dscp-prio rules, else pcp (the 802.1p CoS).", "rdmagw_interface_dcb_trust_info", "interface", 1.0, RG_IF "18"},
    {TQOS "match", S, "", "What the switch's type-qos class-map classifies on (`show class-map type qos`): dscp or cos. Any class matching dscp: the switch trusts DSCP.", "rdmagw_qos_type_qos_match_info", "class"},

    // --- rdmagw-pfc: per-priority (802.1Qbb) counters ---
    {PRIO_CTR "in-pause-frames", C, "frames", "PFC pause frames received for this priority.", "rdmagw_interface_pfc_in_pause_frames_total", "interface,priority", 1.0, RG_PRIO "2 " CPFCP "3"},
    {PRIO_CTR "out-pause-frames", C, "frames", "PFC pause frames transmitted for this priority.", "rdmagw_interface_pfc_out_pause_frames_total", "interface,priority", 1.0, RG_PRIO "3 " CPFCP "2"},
    {PRIO_CTR "in-pause-duration", C, "microseconds", "Time this priority was paused by received PFC.", "rdmagw_interface_pfc_in_pause_duration_seconds_total", "interface,priority", 1e-6, RG_PRIO "4"},
    {PRIO_CTR "out-pause-duration", C, "microseconds", "Time this priority paused its peer with PFC.", "rdmagw_interface_pfc_out_pause_duration_seconds_total", "interface,priority", 1e-6, RG_PRIO "5"},
    {PRIO_CTR "in-pause-transitions", C, "events", "Transitions of this priority from not-paused to paused.", "rdmagw_interface_pfc_in_pause_transitions_total", "interface,priority", 1.0, RG_PRIO "6"},
    {PRIO_CTR "in-octets", C, "bytes", "Octets received on this priority.", "rdmagw_interface_priority_in_bytes_total", "interface,priority", 1.0, RG_PRIO "7"},
    {PRIO_CTR "out-octets", C, "bytes", "Octets transmitted on this priority.", "rdmagw_interface_priority_out_bytes_total", "interface,priority", 1.0, RG_PRIO "8"},
    {PRIO_CTR "in-pkts", C, "packets", "Packets received on this priority.", "rdmagw_interface_priority_in_packets_total", "interface,priority", 1.0, RG_PRIO "9"},
    {PRIO_CTR "out-pkts", C, "packets", "Packets transmitted on this priority.", "rdmagw_interface_priority_out_packets_total", "interface,priority", 1.0, RG_PRIO "10"},
    {PRIO_CTR "in-discards", C, "packets", "Packets of this priority discarded on receive (no buffer).", "rdmagw_interface_priority_in_discards_total", "interface,priority", 1.0, RG_PRIO "11"},

    // --- rdmagw-rdma: device and port state ---
    {RDEV "fw-version", S, "", "Firmware version of the RDMA device.", "rdmagw_rdma_device_fw_version_info", "device", 1.0, RG_RDEV "2"},
    {RDEV "hca-type", S, "", "HCA type of the RDMA device.", "rdmagw_rdma_device_hca_type_info", "device", 1.0, RG_RDEV "3"},
    {RDEV "board-id", S, "", "Board id of the RDMA device.", "rdmagw_rdma_device_board_id_info", "device", 1.0, RG_RDEV "4"},
    {RDEV "node-guid", S, "", "Node GUID of the RDMA device.", "rdmagw_rdma_device_node_guid_info", "device", 1.0, RG_RDEV "5"},
    {RPORT "state", S, "", "Logical port state (ACTIVE, DOWN, INIT, ARMED).", "rdmagw_rdma_port_state_info", "device,port", 1.0, RG_RPORT "2"},
    {RPORT "state-id", G, "", "Logical port state code (4 = ACTIVE).", "rdmagw_rdma_port_state_id", "device,port", 1.0, RG_RPORT "3"},
    {RPORT "phys-state", S, "", "Physical port state (LinkUp, Disabled, Polling...).", "rdmagw_rdma_port_phys_state_info", "device,port", 1.0, RG_RPORT "4"},
    {RPORT "phys-state-id", G, "", "Physical port state code (5 = LinkUp).", "rdmagw_rdma_port_phys_state_id", "device,port", 1.0, RG_RPORT "5"},
    {RPORT "rate", G, "bits-per-second", "Port signalling rate.", "rdmagw_rdma_port_rate_bytes_per_second", "device,port", 0.125, RG_RPORT "6"},
    {RPORT "link-layer", S, "", "Link layer: InfiniBand or Ethernet (RoCE).", "rdmagw_rdma_port_link_layer_info", "device,port", 1.0, RG_RPORT "7"},
    {RPORT "netdev", S, "", "Network device bound to the port (RoCE).", "rdmagw_rdma_port_netdev_info", "device,port", 1.0, RG_RPORT "8"},

    // --- rdmagw-rdma: IB PMA port counters (sysfs counters/) ---
    {PMA "port-xmit-octets", C, "bytes", "Octets transmitted (sysfs port_xmit_data x 4; RoCE traffic only on RoCE).", "rdmagw_rdma_port_xmit_bytes_total", "device,port", 1.0, RG_RPORT "10"},
    {PMA "port-rcv-octets", C, "bytes", "Octets received (sysfs port_rcv_data x 4; RoCE traffic only on RoCE).", "rdmagw_rdma_port_rcv_bytes_total", "device,port", 1.0, RG_RPORT "11"},
    {PMA "port-xmit-packets", C, "packets", "Packets transmitted.", "rdmagw_rdma_port_xmit_packets_total", "device,port", 1.0, RG_RPORT "12"},
    {PMA "port-rcv-packets", C, "packets", "Packets received.", "rdmagw_rdma_port_rcv_packets_total", "device,port", 1.0, RG_RPORT "13"},
    {PMA "unicast-xmit-packets", C, "packets", "Unicast packets transmitted.", "rdmagw_rdma_port_unicast_xmit_packets_total", "device,port", 1.0, RG_RPORT "14"},
    {PMA "unicast-rcv-packets", C, "packets", "Unicast packets received.", "rdmagw_rdma_port_unicast_rcv_packets_total", "device,port", 1.0, RG_RPORT "15"},
    {PMA "multicast-xmit-packets", C, "packets", "Multicast packets transmitted.", "rdmagw_rdma_port_multicast_xmit_packets_total", "device,port", 1.0, RG_RPORT "16"},
    {PMA "multicast-rcv-packets", C, "packets", "Multicast packets received.", "rdmagw_rdma_port_multicast_rcv_packets_total", "device,port", 1.0, RG_RPORT "17"},
    {PMA "port-xmit-wait", C, "ticks", "Ticks the port had data to send but could not (credits, pause).", "rdmagw_rdma_port_xmit_wait_total", "device,port", 1.0, RG_RPORT "18"},
    {PMA "symbol-error", C, "errors", "Minor link errors (16-bit, saturating).", "rdmagw_rdma_port_symbol_error_total", "device,port", 1.0, RG_RPORT "19"},
    {PMA "link-error-recovery", C, "events", "Link error recoveries (8-bit, saturating).", "rdmagw_rdma_port_link_error_recovery_total", "device,port", 1.0, RG_RPORT "20"},
    {PMA "link-downed", C, "events", "Times the link went down on errors (8-bit, saturating).", "rdmagw_rdma_port_link_downed_total", "device,port", 1.0, RG_RPORT "21"},
    {PMA "port-rcv-errors", C, "packets", "Received packets with errors (16-bit, saturating).", "rdmagw_rdma_port_rcv_errors_total", "device,port", 1.0, RG_RPORT "22"},
    {PMA "port-rcv-remote-physical-errors", C, "packets", "Received packets marked with EBP (16-bit, saturating).", "rdmagw_rdma_port_rcv_remote_physical_errors_total", "device,port", 1.0, RG_RPORT "23"},
    {PMA "port-rcv-switch-relay-errors", C, "packets", "Packets discarded by switch relay (16-bit, saturating).", "rdmagw_rdma_port_rcv_switch_relay_errors_total", "device,port", 1.0, RG_RPORT "24"},
    {PMA "port-xmit-discards", C, "packets", "Outbound packets discarded (16-bit, saturating).", "rdmagw_rdma_port_xmit_discards_total", "device,port", 1.0, RG_RPORT "25"},
    {PMA "port-xmit-constraint-errors", C, "packets", "Packets not sent due to constraints (8-bit, saturating).", "rdmagw_rdma_port_xmit_constraint_errors_total", "device,port", 1.0, RG_RPORT "26"},
    {PMA "port-rcv-constraint-errors", C, "packets", "Packets dropped due to constraints (8-bit, saturating).", "rdmagw_rdma_port_rcv_constraint_errors_total", "device,port", 1.0, RG_RPORT "27"},
    {PMA "local-link-integrity-errors", C, "errors", "Local link integrity errors (4-bit, saturating).", "rdmagw_rdma_port_local_link_integrity_errors_total", "device,port", 1.0, RG_RPORT "28"},
    {PMA "excessive-buffer-overrun-errors", C, "errors", "Excessive buffer overruns (4-bit, saturating).", "rdmagw_rdma_port_excessive_buffer_overrun_errors_total", "device,port", 1.0, RG_RPORT "29"},
    {PMA "vl15-dropped", C, "packets", "VL15 packets dropped (16-bit, saturating).", "rdmagw_rdma_port_vl15_dropped_total", "device,port", 1.0, RG_RPORT "30"},

    // --- rdmagw-rdma: mlx5 hw_counters (congestion: 64-bit; queue: 32-bit, wrapping) ---
    {HW "np-ecn-marked-roce-packets", C, "packets", "RoCE packets received with ECN CE marks (receiver, notification point).", "rdmagw_rdma_port_np_ecn_marked_roce_packets_total", "device,port", 1.0, RG_RPORT "40"},
    {HW "np-cnp-sent", C, "packets", "Congestion notification packets sent by the receiver (notification point).", "rdmagw_rdma_port_np_cnp_sent_total", "device,port", 1.0, RG_RPORT "41"},
    {HW "rp-cnp-handled", C, "packets", "CNPs handled by the sender, which lowered its rate (reaction point).", "rdmagw_rdma_port_rp_cnp_handled_total", "device,port", 1.0, RG_RPORT "42"},
    {HW "rp-cnp-ignored", C, "packets", "CNPs received and ignored by the sender (reaction point).", "rdmagw_rdma_port_rp_cnp_ignored_total", "device,port", 1.0, RG_RPORT "43"},
    {HW "rx-icrc-encapsulated", C, "packets", "RoCE packets with ICRC errors.", "rdmagw_rdma_port_rx_icrc_encapsulated_total", "device,port", 1.0, RG_RPORT "44"},
    {HW "out-of-buffer", C, "packets", "Packets dropped: no receive WQE (32-bit, wrapping).", "rdmagw_rdma_port_out_of_buffer_total", "device,port", 1.0, RG_RPORT "45"},
    {HW "out-of-sequence", C, "packets", "Out-of-sequence packets received (32-bit, wrapping).", "rdmagw_rdma_port_out_of_sequence_total", "device,port", 1.0, RG_RPORT "46"},
    {HW "duplicate-request", C, "packets", "Duplicate requests received (32-bit, wrapping).", "rdmagw_rdma_port_duplicate_request_total", "device,port", 1.0, RG_RPORT "47"},
    {HW "rnr-nak-retry-err", C, "events", "RNR NAK retries exceeded (32-bit, wrapping).", "rdmagw_rdma_port_rnr_nak_retry_err_total", "device,port", 1.0, RG_RPORT "48"},
    {HW "packet-seq-err", C, "events", "Packet sequence errors (32-bit, wrapping).", "rdmagw_rdma_port_packet_seq_err_total", "device,port", 1.0, RG_RPORT "49"},
    {HW "implied-nak-seq-err", C, "events", "Implied NAK sequence errors (32-bit, wrapping).", "rdmagw_rdma_port_implied_nak_seq_err_total", "device,port", 1.0, RG_RPORT "50"},
    {HW "local-ack-timeout-err", C, "events", "Local ACK timeouts (32-bit, wrapping).", "rdmagw_rdma_port_local_ack_timeout_err_total", "device,port", 1.0, RG_RPORT "51"},
    {HW "req-cqe-error", C, "events", "Requester completions with error (32-bit, wrapping).", "rdmagw_rdma_port_req_cqe_error_total", "device,port", 1.0, RG_RPORT "52"},
    {HW "resp-cqe-error", C, "events", "Responder completions with error (32-bit, wrapping).", "rdmagw_rdma_port_resp_cqe_error_total", "device,port", 1.0, RG_RPORT "53"},
    {HW "req-cqe-flush-error", C, "events", "Requester completions flushed with error (32-bit, wrapping).", "rdmagw_rdma_port_req_cqe_flush_error_total", "device,port", 1.0, RG_RPORT "54"},
    {HW "resp-cqe-flush-error", C, "events", "Responder completions flushed with error (32-bit, wrapping).", "rdmagw_rdma_port_resp_cqe_flush_error_total", "device,port", 1.0, RG_RPORT "55"},
    {HW "req-remote-access-errors", C, "events", "Requester remote access errors (32-bit, wrapping).", "rdmagw_rdma_port_req_remote_access_errors_total", "device,port", 1.0, RG_RPORT "56"},
    {HW "resp-remote-access-errors", C, "events", "Responder remote access errors (32-bit, wrapping).", "rdmagw_rdma_port_resp_remote_access_errors_total", "device,port", 1.0, RG_RPORT "57"},
    {HW "req-remote-invalid-request", C, "events", "Requester remote invalid requests (32-bit, wrapping).", "rdmagw_rdma_port_req_remote_invalid_request_total", "device,port", 1.0, RG_RPORT "58"},
    {HW "resp-local-length-error", C, "events", "Responder local length errors (32-bit, wrapping).", "rdmagw_rdma_port_resp_local_length_error_total", "device,port", 1.0, RG_RPORT "59"},
    {HW "req-transport-retries-exceeded", C, "events", "Requester transport retries exceeded (32-bit, wrapping).", "rdmagw_rdma_port_req_transport_retries_exceeded_total", "device,port", 1.0, RG_RPORT "60"},
    {HW "rx-write-requests", C, "requests", "RDMA WRITE requests received (32-bit, wrapping).", "rdmagw_rdma_port_rx_write_requests_total", "device,port", 1.0, RG_RPORT "61"},
    {HW "rx-read-requests", C, "requests", "RDMA READ requests received (32-bit, wrapping).", "rdmagw_rdma_port_rx_read_requests_total", "device,port", 1.0, RG_RPORT "62"},
    {HW "rx-atomic-requests", C, "requests", "Atomic requests received (32-bit, wrapping).", "rdmagw_rdma_port_rx_atomic_requests_total", "device,port", 1.0, RG_RPORT "63"},
    {HW "rx-dct-connect", C, "requests", "DCT connect requests received (32-bit, wrapping).", "rdmagw_rdma_port_rx_dct_connect_total", "device,port", 1.0, RG_RPORT "64"},
    {HW "roce-adp-retrans", C, "events", "Adaptive retransmissions (32-bit, wrapping).", "rdmagw_rdma_port_roce_adp_retrans_total", "device,port", 1.0, RG_RPORT "65"},
    {HW "roce-adp-retrans-to", C, "events", "Adaptive retransmission timeouts (32-bit, wrapping).", "rdmagw_rdma_port_roce_adp_retrans_to_total", "device,port", 1.0, RG_RPORT "66"},
    {HW "roce-slow-restart", C, "events", "Slow restarts (32-bit, wrapping).", "rdmagw_rdma_port_roce_slow_restart_total", "device,port", 1.0, RG_RPORT "67"},
    {HW "roce-slow-restart-cnps", C, "packets", "CNPs sent at slow restart (32-bit, wrapping).", "rdmagw_rdma_port_roce_slow_restart_cnps_total", "device,port", 1.0, RG_RPORT "68"},
    {HW "roce-slow-restart-trans", C, "events", "Transitions to slow restart (32-bit, wrapping).", "rdmagw_rdma_port_roce_slow_restart_trans_total", "device,port", 1.0, RG_RPORT "69"},

    // --- rdmagw-qos: OpenConfig output-queue counters plus ECN marks ---
    {QUEUE "transmit-pkts", C, "packets", "Packets transmitted from the queue.", "rdmagw_qos_queue_transmit_packets_total", "interface,queue", 1.0, RG_QUEUE "2"},
    {QUEUE "transmit-octets", C, "bytes", "Octets transmitted from the queue.", "rdmagw_qos_queue_transmit_bytes_total", "interface,queue", 1.0, RG_QUEUE "3"},
    {QUEUE "dropped-pkts", C, "packets", "Packets the queue dropped (tail drop, WRED/AFD).", "rdmagw_qos_queue_dropped_packets_total", "interface,queue", 1.0, RG_QUEUE "4"},
    {QUEUE "dropped-octets", C, "bytes", "Octets the queue dropped (tail drop, WRED/AFD).", "rdmagw_qos_queue_dropped_bytes_total", "interface,queue", 1.0, RG_QUEUE "5"},
    {QUEUE "ecn-marked-pkts", C, "packets", "Packets the queue marked ECN CE instead of dropping (WRED/AFD with ECN).", "rdmagw_qos_queue_ecn_marked_packets_total", "interface,queue", 1.0, RG_QUEUE "6"},
    {QUEUE "ecn-marked-octets", C, "bytes", "Octets the queue marked ECN CE.", "rdmagw_qos_queue_ecn_marked_bytes_total", "interface,queue", 1.0, RG_QUEUE "7"},
    {QOS_IN "dropped-pkts", C, "packets", "Packets dropped at ingress of the port (NX-OS ingress statistics).", "rdmagw_qos_ingress_dropped_packets_total", "interface", 1.0, RG_IF "15"},

    // --- rdmagw-hypervisor-nic: ESXi vmnics (esxcli, vsish) ---
    {HNIC "driver", S, "", "Driver of the physical NIC.", "rdmagw_hypervisor_nic_driver_info", "nic", 1.0, RG_VMNIC "1"},
    {HNIC "link-state", S, "", "Link state of the physical NIC (Up, Down).", "rdmagw_hypervisor_nic_link_state_info", "nic", 1.0, RG_VMNIC "2 " IFT "8"},
    {HNIC "speed", G, "bits-per-second", "Link speed of the physical NIC.", "rdmagw_hypervisor_nic_speed_bytes_per_second", "nic", 0.125, IFT "5 " IFX "15"},
    {HNIC "admin-status", S, "", "Administrative state of the physical NIC (esxcli network nic list Admin Status: Up, Down).", "rdmagw_hypervisor_nic_admin_status_info", "nic", 1.0, IFT "7"},
    {HNIC "mtu", G, "bytes", "MTU of the physical NIC (esxcli network nic list MTU).", "rdmagw_hypervisor_nic_mtu_bytes", "nic", 1.0, IFT "4"},
    {HNIC "pfc-enabled-priorities", G, "", "Bitmap of the priorities with PFC enabled on the vmnic (esxcli network nic dcb status get: PFC Configuration; 0 when PFC Enabled is false).", "rdmagw_hypervisor_nic_pfc_enabled_priorities_bitmap", "nic", 1.0, RG_VMNIC "26"},
    {HNIC "dcbx-mode", S, "", "DCBX mode of the vmnic: IEEE or CEE (esxcli network nic dcb status get), else as esxcli prints it.", "rdmagw_hypervisor_nic_dcbx_mode_info", "nic", 1.0, RG_VMNIC "27"},
    {HNIC_CTR "packets-received", C, "packets", "Packets received.", "rdmagw_hypervisor_nic_received_packets_total", "nic", 1.0, RG_VMNIC "3"},
    {HNIC_CTR "packets-sent", C, "packets", "Packets sent.", "rdmagw_hypervisor_nic_sent_packets_total", "nic", 1.0, RG_VMNIC "4"},
    {HNIC_CTR "bytes-received", C, "bytes", "Bytes received.", "rdmagw_hypervisor_nic_received_bytes_total", "nic", 1.0, RG_VMNIC "5 " IFX "6 " IFT "10"},
    {HNIC_CTR "bytes-sent", C, "bytes", "Bytes sent.", "rdmagw_hypervisor_nic_sent_bytes_total", "nic", 1.0, RG_VMNIC "6 " IFX "10 " IFT "16"},
    {HNIC_CTR "receive-packets-dropped", C, "packets", "Received packets dropped.", "rdmagw_hypervisor_nic_receive_dropped_packets_total", "nic", 1.0, RG_VMNIC "7 " IFT "13"},
    {HNIC_CTR "transmit-packets-dropped", C, "packets", "Transmit packets dropped.", "rdmagw_hypervisor_nic_transmit_dropped_packets_total", "nic", 1.0, RG_VMNIC "8 " IFT "19"},
    {HNIC_CTR "multicast-packets-received", C, "packets", "Multicast packets received.", "rdmagw_hypervisor_nic_received_multicast_packets_total", "nic", 1.0, RG_VMNIC "9 " IFX "8 " IFX "2"},
    {HNIC_CTR "broadcast-packets-received", C, "packets", "Broadcast packets received.", "rdmagw_hypervisor_nic_received_broadcast_packets_total", "nic", 1.0, RG_VMNIC "10 " IFX "9 " IFX "3"},
    {HNIC_CTR "multicast-packets-sent", C, "packets", "Multicast packets sent.", "rdmagw_hypervisor_nic_sent_multicast_packets_total", "nic", 1.0, RG_VMNIC "11 " IFX "12 " IFX "4"},
    {HNIC_CTR "broadcast-packets-sent", C, "packets", "Broadcast packets sent.", "rdmagw_hypervisor_nic_sent_broadcast_packets_total", "nic", 1.0, RG_VMNIC "12 " IFX "13 " IFX "5"},
    {HNIC_CTR "total-receive-errors", C, "packets", "Receive errors, all kinds.", "rdmagw_hypervisor_nic_receive_errors_total", "nic", 1.0, RG_VMNIC "13 " IFT "14"},
    {HNIC_CTR "receive-length-errors", C, "packets", "Receive length errors.", "rdmagw_hypervisor_nic_receive_length_errors_total", "nic", 1.0, RG_VMNIC "14"},
    {HNIC_CTR "receive-over-errors", C, "packets", "Receive overrun errors.", "rdmagw_hypervisor_nic_receive_over_errors_total", "nic", 1.0, RG_VMNIC "15"},
    {HNIC_CTR "receive-crc-errors", C, "packets", "Receive CRC errors.", "rdmagw_hypervisor_nic_receive_crc_errors_total", "nic", 1.0, RG_VMNIC "16"},
    {HNIC_CTR "receive-frame-errors", C, "packets", "Receive frame errors.", "rdmagw_hypervisor_nic_receive_frame_errors_total", "nic", 1.0, RG_VMNIC "17"},
    {HNIC_CTR "receive-fifo-errors", C, "packets", "Receive FIFO errors.", "rdmagw_hypervisor_nic_receive_fifo_errors_total", "nic", 1.0, RG_VMNIC "18"},
    {HNIC_CTR "receive-missed-errors", C, "packets", "Receive missed errors.", "rdmagw_hypervisor_nic_receive_missed_errors_total", "nic", 1.0, RG_VMNIC "19"},
    {HNIC_CTR "total-transmit-errors", C, "packets", "Transmit errors, all kinds.", "rdmagw_hypervisor_nic_transmit_errors_total", "nic", 1.0, RG_VMNIC "20 " IFT "20"},
    {HNIC_CTR "transmit-aborted-errors", C, "packets", "Transmit aborted errors.", "rdmagw_hypervisor_nic_transmit_aborted_errors_total", "nic", 1.0, RG_VMNIC "21"},
    {HNIC_CTR "transmit-carrier-errors", C, "packets", "Transmit carrier errors.", "rdmagw_hypervisor_nic_transmit_carrier_errors_total", "nic", 1.0, RG_VMNIC "22"},
    {HNIC_CTR "transmit-fifo-errors", C, "packets", "Transmit FIFO errors.", "rdmagw_hypervisor_nic_transmit_fifo_errors_total", "nic", 1.0, RG_VMNIC "23"},
    {HNIC_CTR "transmit-heartbeat-errors", C, "packets", "Transmit heartbeat errors.", "rdmagw_hypervisor_nic_transmit_heartbeat_errors_total", "nic", 1.0, RG_VMNIC "24"},
    {HNIC_CTR "transmit-window-errors", C, "packets", "Transmit window errors.", "rdmagw_hypervisor_nic_transmit_window_errors_total", "nic", 1.0, RG_VMNIC "25"},
    {HNIC_PAUSE "rx-pause-ctrl-phy", C, "frames", "MAC control pause frames received (nmlx5 rxPauseCtrlPhy).", "rdmagw_hypervisor_nic_rx_pause_ctrl_frames_total", "nic", 1.0, RG_IF "3"},
    {HNIC_PAUSE "tx-pause-ctrl-phy", C, "frames", "MAC control pause frames sent (nmlx5 txPauseCtrlPhy).", "rdmagw_hypervisor_nic_tx_pause_ctrl_frames_total", "nic", 1.0, RG_IF "4"},
    {HNIC_PAUSE "rx-global-pause", C, "frames", "802.3x pause frames received.", "rdmagw_hypervisor_nic_rx_global_pause_frames_total", "nic", 1.0, DOT3P "5 " DOT3P "3"},
    {HNIC_PAUSE "tx-global-pause", C, "frames", "802.3x pause frames sent.", "rdmagw_hypervisor_nic_tx_global_pause_frames_total", "nic", 1.0, DOT3P "6 " DOT3P "4"},
    {HNIC_PAUSE "rx-global-pause-duration", C, "microseconds", "Time paused by received 802.3x pause.", "rdmagw_hypervisor_nic_rx_global_pause_duration_seconds_total", "nic", 1e-6, RG_IF "5"},
    {HNIC_PAUSE "tx-global-pause-duration", C, "microseconds", "Time the NIC paused its peer with 802.3x pause.", "rdmagw_hypervisor_nic_tx_global_pause_duration_seconds_total", "nic", 1e-6, RG_IF "6"},
    {HNIC_PAUSE "rx-global-pause-transition", C, "events", "Transitions to paused by received 802.3x pause.", "rdmagw_hypervisor_nic_rx_global_pause_transitions_total", "nic", 1.0, RG_IF "7"},
    {HNIC_PAUSE "tx-pause-storm-warning-events", C, "events", "Pause storm warnings.", "rdmagw_hypervisor_nic_pause_storm_warning_events_total", "nic", 1.0, RG_IF "8"},
    {HNIC_PAUSE "tx-pause-storm-error-events", C, "events", "Pause storm errors.", "rdmagw_hypervisor_nic_pause_storm_error_events_total", "nic", 1.0, RG_IF "9"},
    {HNIC_PRIO "rx-pause", C, "frames", "PFC pause frames received for this priority.", "rdmagw_hypervisor_nic_pfc_rx_pause_frames_total", "nic,priority", 1.0, RG_PRIO "2 " CPFCP "3"},
    {HNIC_PRIO "tx-pause", C, "frames", "PFC pause frames sent for this priority.", "rdmagw_hypervisor_nic_pfc_tx_pause_frames_total", "nic,priority", 1.0, RG_PRIO "3 " CPFCP "2"},
    {HNIC_PRIO "rx-pause-duration", C, "microseconds", "Time this priority was paused by received PFC.", "rdmagw_hypervisor_nic_pfc_rx_pause_duration_seconds_total", "nic,priority", 1e-6, RG_PRIO "4"},
    {HNIC_PRIO "tx-pause-duration", C, "microseconds", "Time this priority paused its peer.", "rdmagw_hypervisor_nic_pfc_tx_pause_duration_seconds_total", "nic,priority", 1e-6, RG_PRIO "5"},
    {HNIC_PRIO "rx-pause-transition", C, "events", "Transitions of this priority to paused.", "rdmagw_hypervisor_nic_pfc_rx_pause_transitions_total", "nic,priority", 1.0, RG_PRIO "6"},

    // --- rdmagw-lldp: OpenConfig LLDP neighbours (NX-OS CLI and gNMI, lldpctl); analytics/ reads them as links ---
    {LLDP_NBR "system-name", S, "", "System name the LLDP neighbour on this port advertises (a hostname, often with its domain).", "rdmagw_lldp_neighbor_system_name_info", "interface,neighbor"},
    {LLDP_NBR "port-id", S, "", "Port ID the LLDP neighbour advertises: an interface name, or a MAC address (lldpd on Linux), see port-id-type.", "rdmagw_lldp_neighbor_port_id_info", "interface,neighbor"},
    {LLDP_NBR "port-id-type", S, "", "What the neighbour's port ID is, as OpenConfig's PortIdType names it: INTERFACE_NAME, MAC_ADDRESS, LOCAL, INTERFACE_ALIAS, PORT_COMPONENT, NETWORK_ADDRESS, AGENT_CIRCUIT_ID (each source's wording mapped to these).", "rdmagw_lldp_neighbor_port_id_type_info", "interface,neighbor"},
    {LLDP_NBR "chassis-id", S, "", "Chassis ID the LLDP neighbour advertises (usually a MAC address).", "rdmagw_lldp_neighbor_chassis_id_info", "interface,neighbor"},
    {LLDP_NBR "port-description", S, "", "Port description the LLDP neighbour advertises (lldpd: the interface name when the port ID is a MAC).", "rdmagw_lldp_neighbor_port_description_info", "interface,neighbor"},
    // --- rdmagw-fabric: derived by analytics/ (rates over the configured window) ---
    // Verdicts come twice: a string (gNMI, the _info family) and a code whose
    // numbers are fixed (alert rules compare them; analytics/*.h lists them).
    // No SNMP OIDs yet: RDMAGW-MIB gains them with the verdict notifications.
    {FAB_DCQCN "verdict", S, "", "DCQCN chain of this RDMA port over the window: idle, working, marks-no-cnp (CE marks received but no CNP sent: the receiver's notification point is off), cnp-not-handled (CNPs sent and no sender handled any: the senders' reaction point is off or CNPs are lost), cnp-ignored (this port ignores the CNPs it receives, rp_cnp_ignored rising: its reaction point is off).", "rdmagw_fabric_dcqcn_verdict_info", "device,port", 1.0, RG_FDCQCN "2"},
    {FAB_DCQCN "verdict-code", G, "", "DCQCN chain verdict as a number: 0 idle, 1 working, 2 marks-no-cnp, 3 cnp-not-handled, 4 cnp-ignored.", "rdmagw_fabric_dcqcn_verdict_code", "device,port", 1.0, RG_FDCQCN "1"},
    {FAB_DCQCN "switch-ecn-marked-rate", G, "packets-per-second", "ECN CE marks per second the linked switch port's egress queues applied toward this host.", "rdmagw_fabric_dcqcn_switch_ecn_marked_packets_per_second", "device,port"},
    {FAB_DCQCN "ecn-marked-rate", G, "packets-per-second", "RoCE packets per second received with CE marks (np_ecn_marked_roce_packets).", "rdmagw_fabric_dcqcn_ecn_marked_packets_per_second", "device,port"},
    {FAB_DCQCN "cnp-sent-rate", G, "packets-per-second", "CNPs per second this port sent as a receiver (np_cnp_sent).", "rdmagw_fabric_dcqcn_cnp_sent_packets_per_second", "device,port"},
    {FAB_DCQCN "cnp-handled-rate", G, "packets-per-second", "CNPs per second this port handled as a sender (rp_cnp_handled).", "rdmagw_fabric_dcqcn_cnp_handled_packets_per_second", "device,port"},
    {FAB_DCQCN "cnp-ignored-rate", G, "packets-per-second", "CNPs per second this port received and ignored as a sender (rp_cnp_ignored).", "rdmagw_fabric_dcqcn_cnp_ignored_packets_per_second", "device,port"},
    {FAB_DCQCN "peers-cnp-handled-rate", G, "packets-per-second", "CNPs per second handled by every other RDMA port the gateway sees (the possible senders).", "rdmagw_fabric_dcqcn_peers_cnp_handled_packets_per_second", "device,port"},
    {FAB_LINK "peer-target", S, "", "Target at the other end of this port's cable.", "rdmagw_fabric_link_peer_target_info", "interface"},
    {FAB_LINK "peer-interface", S, "", "Port at the other end of this port's cable (interface, netdev or vmnic).", "rdmagw_fabric_link_peer_interface_info", "interface"},
    {FAB_LINK "source", S, "", "Where the link is known from: lldp (learned from the LLDP neighbours of either end), or static (the config's analytics.links, which override LLDP for their ports).", "rdmagw_fabric_link_source_info", "interface"},
    {FAB_LINK "last-seen", G, "seconds", "Unix time the LLDP neighbour leaf behind this link was last collected (the newer of the two ends). Absent for static links.", "rdmagw_fabric_link_last_seen_timestamp_seconds", "interface"},
    {FAB_PRIO "out-pause-rate", G, "frames-per-second", "PFC pause frames per second this port sent on the priority.", "rdmagw_fabric_pfc_out_pause_frames_per_second", "interface,priority"},
    {FAB_PRIO "peer-in-pause-rate", G, "frames-per-second", "PFC pause frames per second the linked peer port received on the priority.", "rdmagw_fabric_pfc_peer_in_pause_frames_per_second", "interface,priority"},
    {FAB_PRIO "pause-balance", S, "", "Pause frames this port sent against those its peer received, within 25%: idle, balanced, unbalanced (pause lost, or the peer does not count it on this priority).", "rdmagw_fabric_pfc_pause_balance_info", "interface,priority"},
    {FAB_PRIO "pause-balance-code", G, "", "Pause balance as a number: 0 idle, 1 balanced, 2 unbalanced.", "rdmagw_fabric_pfc_pause_balance_code", "interface,priority", 1.0, RG_FPRIO "1"},
    {FAB_PRIO "paused-ratio", G, "ratio", "Fraction of the window the priority was paused by received PFC (from this port's pause duration received, else its peer's pause duration sent).", "rdmagw_fabric_pfc_paused_ratio", "interface,priority"},
    {FAB_PRIO "peer-paused-ratio", G, "ratio", "Fraction of the window this port held its peer paused on the priority (from its own pause duration sent, else the peer's pause duration received).", "rdmagw_fabric_pfc_peer_paused_ratio", "interface,priority"},
    {FAB_PRIO "pause-storm", G, "", "1 when this port storms its peer with pause on the priority: its NIC counted pause storm events in the window, or it held the peer paused above analytics.pause_storm.paused_percent of the window for analytics.pause_storm.for.", "rdmagw_fabric_pfc_pause_storm_alarm", "interface,priority", 1.0, RG_FPRIO "2"},
    {FAB_PRIO "lossless-drop-rate", G, "packets-per-second", "Packets per second dropped on a lossless (PFC) priority: host receive discards, switch queue drops of its qos-group.", "rdmagw_fabric_pfc_lossless_drop_packets_per_second", "interface,priority"},
    {FAB_PRIO "lossless-drop-alarm", G, "", "1 when a lossless priority dropped packets in the window: the fabric is not lossless.", "rdmagw_fabric_pfc_lossless_drop_alarm", "interface,priority", 1.0, RG_FPRIO "3"},
    {FAB_PRIO "pause-tree-state", S, "", "Place in a pause tree on the priority: clear, victim (paused, or pausing because paused downstream), root (pausing while nothing downstream pauses it: congestion starts here).", "rdmagw_fabric_pause_tree_state_info", "interface,priority"},
    {FAB_PRIO "pause-tree-state-code", G, "", "Pause tree state as a number: 0 clear, 1 victim, 2 root.", "rdmagw_fabric_pause_tree_state_code", "interface,priority", 1.0, RG_FPRIO "4"},
    {FAB_PRIO "pause-tree-size", G, "ports", "Ports in the pause tree this port belongs to (0 when clear).", "rdmagw_fabric_pause_tree_size_ports", "interface,priority", 1.0, RG_FPRIO "5"},
    {FAB_DCB "consistency", S, "", "DCB configuration of this port against the other end of its cable: consistent, or mismatch (PFC priorities or MTU differ, or a host NIC has DCQCN NP or RP off on a lossless priority: mismatches says which). Absent while either end's PFC configuration is not collected.", "rdmagw_fabric_dcb_consistency_info", "interface", 1.0, RG_FDCB "2"},
    {FAB_DCB "consistency-code", G, "", "DCB consistency as a number: 0 consistent, 1 mismatch.", "rdmagw_fabric_dcb_consistency_code", "interface", 1.0, RG_FDCB "1"},
    {FAB_DCB "mismatches", S, "", "Each inconsistent item with both ends' values, '; ' separated (e.g. pfc priorities: leaf01:Ethernet1/3 {3} vs host01:ens1f0np0 {}); empty when consistent.", "rdmagw_fabric_dcb_mismatches_info", "interface", 1.0, RG_FDCB "3"},
    {FAB_DCB "pfc-priorities", S, "", "PFC-enabled priorities at this port, comma separated (empty: none).", "rdmagw_fabric_dcb_pfc_priorities_info", "interface", 1.0, RG_FDCB "4"},
    {FAB_DCB "peer-pfc-priorities", S, "", "PFC-enabled priorities at the other end of the cable, comma separated (empty: none).", "rdmagw_fabric_dcb_peer_pfc_priorities_info", "interface", 1.0, RG_FDCB "5"},
    {FAB_DCB "mtu", G, "bytes", "MTU of this port as compared (absent when not collected).", "rdmagw_fabric_dcb_mtu_bytes", "interface", 1.0, RG_FDCB "6"},
    {FAB_DCB "peer-mtu", G, "bytes", "MTU of the other end of the cable (absent when not collected).", "rdmagw_fabric_dcb_peer_mtu_bytes", "interface", 1.0, RG_FDCB "7"},
    {FAB_DCB "trust", S, "", "Trust mode of this port as compared: dscp or pcp (absent when not collected).", "rdmagw_fabric_dcb_trust_info", "interface", 1.0, RG_FDCB "8"},
    {FAB_DCB "peer-trust", S, "", "Trust mode of the other end of the cable: dscp or pcp (absent when not collected).", "rdmagw_fabric_dcb_peer_trust_info", "interface", 1.0, RG_FDCB "9"},
    {FAB_PRIO "pause-tree-roots", S, "", "Root ports (target:interface, comma separated) of the pause tree this port belongs to.", "rdmagw_fabric_pause_tree_roots_info", "interface,priority", 1.0, RG_FPRIO "6"},
};

const GatewayMetric kGateway[] = {
    {"target_up", G, "1 when the target's last collection succeeded; 0 while it is down (never removed).", "rdmagw_target_up", "target"},
    {"target_info", G, "Target kind and the transport in use, as labels (value always 1).", "rdmagw_target_info", "target,kind,transport"},
    {"poll_duration", G, "Duration of the target's last collection.", "rdmagw_target_poll_duration_seconds", "target"},
    {"polls", C, "Collections attempted for the target.", "rdmagw_target_polls_total", "target"},
    {"poll_errors", C, "Collections of the target that failed as a whole.", "rdmagw_target_poll_errors_total", "target"},
    {"read_errors", C, "Parts (files, devices) a collection could not read while the rest succeeded.", "rdmagw_target_read_errors_total", "target"},
    {"last_success", G, "Unix time of the target's last successful collection.", "rdmagw_target_last_success_timestamp_seconds", "target"},
    {"series", G, "Leaves the store holds for the target.", "rdmagw_target_series", "target"},
    {"counter_resets", C, "Counter resets (device reboot, driver reload, clear) detected on the target.", "rdmagw_target_value_resets_total", "target"},
    {"rejected_updates", C, "Updates the store refused (malformed path, key count not matching the schema).", "rdmagw_target_rejected_updates_total", "target"},
    {"ingest_lag", C, "Updates written into the store at most max_seconds after their collection timestamp (cumulative buckets).", "rdmagw_ingest_lag_updates_total", "max_seconds"},
    {"scrape_duration", G, "Time taken to build the previous /metrics exposition.", "rdmagw_exposition_duration_seconds", ""},
    {"scrape_cpu", G, "CPU time the previous /metrics exposition took on its thread; well below rdmagw_exposition_duration_seconds means the gateway waited for a CPU (a busy machine), not that building is slow.", "rdmagw_exposition_cpu_seconds", ""},
    {"exposition_time", G, "Unix time this /metrics exposition was built: the scrape's own time, or up to northbound.prometheus.refresh_period earlier when a prebuilt one is served (timestamp(m) - m is its age at the scrape).", "rdmagw_exposition_timestamp_seconds", ""},

    // --- gNMI northbound (reported through models/self_metrics.h) ---
    {"gnmi_subscribers", G, "Open gNMI Subscribe streams, by SubscriptionList mode (once, poll, stream).", "rdmagw_gnmi_subscribers", "mode"},
    {"gnmi_notifications_sent", C, "gNMI notifications sent to subscribers.", "rdmagw_gnmi_notifications_sent_total", ""},
    {"gnmi_updates_sent", C, "gNMI updates and deletes sent to subscribers.", "rdmagw_gnmi_updates_sent_total", ""},
    {"gnmi_updates_coalesced", C, "Pending gNMI updates replaced by a newer value of the same leaf before a slow subscriber read them.", "rdmagw_gnmi_updates_coalesced_total", ""},
    {"gnmi_updates_dropped", C, "gNMI updates of a new leaf dropped because the subscriber's queue was full.", "rdmagw_gnmi_updates_dropped_total", ""},
    {"gnmi_change_send_lag", C, "ON_CHANGE updates and deletes written to a subscriber's stream at most max_seconds after the store applied the change (cumulative buckets; the gateway's own delay, not the network's or the client's).", "rdmagw_gnmi_change_send_lag_updates_total", "max_seconds"},
    {"gnmi_errors", C, "gNMI calls that ended with an error, by RPC and gRPC status code.", "rdmagw_gnmi_errors_total", "rpc,code"},

    // --- SNMP notifications of verdict changes (northbound/snmp/notification_sender.h) ---
    {"snmp_notifications_sent", C, "SNMP notifications sent, by destination (host:port) and type: traps handed to the network, informs acknowledged.", "rdmagw_snmp_notifications_sent_total", "destination,type"},
    {"snmp_notifications_failed", C, "SNMP notifications that did not reach a destination: session not open, send error, inform not acknowledged after its retries.", "rdmagw_snmp_notifications_failed_total", "destination,type"},
    {"snmp_notifications_dropped", C, "SNMP notifications dropped before sending because the notification queue was full.", "rdmagw_snmp_notifications_dropped_total", "type"},
    {"snmp_notifications_in_flight", G, "SNMP informs sent and not yet acknowledged or failed.", "rdmagw_snmp_notifications_in_flight", ""},

    // --- gNMI southbound, per streaming target: notifications the device sent
    // = received; leaves queued = applied + coalesced + dropped ---
    {"gnmi_source_notifications_received", C, "gNMI notifications with data received from the target's stream.", "rdmagw_gnmi_source_notifications_received_total", "target"},
    {"gnmi_source_leaves_queued", C, "Leaves the target's stream mapped and queued for the store.", "rdmagw_gnmi_source_leaves_queued_total", "target"},
    {"gnmi_source_leaves_applied", C, "Queued leaves the store applied for the target.", "rdmagw_gnmi_source_leaves_applied_total", "target"},
    {"gnmi_source_leaves_coalesced", C, "Queued leaves replaced by a newer reading of the same leaf before the store took them (not lost).", "rdmagw_gnmi_source_leaves_coalesced_total", "target"},
    {"gnmi_source_leaves_dropped", C, "Leaves of the target's stream dropped because its queue was full (lost readings).", "rdmagw_gnmi_source_leaves_dropped_total", "target"},
};

}  // namespace

struct SchemaTable::Index {
  std::unordered_map<std::string_view, const LeafSchema*> by_path;
  std::unordered_map<std::string_view, const GatewayMetric*> gateway_by_id;
};

SchemaTable::SchemaTable() : leaves_(kLeaves), gateway_(kGateway) {
  auto* index = new Index();  // lives as long as the process, like the table
  for (const LeafSchema& row : leaves_) index->by_path.emplace(row.path, &row);
  for (const GatewayMetric& m : gateway_) index->gateway_by_id.emplace(m.id, &m);
  index_ = index;
}

const SchemaTable& SchemaTable::instance() {
  static const SchemaTable table;
  return table;
}

const LeafSchema* SchemaTable::find(std::string_view keyless_path) const {
  auto it = index_->by_path.find(keyless_path);
  return it == index_->by_path.end() ? nullptr : it->second;
}

const GatewayMetric& SchemaTable::gateway(std::string_view id) const {
  auto it = index_->gateway_by_id.find(id);
  if (it == index_->gateway_by_id.end()) {
    std::fprintf(stderr, "rdmagw: unknown gateway metric id '%.*s'\n", int(id.size()), id.data());
    std::abort();
  }
  return *it->second;
}

std::vector<std::string_view> SchemaTable::splitLabels(std::string_view labels) {
  std::vector<std::string_view> out;
  while (!labels.empty()) {
    size_t comma = labels.find(',');
    out.push_back(labels.substr(0, comma));
    if (comma == std::string_view::npos) break;
    labels.remove_prefix(comma + 1);
  }
  return out;
}

}  // namespace rdmagw
