// The host port items of the RoCE check (roce_checks.h).

#include <tuple>

#include "analytics/roce_host_path.h"

namespace rdmagw::analytics::roce_check {
namespace {

// The smallest netdev MTU that carries RoCE's 4096-byte MTU: 4096 of
// payload plus the RoCEv2 headers (IP, UDP, BTH, ICRC and extended
// headers) stay under 4200. Below it a NIC falls back to 2048 or 1024.
constexpr uint64_t kRoceMinMtu = 4200;

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
                std::to_string(*h.switch_priority) + " for qos-group " + std::to_string(*h.group) + ")",
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
  if (mtu && h.sw && h.group) {
    auto g = h.sw->groups.find(*h.group);
    if (g != h.sw->groups.end() && g->second.mtu) {
      r.judge(*g->second.mtu >= *mtu, CheckStatus::kFail, h.sw_port->target, CheckGroup::kFlowControl,
              "qos-group-mtu-smaller-than-host", "",
              "network-qos MTU of qos-group " + std::to_string(*h.group) + " >= " + std::to_string(*mtu) + " (" +
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
  if (bw && tsa == "ets" && h.sw && h.group) {
    auto g = h.sw->groups.find(*h.group);
    if (g != h.sw->groups.end() && g->second.bandwidth_percent && !g->second.priority_level) {
      r.judge(*g->second.bandwidth_percent == *bw, CheckStatus::kWarn, h.host.target, CheckGroup::kEts,
              "ets-bandwidth-differs-from-switch", h.host.iface,
              std::to_string(*g->second.bandwidth_percent) + " % as " + h.sw_port->target + " gives qos-group " +
                  std::to_string(*h.group),
              std::to_string(*bw) + " % for " + tcs);
    }
  }
}

}  // namespace

void checkHostPort(const RunContext& ctx, const HostPath& h, CheckResults& r) {
  hostLossless(h, r);
  hostClassification(h, r);
  hostCongestion(ctx, h, r);
  hostFlowControl(ctx, h, r);
  hostEts(h, r);
}

}  // namespace rdmagw::analytics::roce_check
