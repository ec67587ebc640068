#include "analytics/pfc_links.h"

#include <algorithm>
#include <cmath>
#include <set>

namespace rdmagw::analytics {
namespace {

// Relative difference between the two ends' rates still counted as equal.
// The two devices are polled at different moments, so over a short window
// bursty pause differs by a poll's worth at each end: the simulated fabric,
// a window of six polls, showed 11% between ends that lose nothing. Lost
// pause, or a peer not counting the priority, shows as far more.
constexpr double kBalanceTolerance = 0.25;

// The port's target is up and per-priority counters of `prio` are read from it.
bool countsPriority(const RunContext& ctx, const PortRef& port, int prio) {
  auto prios = ctx.inv.priorities.find(port);
  return ctx.inv.up.count(port.target) && prios != ctx.inv.priorities.end() && prios->second.count(prio);
}

void losslessDrops(const RunContext& ctx, const PortRef& port, DerivedWriter& out) {
  auto queues = ctx.inv.queues.find(port);
  for (int p : losslessPriorities(ctx, port)) {
    const std::string prio = std::to_string(p);
    std::optional<Increase> host = ctx.increase(port.target, Input::kInDiscards, port.iface, prio);
    std::optional<Increase> queue;
    if (queues != ctx.inv.queues.end()) {
      if (auto q = queues->second.find(p); q != queues->second.end()) {
        queue = ctx.increase(port.target, Input::kQueueDrops, port.iface, q->second);
      }
    }
    if (!host && !queue) continue;
    const double rate = (host ? host->rate() : 0) + (queue ? queue->rate() : 0);
    const bool dropped = (host && host->count > 0) || (queue && queue->count > 0);
    out.priority(port, p, "lossless-drop-rate", rate);
    out.priority(port, p, "lossless-drop-alarm", uint64_t(dropped ? 1 : 0));
  }
}

}  // namespace

std::set<int> losslessPriorities(const RunContext& ctx, const PortRef& port) {
  auto bitsOf = [](uint64_t bitmap) {
    std::set<int> out;
    for (int p = 0; p < 8; ++p) {
      if (bitmap & (uint64_t{1} << p)) out.insert(p);
    }
    return out;
  };
  if (auto bitmap = ctx.inv.enabled_priorities.find(port); bitmap != ctx.inv.enabled_priorities.end()) {
    return bitsOf(bitmap->second);
  }
  // The switch's configuration (its qos-groups' pause-cos): for its own
  // ports, and for the host port cabled to one (a host's own PFC is not
  // what judges it: a host that turned PFC off still has its drops alarmed).
  if (auto cos = switchPausedCos(ctx.inv.roce, port.target)) return bitsOf(*cos);
  if (const PortRef* peer = ctx.links.peerOf(port)) {
    if (auto cos = switchPausedCos(ctx.inv.roce, peer->target)) return bitsOf(*cos);
  }
  return std::set<int>(ctx.config.no_drop_priorities.begin(), ctx.config.no_drop_priorities.end());
}

std::string_view pauseBalanceName(PauseBalance b) {
  switch (b) {
    case PauseBalance::kIdle: return "idle";
    case PauseBalance::kBalanced: return "balanced";
    case PauseBalance::kUnbalanced: return "unbalanced";
  }
  return "idle";
}

PauseBalance judgeBalance(double sent, double received, double window_seconds) {
  if (sent == 0 && received == 0) return PauseBalance::kIdle;
  const double slack = kBalanceTolerance * std::max(sent, received) + 1.0 / std::max(window_seconds, 1.0);
  return std::fabs(sent - received) <= slack ? PauseBalance::kBalanced : PauseBalance::kUnbalanced;
}

void deriveLinks(const RunContext& ctx, DerivedWriter& out) {
  for (const ResolvedLink& l : ctx.links.links()) {
    for (const auto& [self, peer] : {std::pair{l.a, l.b}, std::pair{l.b, l.a}}) {
      out.link(self, "peer-target", peer.target);
      out.link(self, "peer-interface", peer.iface);
      out.link(self, "source", std::string(l.source));
      out.link(self, "peer-state", std::string(ctx.inv.up.count(peer.target) ? "current" : "stale"));
      if (l.last_seen > 0) out.link(self, "last-seen", uint64_t(l.last_seen / 1'000'000'000));
    }
  }
}

void derivePfc(const RunContext& ctx, DerivedWriter& out) {
  const double window_s = std::chrono::duration<double>(ctx.config.window).count();
  std::set<PortRef> ports;
  for (const auto& [port, prios] : ctx.inv.priorities) ports.insert(port);
  for (const auto& [port, queues] : ctx.inv.queues) ports.insert(port);
  for (const PortRef& port : ports) {
    auto prios = ctx.inv.priorities.find(port);
    const PortRef* peer = ctx.currentPeerOf(port);
    for (int p : prios == ctx.inv.priorities.end() ? std::set<int>{} : prios->second) {
      const std::string prio = std::to_string(p);
      auto sent = ctx.increase(port.target, Input::kOutPause, port.iface, prio);
      auto received = peer ? ctx.increase(peer->target, Input::kInPause, peer->iface, prio) : std::nullopt;
      if (!received && sent && sent->count > 0 && peer && countsPriority(ctx, *peer, p)) {
        // Pause sent to a peer whose per-priority counters we read, but with
        // no pause counter on this priority: it does not do PFC there (mlx5
        // lists pause counters only for PFC priorities). It received none.
        received = Increase{0, sent->seconds};
      }
      if (sent) out.priority(port, p, "out-pause-rate", sent->rate());
      if (received) out.priority(port, p, "peer-in-pause-rate", received->rate());
      if (sent && received) {
        const PauseBalance b = judgeBalance(sent->rate(), received->rate(), window_s);
        out.priority(port, p, "pause-balance", std::string(pauseBalanceName(b)));
        out.priority(port, p, "pause-balance-code", uint64_t(b));
      }
      // Paused time as this port counts it, else as its peer counts the
      // pause it sent (a switch port counts no durations; the host NIC
      // pausing it does).
      auto paused = ctx.increase(port.target, Input::kInPauseDuration, port.iface, prio);
      if (!paused && peer) paused = ctx.increase(peer->target, Input::kOutPauseDuration, peer->iface, prio);
      if (paused) {
        const double ratio = paused->seconds > 0 ? paused->count * 1e-6 / paused->seconds : 0;
        out.priority(port, p, "paused-ratio", std::clamp(ratio, 0.0, 1.0));
      }
    }
    losslessDrops(ctx, port, out);
  }
}

}  // namespace rdmagw::analytics
