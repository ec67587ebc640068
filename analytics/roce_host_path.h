#pragma once
// One host port's RoCE path, for the RoCE check (roce_checks.h): its RoCE
// DSCP and priority, and where that DSCP goes on the switch at the other
// end of its cable. The host checks (roce_host_checks.cc) and the switch
// checks (roce_switch_checks.cc) both start from it.

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "analytics/roce_checks.h"
#include "analytics/roce_inventory.h"
#include "analytics/run_context.h"

namespace rdmagw::analytics::roce_check {

template <typename M, typename K>
auto find(const M& m, const K& k) -> std::optional<typename M::mapped_type> {
  auto it = m.find(k);
  if (it == m.end()) return std::nullopt;
  return it->second;
}

inline uint64_t bit(int p) { return uint64_t{1} << p; }
std::optional<int> lowestBit(uint64_t bitmap);
// "{3,4}", or "none".
std::string bits(uint64_t bitmap);
bool isSwitch(const RunContext& ctx, const std::string& target);
// The qos-group a DSCP enters on a switch: its dscp-map row, else class-default.
int groupOf(const SwitchRoceConfig& sw, int dscp);
// "qos-group 3 (queue c-out-8q-q3) bandwidth 50 %", for findings.
std::string queueText(const SwitchRoceConfig& sw, int group);

// One host port and the way its RoCE traffic takes.
struct HostPath {
  PortRef host;
  const HostRoceConfig* cfg = nullptr;  // null: none of the RoCE-only leaves collected
  std::optional<std::string> trust;
  std::optional<uint64_t> pfc;
  std::optional<int> dscp;           // the RoCE DSCP
  std::optional<int> host_priority;  // the host's own DSCP->priority rule for it
  std::optional<int> switch_priority;  // the CoS the switch pauses for its qos-group
  std::optional<int> priority;       // the RoCE priority, host's first
  std::optional<PortRef> sw_port;    // the switch port at the other end of the cable
  const SwitchRoceConfig* sw = nullptr;
  // The RoCE traffic's qos-group on the switch: its DSCP's, else (a host
  // that says no DSCP, as ESXi) the group whose CoS is the host's PFC priority.
  std::optional<int> group;
};

// Every host port with RoCE or DCB configuration, paired with its switch.
std::vector<HostPath> hostPaths(const RunContext& ctx);

// The items of one host port, in every group (roce_host_checks.cc); the
// MTU of its switch port is judged here too, against the host's.
void checkHostPort(const RunContext& ctx, const HostPath& h, CheckResults& r);

}  // namespace rdmagw::analytics::roce_check
