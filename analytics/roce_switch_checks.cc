// The switch items of the RoCE check (roce_checks.h), device-wide (empty
// port) or on the switch ports cabled to RoCE hosts, and checkRoceConfig,
// which runs the host and switch items.

#include <algorithm>
#include <cstdio>
#include <map>
#include <optional>
#include <set>

#include "analytics/pause_storm.h"
#include "analytics/roce_host_path.h"
#include "models/path.h"

namespace rdmagw::analytics {
namespace {

using namespace roce_check;

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
// The thresholds most switches share are the expected ones; with no such
// majority (two switches that differ, or an even split) nobody can say which
// is out of line, so every switch is flagged with what the others have.
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
  auto text = [](const std::pair<uint64_t, uint64_t>& th) {
    return std::to_string(th.first) + "-" + std::to_string(th.second) + " bytes";
  };
  // The thresholds with the most votes, unless another pair has as many.
  std::optional<std::pair<uint64_t, uint64_t>> most;
  int top = 0;
  for (const auto& [th, n] : votes) {
    if (n == top) {
      most.reset();
    } else if (n > top) {
      top = n;
      most = th;
    }
  }
  for (const auto& [t, th] : thresholds) {
    if (most) {
      r.judge(th == *most, CheckStatus::kWarn, t, CheckGroup::kCongestionControl, "wred-thresholds-differ", "",
              "ECN thresholds " + text(*most) + " as on the other switches", text(th));
      continue;
    }
    std::string others;
    for (const auto& [o, oth] : thresholds) {
      if (oth != th) others += (others.empty() ? "" : ", ") + o + " " + text(oth);
    }
    r.judge(others.empty(), CheckStatus::kWarn, t, CheckGroup::kCongestionControl, "wred-thresholds-differ", "",
            "the same ECN thresholds on every switch (no majority: " + others + ")", text(th));
  }
}

// This run's verdict and paused share of the window for one port and
// priority (pause_storm.h), as the engine wrote them.
struct PeerPause {
  std::optional<bool> storm;
  std::optional<double> ratio;
};

std::map<std::pair<PortRef, int>, PeerPause> pauseVerdicts(const DerivedWriter& derived) {
  std::map<std::pair<PortRef, int>, PeerPause> out;
  for (const auto& [target, updates] : derived.byTarget()) {
    for (const Update& u : updates) {
      const bool storm = u.path.ends_with("/pause-storm");
      if (!storm && !u.path.ends_with("/peer-paused-ratio")) continue;
      // /fabric/interfaces/interface[name]/priorities/priority[id]/state/<leaf>
      Result<Path> p = Path::parse(u.path);
      if (!p.isOk() || p->elems().size() != 7 || p->elems()[1].name != "interfaces") continue;
      auto name = p->elems()[2].keys.find("name");
      auto id = p->elems()[4].keys.find("id");
      if (name == p->elems()[2].keys.end() || id == p->elems()[4].keys.end()) continue;
      const int prio = id->second.size() == 1 && id->second[0] >= '0' && id->second[0] <= '7' ? id->second[0] - '0' : -1;
      double v = 0;
      if (prio < 0 || !valueAsDouble(u.value, &v)) continue;
      PeerPause& pp = out[{PortRef{target, name->second}, prio}];
      if (storm) pp.storm = v != 0;
      else pp.ratio = v;
    }
  }
  return out;
}

// The shortest stall NX-OS's PFC watchdog acts on: its smallest
// watch-dog interval (100 ms, also the default).
constexpr double kShortestWatchdogStallS = 0.1;

// " (12 ms)": the paused time behind a share, when known.
std::string millis(std::optional<double> seconds) {
  if (!seconds) return "";
  return " (" + std::to_string(uint64_t(*seconds * 1000 + 0.5)) + " ms)";
}

std::string percent(std::optional<double> share) {
  if (!share) return "an unknown share";
  char text[16];
  std::snprintf(text, sizeof text, "%.0f %%", *share * 100);
  return text;
}

}  // namespace

