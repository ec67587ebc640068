// The configuration groups of the RoCE check (roce_checks.h): the path of
// each host port's RoCE DSCP through its switch, and what every device on
// it must have configured.

#include <algorithm>
#include <bit>
#include <tuple>
#include <optional>
#include <set>

#include "analytics/dcb_consistency.h"
#include "analytics/roce_checks.h"

namespace rdmagw::analytics {
namespace {

constexpr std::string_view kSwitchKind = "nexus";
// The smallest netdev MTU that carries RoCE's 4096-byte MTU: 4096 of
// payload plus the RoCEv2 headers (IP, UDP, BTH, ICRC and extended
// headers) stay under 4200. Below it a NIC falls back to 2048 or 1024.
constexpr uint64_t kRoceMinMtu = 4200;

template <typename M, typename K>
auto find(const M& m, const K& k) -> std::optional<typename M::mapped_type> {
  auto it = m.find(k);
  if (it == m.end()) return std::nullopt;
  return it->second;
}

bool isSwitch(const RunContext& ctx, const std::string& target) {
  auto kind = ctx.inv.target_kind.find(target);
  return kind != ctx.inv.target_kind.end() && kind->second == kSwitchKind;
}

std::optional<int> lowestBit(uint64_t bitmap) {
  for (int p = 0; p < 8; ++p) {
    if (bitmap & (uint64_t{1} << p)) return p;
  }
  return std::nullopt;
}

std::string bits(uint64_t bitmap) {
  const std::string list = priorityList(bitmap);
  return list.empty() ? "none" : "{" + list + "}";
}

uint64_t bit(int p) { return uint64_t{1} << p; }

// The qos-group a DSCP enters on a switch: its dscp-map row, else class-default.
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
  int group = 0;                     // the RoCE DSCP's qos-group on the switch
};

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
      auto g = h.sw->groups.find(h.group);
      if (g != h.sw->groups.end() && g->second.pause_cos) h.switch_priority = lowestBit(*g->second.pause_cos);
    }
    h.priority = h.host_priority ? h.host_priority : h.switch_priority;
    if (!h.priority && h.pfc && std::has_single_bit(*h.pfc)) h.priority = lowestBit(*h.pfc);
    out.push_back(std::move(h));
  }
  return out;
}

// ----- host ends -----

void hostLossless(const HostPath& h, CheckResults& r) {
  if (!h.priority || !h.pfc) return;
  const std::string p = std::to_string(*h.priority);
  r.judge(*h.pfc & bit(*h.priority), CheckStatus::kFail, h.host.target, CheckGroup::kLossless,
          "pfc-not-on-roce-priority", h.host.iface, "PFC on RoCE priority " + p, "PFC on " + bits(*h.pfc));
  r.judge((*h.pfc & ~bit(*h.priority)) == 0, CheckStatus::kWarn, h.host.target, CheckGroup::kLossless,
          "pfc-on-other-priority", h.host.iface, "PFC on priority " + p + " alone", "PFC on " + bits(*h.pfc));
}

void hostClassification(const HostPath& h, CheckResults& r) {
  const std::string& t = h.host.target;
  if (h.trust && h.sw && !h.sw->dscp_group.empty()) {
    r.judge(*h.trust == "dscp", CheckStatus::kFail, t, CheckGroup::kClassification, "host-trust-not-dscp",
            h.host.iface, "trust dscp (" + h.sw_port->toString() + " classifies by DSCP)", "trust " + *h.trust);
  }
  if (h.trust == "dscp" && h.dscp && h.cfg && !h.cfg->dscp_priority.empty()) {
    r.judge(h.host_priority.has_value(), CheckStatus::kFail, t, CheckGroup::kClassification, "roce-dscp-not-mapped",
            h.host.iface, "a dscp-prio rule for RoCE DSCP " + std::to_string(*h.dscp), "none");
  }
  if (h.host_priority && h.switch_priority) {
    const std::string d = "DSCP " + std::to_string(*h.dscp);
    r.judge(*h.host_priority == *h.switch_priority, CheckStatus::kFail, t, CheckGroup::kClassification,
            "dscp-priority-mismatch", h.host.iface,
            d + " -> priority " + std::to_string(*h.switch_priority) + " (" + h.sw_port->target + " pauses CoS " +
                std::to_string(*h.switch_priority) + " for qos-group " + std::to_string(h.group) + ")",
            d + " -> priority " + std::to_string(*h.host_priority));
  }
}

