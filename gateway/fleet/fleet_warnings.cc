#include "gateway/fleet/fleet_warnings.h"

namespace rdmagw::gateway {

std::vector<std::string> fleetWarnings(const GatewayConfig& cfg) {
  std::vector<std::string> out;
  if (!cfg.cluster.enabled) return out;
  const auto& advertised = cfg.cluster.membership.addresses;
  // An AgentX subagent has no listen address of its own to fall back on:
  // only the operator knows where this member's snmpd answers.
  if (cfg.snmp_enabled && !advertised.count("snmp")) {
    out.push_back(
        "northbound.snmp without cluster.advertise.snmp: the other members' rdmagwFleetTargetTable rows for this "
        "member's targets name no SNMP address, so an NMS cannot find where they are served");
  }
  if (cfg.snmp_enabled && cfg.snmp.if_index == northbound::snmp::IfIndexScheme::kSequential) {
    out.push_back(
        "northbound.snmp.if_index: sequential in a fleet: a target that moves to another member is served under "
        "that member's own ifIndex numbers, and an NMS keyed on ifIndex sees its interfaces renumbered (derived "
        "keeps them)");
  }
  if (cfg.analytics_enabled && !cfg.gnmi_enabled) {
    out.push_back(
        "analytics without northbound.gnmi: this member cannot copy the other members' targets, so links and pause "
        "trees crossing into them are not judged");
  }
  // The copy of the other members' targets subscribes without credentials.
  if (cfg.analytics_enabled && cfg.gnmi_enabled && (!cfg.gnmi.users_file.empty() || !cfg.gnmi.users_env.empty())) {
    out.push_back(
        "analytics with gNMI users: members copy each other's targets over gNMI without credentials and are refused, "
        "so links and pause trees crossing members are not judged");
  }
  return out;
}

}  // namespace rdmagw::gateway
