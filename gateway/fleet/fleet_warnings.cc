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
  // Without a member identity the others cannot tell a member's calls
  // from a client's: the copy of their targets is refused by their users,
  // and forwarded streams count against the forwarding member.
  const bool identity =
      !cfg.cluster.member_secret_file.empty() || (!cfg.gnmi.insecure && !cfg.gnmi.tls_client_ca.empty());
  const bool users = !cfg.gnmi.users_file.empty() || !cfg.gnmi.users_env.empty();
  if (cfg.analytics_enabled && cfg.gnmi_enabled && users && !identity) {
    out.push_back(
        "analytics with gNMI users but no member identity (cluster.member_secret_file, or "
        "northbound.gnmi.tls.client_ca "
        "for mutual TLS): the other members refuse this member's copy of their targets, so links and pause trees "
        "crossing members are not judged");
  }
  if (cfg.gnmi_enabled && !identity) {
    out.push_back(
        "northbound.gnmi in a fleet without a member identity (cluster.member_secret_file, or "
        "northbound.gnmi.tls.client_ca for mutual TLS): streams forwarded by another member count against that "
        "member's limits.max_subscriptions_per_client, not the client's");
  }
  return out;
}

}  // namespace rdmagw::gateway
