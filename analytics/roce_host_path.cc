#include "analytics/roce_host_path.h"

#include <bit>
#include <set>

#include "analytics/dcb_consistency.h"

namespace rdmagw::analytics::roce_check {

std::optional<int> lowestBit(uint64_t bitmap) {
  for (int p = 0; p < 8; ++p) {
    if (bitmap & bit(p)) return p;
  }
  return std::nullopt;
}

std::string bits(uint64_t bitmap) {
  const std::string list = priorityList(bitmap);
  return list.empty() ? "none" : "{" + list + "}";
}

bool isSwitch(const RunContext& ctx, const std::string& target) { return analytics::isSwitch(ctx.inv, target); }

int groupOf(const SwitchRoceConfig& sw, int dscp) { return find(sw.dscp_group, dscp).value_or(0); }

std::string queueText(const SwitchRoceConfig& sw, int group) {
  std::string text = "qos-group " + std::to_string(group);
  auto g = sw.groups.find(group);
  if (g == sw.groups.end()) return text;
  if (g->second.egress_queue) text += " (queue " + *g->second.egress_queue + ")";
  if (g->second.priority_level) text += " priority level " + std::to_string(*g->second.priority_level);
  if (g->second.bandwidth_percent) text += " bandwidth " + std::to_string(*g->second.bandwidth_percent) + " %";
  return text;
}

namespace {

// Each host netdev's RDMA CM default ToS (of the RDMA port it carries).
std::map<PortRef, uint64_t> roceTosByNetdev(const RunContext& ctx) {
  std::map<PortRef, uint64_t> out;
  for (const auto& [rdma, tos] : ctx.inv.roce.roce_tos) {
    if (auto netdev = ctx.inv.netdev.find(rdma); netdev != ctx.inv.netdev.end()) {
      out.try_emplace(PortRef{rdma.target, netdev->second}, tos);
    }
  }
  return out;
}

std::optional<int> roceDscp(const std::map<PortRef, uint64_t>& tos, const PortRef& host, const HostRoceConfig* cfg,
                            const std::optional<std::string>& trust, const std::optional<uint64_t>& pfc) {
  if (auto t = find(tos, host)) return int(*t >> 2);
  if (cfg == nullptr || trust != "dscp" || !pfc) return std::nullopt;
  for (const auto& [dscp, prio] : cfg->dscp_priority) {
    if (*pfc & bit(prio)) return dscp;
  }
  return std::nullopt;
}

}  // namespace

std::vector<HostPath> hostPaths(const RunContext& ctx) {
  std::set<PortRef> ports;
  for (const auto& [port, cfg] : ctx.inv.roce.hosts) ports.insert(port);
  for (const auto& [port, trust] : ctx.inv.dcb.host_trust) ports.insert(port);
  for (const auto& [port, pfc] : ctx.inv.dcb.host_pfc) ports.insert(port);
  for (const auto& [port, np] : ctx.inv.dcb.np_enabled) ports.insert(port);
  const std::map<PortRef, uint64_t> tos = roceTosByNetdev(ctx);
  std::vector<HostPath> out;
  for (const PortRef& port : ports) {
    if (isSwitch(ctx, port.target)) continue;
    HostPath h;
    h.host = port;
    if (auto it = ctx.inv.roce.hosts.find(port); it != ctx.inv.roce.hosts.end()) h.cfg = &it->second;
    h.trust = find(ctx.inv.dcb.host_trust, port);
    h.pfc = find(ctx.inv.dcb.host_pfc, port);
    h.dscp = roceDscp(tos, port, h.cfg, h.trust, h.pfc);
    if (h.cfg && h.dscp && h.trust == "dscp") h.host_priority = find(h.cfg->dscp_priority, *h.dscp);
    if (const PortRef* peer = ctx.links.peerOf(port); peer && isSwitch(ctx, peer->target)) {
      h.sw_port = *peer;
      if (auto sw = ctx.inv.roce.switches.find(peer->target); sw != ctx.inv.roce.switches.end()) h.sw = &sw->second;
    }
    if (h.sw && h.dscp) {
      h.group = groupOf(*h.sw, *h.dscp);
      auto g = h.sw->groups.find(*h.group);
      if (g != h.sw->groups.end() && g->second.pause_cos) h.switch_priority = lowestBit(*g->second.pause_cos);
    }
    h.priority = h.host_priority ? h.host_priority : h.switch_priority;
    if (!h.priority && h.pfc && std::has_single_bit(*h.pfc)) h.priority = lowestBit(*h.pfc);
    if (h.sw && !h.group && h.priority) {
      for (const auto& [group, g] : h.sw->groups) {
        if (g.pause_cos && (*g.pause_cos & bit(*h.priority))) {
          h.group = group;
          break;
        }
      }
    }
    out.push_back(std::move(h));
  }
  return out;
}

}  // namespace rdmagw::analytics::roce_check