void hostCongestion(const RunContext& ctx, const HostPath& h, CheckResults& r) {
  if (!h.priority) return;
  const std::string p = std::to_string(*h.priority);
  for (const auto& [knobs, check, point] :
       {std::tuple{&ctx.inv.dcb.np_enabled, "dcqcn-np-off", "notification point"},
        std::tuple{&ctx.inv.dcb.rp_enabled, "dcqcn-rp-off", "reaction point"}}) {
    if (auto on = find(*knobs, h.host)) {
      r.judge(*on & bit(*h.priority), CheckStatus::kFail, h.host.target, CheckGroup::kCongestionControl, check,
              h.host.iface, std::string("DCQCN ") + point + " on RoCE priority " + p, "on " + bits(*on));
    }
  }
}

void hostFlowControl(const RunContext& ctx, const HostPath& h, CheckResults& r) {
  const std::optional<uint64_t> mtu = find(ctx.inv.dcb.mtu, h.host);
  if (mtu) {
    r.judge(*mtu >= kRoceMinMtu, CheckStatus::kWarn, h.host.target, CheckGroup::kFlowControl, "mtu-below-roce",
            h.host.iface, "MTU >= " + std::to_string(kRoceMinMtu) + " (RoCE MTU 4096)", "MTU " + std::to_string(*mtu));
  }
  if (mtu && h.sw_port) {
    if (auto sw_mtu = find(ctx.inv.dcb.mtu, *h.sw_port)) {
      r.judge(*sw_mtu >= *mtu, CheckStatus::kFail, h.sw_port->target, CheckGroup::kFlowControl,
              "mtu-smaller-than-host", h.sw_port->iface,
              "MTU >= " + std::to_string(*mtu) + " (" + h.host.toString() + ")", "MTU " + std::to_string(*sw_mtu));
    }
  }
  if (mtu && h.sw && h.dscp) {
    auto g = h.sw->groups.find(h.group);
    if (g != h.sw->groups.end() && g->second.mtu) {
      r.judge(*g->second.mtu >= *mtu, CheckStatus::kFail, h.sw_port->target, CheckGroup::kFlowControl,
              "qos-group-mtu-smaller-than-host", "",
              "network-qos MTU of qos-group " + std::to_string(h.group) + " >= " + std::to_string(*mtu) + " (" +
                  h.host.toString() + ")",
              "MTU " + std::to_string(*g->second.mtu));
    }
  }
  if (h.priority && h.cfg && !h.cfg->receive_buffer.empty()) {
    const uint64_t bytes = find(h.cfg->receive_buffer, *h.priority).value_or(0);
    r.judge(bytes > 0, CheckStatus::kFail, h.host.target, CheckGroup::kFlowControl, "no-receive-buffer",
            h.host.iface, "a receive buffer for RoCE priority " + std::to_string(*h.priority),
            std::to_string(bytes) + " bytes");
  }
}