void checkWatchdogStorms(const RunContext& ctx, const DerivedWriter& derived, CheckResults& r) {
  const RoceInventory& roce = ctx.inv.roce;
  if (roce.watchdog_queues.empty()) return;
  const auto verdicts = pauseVerdicts(derived);
  const double storm_share = ctx.config.pause_storm_percent / 100.0;
  for (const auto& [port, queues] : roce.watchdog_queues) {
    if (!ctx.inv.up.count(port.target)) continue;
    const PortRef* peer = ctx.links.peerOf(port);
    if (peer == nullptr) continue;
    const std::optional<uint64_t> enabled = roce_check::find(roce.watchdog_enabled, port);
    for (const auto& [group, q] : queues) {
      // The peer's verdict on the CoS the queue is paused on; without a
      // PFC-COS, its worst priority.
      std::optional<bool> storm;
      std::optional<double> ratio, paused_s;
      for (int p = 0; p < 8; ++p) {
        if (q.pfc_cos && *q.pfc_cos != uint64_t(p)) continue;
        auto it = verdicts.find({*peer, p});
        if (it == verdicts.end()) continue;
        if (it->second.storm) storm = storm.value_or(false) || *it->second.storm;
        if (it->second.ratio) ratio = std::max(ratio.value_or(0.0), *it->second.ratio);
        if (auto s = peerPausedSeconds(ctx, *peer, p)) paused_s = std::max(paused_s.value_or(0.0), *s);
      }
      if (!storm) continue;  // the peer is not judged: unknown, no item
      const std::string g = std::to_string(group);
      const auto shut_inc = ctx.increase(port.target, Input::kWatchdogShutdowns, port.iface, g);
      const auto restored_inc = ctx.increase(port.target, Input::kWatchdogRestores, port.iface, g);
      const bool shut_now = q.state == std::string("Shutdown");
      const bool shut_rose = shut_inc && shut_inc->count > 0;
      const bool restored = restored_inc && restored_inc->count > 0;
      const std::string queue = "qos-group " + g + (q.pfc_cos ? " (CoS " + std::to_string(*q.pfc_cos) + ")" : "");
      const std::string peer_name = peer->target + " " + peer->iface;
      std::string acted;
      if (shut_now) acted = "Shutdown";
      if (shut_rose) acted += (acted.empty() ? "" : ", ") + std::to_string(uint64_t(shut_inc->count)) + " shutdown(s) in the window";
      if (restored) acted += (acted.empty() ? "" : ", ") + std::to_string(uint64_t(restored_inc->count)) + " restore(s) in the window";
      // The watchdog acts within a few of its intervals (NX-OS: 100 ms and
      // up), long before our storm verdict, which wants the port held paused
      // for pause_storm_for: any stall that long in the window may be what
      // it saw. Only a shutdown with (next to) no pause at all is suspect.
      const bool pressed = *storm || paused_s.value_or(0) >= kShortestWatchdogStallS;
      r.judge(!(shut_now || shut_rose) || pressed, CheckStatus::kWarn, port.target, CheckGroup::kFlowControl,
              "watchdog-shutdown-without-storm", port.iface,
              "a watchdog shutdown of " + queue + " only while " + peer_name + " pauses the port",
              queue + ": " + acted + "; " + peer_name + ": no pause storm, held the port paused " + percent(ratio) +
                  " of the window" + millis(paused_s));
      if (enabled != uint64_t{1}) continue;
      const bool storming = *storm && ratio && *ratio >= storm_share;
      r.judge(!storming || shut_now || shut_rose || restored, CheckStatus::kWarn, port.target, CheckGroup::kFlowControl,
              "watchdog-missed-storm", port.iface,
              "the watchdog (enabled) shuts " + queue + " while " + peer_name + " storms",
              queue + ": " + q.state.value_or("state unknown") + ", no shutdown in the window; " + peer_name +
                  ": pause storm, held the port paused " + percent(ratio) + " of the window");
    }
  }
}

void checkRoceConfig(const RunContext& ctx, CheckResults& r) {
  std::map<std::string, SwitchView> switches;
  for (const HostPath& h : hostPaths(ctx)) {
    checkHostPort(ctx, h, r);
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
