#pragma once
// One device's RoCE configuration, as the southbound parsers read it from a
// Linux host (iproute2 `dcb`, `mlnx_qos`, sysfs ECN knobs, configfs RDMA CM),
// an ESXi host (`esxcli network nic dcb status get`) or an NX-OS switch
// (`show running-config ipqos`, `show queuing pfc-queue ... detail`). Plain
// values, no store paths: a checker compares hosts and switches without
// knowing which command each field came from, and several parsers fill the
// same struct (each leaves what it does not read untouched).
//
// Every field is optional (or an empty container): a device that does not
// say is unknown, never a default. Priorities and traffic classes are 0..7,
// DSCPs 0..63; a bitmap has bit N for priority N.
//
// Longer than a header should be because the plain structs of all three device
// kinds sit together, so that a checker comparing a host with its switch reads
// one file.

#include <array>
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

namespace rdmagw::roce {

inline constexpr int kPriorities = 8;
inline constexpr int kMaxDscp = 63;

// What the NIC classifies received traffic by.
enum class Trust { kPcp, kDscp };
// IEEE 802.1Qaz transmission selection of a traffic class.
enum class Tsa { kStrict, kCbs, kEts, kVendor };

const char* trustName(Trust t);
const char* tsaName(Tsa t);

struct TrafficClass {
  std::optional<Tsa> tsa;
  std::optional<uint32_t> bandwidth_percent;  // ETS share; meaningful for kEts
};

// The DCQCN and CNP knobs of an mlx5 netdev (ecn/roce_np, ecn/roce_rp).
struct Dcqcn {
  std::optional<uint8_t> np_enabled;  // bitmap: notification point per priority
  std::optional<uint8_t> rp_enabled;  // bitmap: reaction point per priority
  std::optional<uint32_t> cnp_dscp;
  std::optional<uint32_t> cnp_802p_prio;
};

// One host NIC port (a Linux netdev or an ESXi vmnic).
struct HostPort {
  std::string name;
  std::optional<Trust> trust;
  std::optional<std::string> dcbx_mode;         // "IEEE", "CEE", "OS controlled", ...
  std::map<uint32_t, uint32_t> dscp_priority;   // DSCP -> priority; only DSCPs with a rule
  std::optional<uint8_t> pfc_enabled;           // bitmap
  std::array<std::optional<uint32_t>, kPriorities> priority_tc{};
  std::array<TrafficClass, kPriorities> tc{};
  // Receive buffers: which buffer a priority lands in, and each buffer's size.
  std::array<std::optional<uint32_t>, kPriorities> priority_buffer{};
  std::array<std::optional<uint64_t>, kPriorities> buffer_bytes{};
  std::optional<uint64_t> total_buffer_bytes;
  Dcqcn dcqcn;
  // The tables this reading holds whole, so that a row the device no longer
  // has can be deleted rather than kept at its old value (roce_leaves.h).
  bool read_dscp_map = false;  // dscp_priority (dcb app, mlnx_qos dscp2prio)
  bool read_ets = false;       // priority_tc and tc (dcb ets, mlnx_qos tc:, esxcli TSA)
  bool read_buffers = false;   // priority_buffer and buffer_bytes
};

// RDMA CM defaults of one RDMA device port (configfs rdma_cm).
struct RdmaCmPort {
  std::string device;  // "mlx5_0"
  uint32_t port = 0;
  std::optional<uint32_t> default_roce_tos;    // ToS byte: DSCP << 2 | ECN
  std::optional<std::string> default_roce_mode;  // "RoCE v2", "IB/RoCE v1"
};

// ----- NX-OS -----

// class-map type qos|network-qos|queuing
struct ClassMap {
  std::string type;              // "qos", "network-qos", "queuing"
  std::string match_mode;        // "match-all", "match-any" (or empty)
  std::vector<uint32_t> dscp;    // match dscp ...
  std::vector<uint32_t> cos;     // match cos ...
  std::vector<uint32_t> qos_group;  // match qos-group ... (network-qos, queuing)
};

// random-detect on an egress queue.
struct Wred {
  std::optional<uint64_t> min_threshold;
  std::optional<uint64_t> max_threshold;
  std::string unit;              // "kbytes", "bytes", "mbytes", "packets" as written
  std::string profile;           // "threshold burst-optimized" etc. when no explicit thresholds
  std::optional<uint32_t> drop_probability;
  std::optional<uint32_t> weight;
  bool ecn = false;
};

// Ingress no-drop pause thresholds (bytes).
struct PauseThresholds {
  std::optional<uint64_t> buffer_size;
  std::optional<uint64_t> pause_threshold;
  std::optional<uint64_t> resume_threshold;
};

// One `class ...` inside a policy-map; which fields apply depends on the type.
struct PolicyClass {
  std::string name;
  std::optional<uint32_t> set_qos_group;           // type qos
  std::optional<uint8_t> pause_pfc_cos;            // type network-qos: bitmap
  std::optional<uint32_t> mtu;                     // type network-qos
  std::optional<uint32_t> bandwidth_remaining_percent;  // type queuing
  std::optional<uint32_t> bandwidth_percent;       // type queuing (older form)
  std::optional<uint32_t> priority_level;          // type queuing: strict priority, 1 = highest
  std::optional<Wred> wred;                        // type queuing (egress)
  std::optional<PauseThresholds> pause;            // type queuing (ingress) or network-qos
};

struct PolicyMap {
  std::string type;                   // "qos", "network-qos", "queuing"
  std::vector<PolicyClass> classes;   // in configuration order
  const PolicyClass* find(const std::string& cls) const;
};

// Where policies are attached: `system qos` or an interface.
struct ServicePolicies {
  std::optional<std::string> qos_input;
  std::optional<std::string> queuing_input;
  std::optional<std::string> queuing_output;
  std::optional<std::string> network_qos;  // system qos only
};

struct SwitchInterface {
  ServicePolicies policies;
  std::optional<std::string> pfc_mode;     // "on", "off", "auto"
  std::optional<std::string> watchdog_interval;  // "on", "off" or a value as written
};

// One qos-group's PFC watchdog on a port (`show queuing pfc-queue ... detail`).
struct PfcWatchdogQueue {
  uint32_t qos_group = 0;
  std::string state;                  // "Shutdown", "Ok", ... as printed
  std::optional<bool> pfc;
  std::optional<uint32_t> pfc_cos;
  std::map<std::string, uint64_t> stats;  // "Shutdown", "Restored", "Total pkts drained", ...
};

struct PfcWatchdogPort {
  std::optional<bool> enabled;
  std::optional<std::string> disable_action;
  std::optional<uint64_t> interface_multiplier;
  std::vector<PfcWatchdogQueue> queues;
};

struct SwitchQos {
  std::map<std::string, ClassMap> class_maps;
  std::map<std::string, PolicyMap> policy_maps;
  ServicePolicies system;
  std::map<std::string, SwitchInterface> interfaces;  // long names: "Ethernet1/51"
  std::optional<std::string> global_watchdog_interval;  // "on"/"off"/value
  bool forward_nonecn = false;  // congestion-control random-detect forward-nonecn
  std::map<std::string, PfcWatchdogPort> watchdog;     // by interface
  std::optional<bool> watchdog_global_enabled;          // pfc-queue JSON glb-wd-status
};

// A whole device: a host's ports and RDMA CM defaults, or a switch.
struct DeviceRoceConfig {
  std::map<std::string, HostPort> ports;
  std::vector<RdmaCmPort> rdma_cm;
  std::optional<SwitchQos> switch_qos;

  HostPort& port(const std::string& name) {
    HostPort& p = ports[name];
    p.name = name;
    return p;
  }
};

}  // namespace rdmagw::roce