void hostEts(const HostPath& h, CheckResults& r) {
  if (!h.priority || h.cfg == nullptr) return;
  const std::optional<int> tc = find(h.cfg->priority_tc, *h.priority);
  if (!tc) return;
  const std::string tcs = "TC " + std::to_string(*tc);
  const std::optional<std::string> tsa = find(h.cfg->tc_tsa, *tc);
  const std::optional<uint64_t> bw = find(h.cfg->tc_bandwidth, *tc);
  if (tsa == "ets" && bw) {
    r.judge(*bw > 0, CheckStatus::kFail, h.host.target, CheckGroup::kEts, "roce-tc-zero-bandwidth", h.host.iface,
            "ETS bandwidth > 0 % for " + tcs + " (priority " + std::to_string(*h.priority) + ")",
            std::to_string(*bw) + " %");
  }
  if (h.cfg->tc_tsa.empty()) return;
  // Strict classes carrying data are served before the RoCE class (mlx5:
  // the higher the strict TC, the sooner): with steady traffic there, RoCE
  // gets nothing. The CNPs' own class is meant to be strict.
  const std::optional<int> cnp_tc = h.cfg->cnp_priority ? find(h.cfg->priority_tc, int(*h.cfg->cnp_priority))
                                                        : std::nullopt;
  std::string starving;
  for (const auto& [prio, other] : h.cfg->priority_tc) {
    if (other == *tc || other == cnp_tc || find(h.cfg->tc_tsa, other) != "strict") continue;
    if (tsa == "strict" && other < *tc) continue;
    starving += (starving.empty() ? "" : ", ") + std::string("priority ") + std::to_string(prio) + " in strict TC " +
                std::to_string(other);
  }
  r.judge(starving.empty(), CheckStatus::kFail, h.host.target, CheckGroup::kEts, "roce-starved-by-strict",
          h.host.iface, "no strict class served before " + tcs + " (RoCE)", starving);
  if (bw && tsa == "ets" && h.sw) {
    auto g = h.sw->groups.find(h.group);
    if (g != h.sw->groups.end() && g->second.bandwidth_percent && !g->second.priority_level) {
      r.judge(*g->second.bandwidth_percent == *bw, CheckStatus::kWarn, h.host.target, CheckGroup::kEts,
              "ets-bandwidth-differs-from-switch", h.host.iface,
              std::to_string(*g->second.bandwidth_percent) + " % as " + h.sw_port->target + " gives qos-group " +
                  std::to_string(h.group),
              std::to_string(*bw) + " % for " + tcs);
    }
  }
}

// ----- switches -----

// What the hosts behind one switch send: RoCE DSCP -> RoCE priority.
struct SwitchView {
  const SwitchRoceConfig* cfg = nullptr;
  std::map<int, int> roce;  // dscp -> priority
  std::set<PortRef> ports;  // its ports cabled to RoCE hosts
};

void switchLossless(const RunContext& ctx, const std::string& t, const SwitchView& v, CheckResults& r) {
  const std::optional<uint64_t> paused = switchPausedCos(ctx.inv.roce, t);
  if (!paused) return;
  uint64_t roce = 0;
  for (const auto& [dscp, prio] : v.roce) {
    roce |= bit(prio);
    r.judge(*paused & bit(prio), CheckStatus::kFail, t, CheckGroup::kLossless, "pfc-not-on-roce-priority", "",
            "pause pfc-cos " + std::to_string(prio) + " (RoCE priority)", "pause pfc-cos " + bits(*paused));
  }
  if (roce != 0) {
    r.judge((*paused & ~roce) == 0, CheckStatus::kWarn, t, CheckGroup::kLossless, "pfc-on-other-priority", "",
            "pause pfc-cos " + bits(roce) + " alone", "pause pfc-cos " + bits(*paused));
  }
}

void switchClassification(const RunContext& ctx, const std::string& t, const SwitchView& v, CheckResults& r) {
  const SwitchRoceConfig& sw = *v.cfg;
  if (sw.dscp_group.empty() || !switchPausedCos(ctx.inv.roce, t)) return;
  std::string no_drop;
  for (const auto& [id, g] : sw.groups) {
    if (g.pause_cos.value_or(0) != 0) no_drop += (no_drop.empty() ? "" : ",") + std::to_string(id);
  }
  for (const auto& [dscp, prio] : v.roce) {
    const int group = groupOf(sw, dscp);
    auto g = sw.groups.find(group);
    const bool lossless = g != sw.groups.end() && g->second.pause_cos.value_or(0) != 0;
    // A switch pausing nothing is the lossless group's finding, not a misclassification.
    if (no_drop.empty()) continue;
    r.judge(lossless, CheckStatus::kFail, t, CheckGroup::kClassification, "roce-dscp-not-no-drop", "",
            "RoCE DSCP " + std::to_string(dscp) + " in a no-drop qos-group (" + no_drop + ")",
            "DSCP " + std::to_string(dscp) + " -> " + queueText(sw, group));
  }
  // CNPs of every host, wherever they come from: each switch forwards them.
  std::map<int, std::set<std::string>> cnp;  // dscp -> the hosts sending CNPs with it
  for (const auto& [port, host] : ctx.inv.roce.hosts) {
    if (host.cnp_dscp) cnp[int(*host.cnp_dscp)].insert(port.target);
  }
  for (const auto& [dscp, hosts] : cnp) {
    const int group = groupOf(sw, dscp);
    auto g = sw.groups.find(group);
    const bool strict = g != sw.groups.end() && g->second.priority_level.has_value();
    const bool dedicated = sw.dscp_group.count(dscp) && group != 0;
    const std::string expected = "CNP DSCP " + std::to_string(dscp) + " in a strict-priority queue";
    const std::string found = "DSCP " + std::to_string(dscp) + " -> " + queueText(sw, group);
    if (strict || !dedicated) {
      r.judge(strict, CheckStatus::kFail, t, CheckGroup::kClassification, "cnp-dscp-not-strict", "", expected, found);
    } else {
      r.warn(t, CheckGroup::kClassification, "cnp-dscp-not-strict", "", expected, found + " (its own queue, not strict)");
    }
  }
}

void switchCongestion(const std::string& t, const SwitchView& v, CheckResults& r) {
  for (const auto& [dscp, prio] : v.roce) {
    const int group = groupOf(*v.cfg, dscp);
    auto g = v.cfg->groups.find(group);
    if (g == v.cfg->groups.end()) continue;
    const QosGroupConfig& q = g->second;
    const std::string where = queueText(*v.cfg, group);
    if (q.ecn) {
      r.judge(*q.ecn == 1, CheckStatus::kFail, t, CheckGroup::kCongestionControl, "ecn-off-on-roce-queue", "",
              "random-detect ... ecn on " + where, "no ECN marking");
    }
    if (q.ecn != uint64_t{1}) continue;
    if (q.wred_min && q.wred_max) {
      r.judge(*q.wred_min < *q.wred_max, CheckStatus::kFail, t, CheckGroup::kCongestionControl,
              "wred-thresholds-disordered", "", "minimum-threshold < maximum-threshold on " + where,
              std::to_string(*q.wred_min) + " >= " + std::to_string(*q.wred_max) + " bytes");
    } else {
      r.warn(t, CheckGroup::kCongestionControl, "wred-thresholds-missing", "", "ECN thresholds on " + where,
             "none configured");
    }
  }
}

void switchFlowControl(const RunContext& ctx, const std::string& t, const SwitchView& v, CheckResults& r) {
  for (const auto& [dscp, prio] : v.roce) {
    const int group = groupOf(*v.cfg, dscp);
    auto g = v.cfg->groups.find(group);
    if (g == v.cfg->groups.end() || g->second.pause_cos.value_or(0) == 0) continue;
    const QosGroupConfig& q = g->second;
    const std::string where = "qos-group " + std::to_string(group);
    if (q.pause_buffer && q.pause_threshold && q.resume_threshold) {
      r.judge(*q.resume_threshold < *q.pause_threshold && *q.pause_threshold <= *q.pause_buffer, CheckStatus::kFail,
              t, CheckGroup::kFlowControl, "pause-thresholds-disordered", "",
              "resume-threshold < pause-threshold <= buffer-size on " + where,
              std::to_string(*q.resume_threshold) + " / " + std::to_string(*q.pause_threshold) + " / " +
                  std::to_string(*q.pause_buffer) + " bytes");
    } else {
      r.warn(t, CheckGroup::kFlowControl, "pause-buffer-missing", "",
             "pause buffer-size, pause-threshold and resume-threshold on " + where, "not all configured");
    }
  }
  if (v.cfg->watchdog) {
    r.judge(*v.cfg->watchdog != "off", CheckStatus::kFail, t, CheckGroup::kFlowControl, "pfc-watchdog-off", "",
            "priority-flow-control watch-dog-interval on", *v.cfg->watchdog);
  }
  for (const PortRef& port : v.ports) {
    if (auto wd = find(ctx.inv.roce.port_watchdog, port)) {
      r.judge(*wd != "off", CheckStatus::kFail, t, CheckGroup::kFlowControl, "pfc-watchdog-off", port.iface,
              "priority-flow-control watch-dog-interval on", *wd);
    }
    if (auto mode = find(ctx.inv.roce.pfc_mode, port)) {
      r.judge(*mode == "on", CheckStatus::kFail, t, CheckGroup::kLossless, "pfc-mode-not-on", port.iface,
              "priority-flow-control mode on", "mode " + *mode);
    }
  }
}

void switchEts(const RunContext& ctx, const std::string& t, const SwitchView& v, CheckResults& r) {
  const SwitchRoceConfig& sw = *v.cfg;
  std::set<int> cnp_groups;
  for (const auto& [port, host] : ctx.inv.roce.hosts) {
    if (host.cnp_dscp) cnp_groups.insert(groupOf(sw, int(*host.cnp_dscp)));
  }
  std::set<int> used;  // qos-groups some DSCP is classified into
  for (const auto& [dscp, group] : sw.dscp_group) used.insert(group);
  for (const auto& [dscp, prio] : v.roce) {
    const int group = groupOf(sw, dscp);
    auto g = sw.groups.find(group);
    if (g == sw.groups.end()) continue;
    const QosGroupConfig& q = g->second;
    if (!q.priority_level && q.bandwidth_percent) {
      r.judge(*q.bandwidth_percent > 0, CheckStatus::kFail, t, CheckGroup::kEts, "roce-queue-zero-bandwidth", "",
              "bandwidth > 0 % for " + queueText(sw, group), std::to_string(*q.bandwidth_percent) + " %");
    }
    if (sw.dscp_group.empty()) continue;
    std::string starving;
    for (const auto& [id, other] : sw.groups) {
      if (id == group || !other.priority_level || !used.count(id) || cnp_groups.count(id)) continue;
      if (q.priority_level && *q.priority_level <= *other.priority_level) continue;
      starving += (starving.empty() ? "" : ", ") + queueText(sw, id);
    }
    r.judge(starving.empty(), CheckStatus::kFail, t, CheckGroup::kEts, "roce-starved-by-strict", "",
            "no strict queue carrying data served before " + queueText(sw, group), starving);
  }
}

// ECN thresholds of the RoCE queue compared across switches: a fabric tier
// marks alike, or one switch marks late and its hosts see drops or pause.
void switchThresholdsAlike(const std::map<std::string, SwitchView>& views, CheckResults& r) {
  std::map<std::string, std::pair<uint64_t, uint64_t>> thresholds;
  std::map<std::pair<uint64_t, uint64_t>, int> votes;
  for (const auto& [t, v] : views) {
    for (const auto& [dscp, prio] : v.roce) {
      auto g = v.cfg->groups.find(groupOf(*v.cfg, dscp));
      if (g == v.cfg->groups.end() || !g->second.wred_min || !g->second.wred_max) continue;
      thresholds[t] = {*g->second.wred_min, *g->second.wred_max};
      ++votes[thresholds[t]];
      break;
    }
  }
  if (thresholds.size() < 2) return;
  const auto most = std::max_element(votes.begin(), votes.end(), [](const auto& a, const auto& b) {
                      return a.second < b.second;
                    })->first;
  auto text = [](const std::pair<uint64_t, uint64_t>& th) {
    return std::to_string(th.first) + "-" + std::to_string(th.second) + " bytes";
  };
  for (const auto& [t, th] : thresholds) {
    r.judge(th == most, CheckStatus::kWarn, t, CheckGroup::kCongestionControl, "wred-thresholds-differ", "",
            "ECN thresholds " + text(most) + " as on the other switches", text(th));
  }
}

}  // namespace

void checkRoceConfig(const RunContext& ctx, CheckResults& r) {
  std::map<std::string, SwitchView> switches;
  for (const HostPath& h : hostPaths(ctx)) {
    hostLossless(h, r);
    hostClassification(h, r);
    hostCongestion(ctx, h, r);
    hostFlowControl(ctx, h, r);
    hostEts(h, r);
    if (h.sw == nullptr || !h.sw_port) continue;
    SwitchView& v = switches[h.sw_port->target];
    v.cfg = h.sw;
    v.ports.insert(*h.sw_port);
    if (h.dscp && h.priority) v.roce[*h.dscp] = *h.priority;
  }
  for (const auto& [t, v] : switches) {
    switchLossless(ctx, t, v, r);
    switchClassification(ctx, t, v, r);
    switchCongestion(t, v, r);
    switchFlowControl(ctx, t, v, r);
    switchEts(ctx, t, v, r);
  }
  switchThresholdsAlike(switches, r);
}

}  // namespace rdmagw::analytics
