#include "analytics/pause_storm.h"

#include <algorithm>
#include <set>

#include "analytics/pfc_links.h"

namespace rdmagw::analytics {
namespace {

std::optional<double> ratioOf(const std::optional<Increase>& paused) {
  if (!paused) return std::nullopt;
  return std::clamp(paused->seconds > 0 ? paused->count * 1e-6 / paused->seconds : 0.0, 0.0, 1.0);
}

bool rose(const RunContext& ctx, const PortRef& port, Input input) {
  auto inc = ctx.increase(port.target, input, port.iface, "");
  return inc && inc->count > 0;
}

// The NIC's storm counters judge a window only once they span it (two
// samples): before that "no storm" would be a made-up zero.
bool stormCountersSpanWindow(const RunContext& ctx, const PortRef& port) {
  return ctx.increase(port.target, Input::kStormWarnings, port.iface, "").has_value() ||
         ctx.increase(port.target, Input::kStormErrors, port.iface, "").has_value();
}

// The pause duration (microseconds) `port` sent on `prio`, else what its
// peer counts received.
std::optional<Increase> peerPausedIncrease(const RunContext& ctx, const PortRef& port, int prio) {
  const std::string p = std::to_string(prio);
  if (auto own = ctx.increase(port.target, Input::kOutPauseDuration, port.iface, p)) return own;
  const PortRef* peer = ctx.currentPeerOf(port);
  if (peer == nullptr) return std::nullopt;
  return ctx.increase(peer->target, Input::kInPauseDuration, peer->iface, p);
}

}  // namespace

std::optional<double> peerPausedRatio(const RunContext& ctx, const PortRef& port, int prio) {
  return ratioOf(peerPausedIncrease(ctx, port, prio));
}

std::optional<double> peerPausedSeconds(const RunContext& ctx, const PortRef& port, int prio) {
  const std::optional<Increase> paused = peerPausedIncrease(ctx, port, prio);
  if (!paused) return std::nullopt;
  return std::max(paused->count * 1e-6, 0.0);
}

void PauseStormDetector::derive(const RunContext& ctx, DerivedWriter& out) {
  const double threshold = ctx.config.pause_storm_percent / 100.0;
  std::map<std::pair<PortRef, int>, TimestampNs> above;
  for (const auto& [port, prios] : ctx.inv.priorities) {
    const bool counted = ctx.inv.storm_counted.count(port) > 0 && stormCountersSpanWindow(ctx, port);
    const bool nic_storm =
        counted && (rose(ctx, port, Input::kStormWarnings) || rose(ctx, port, Input::kStormErrors));
    // The priorities a NIC-reported storm is on: those it sent pause on in
    // the window, else the lossless ones it counts.
    std::set<int> storm_prios;
    for (int p : prios) {
      auto sent = ctx.increase(port.target, Input::kOutPause, port.iface, std::to_string(p));
      if (sent && sent->count > 0) storm_prios.insert(p);
    }
    if (storm_prios.empty()) {
      for (int p : losslessPriorities(ctx, port)) {
        if (prios.count(p)) storm_prios.insert(p);
      }
    }
    for (int p : prios) {
      const std::optional<double> ratio = peerPausedRatio(ctx, port, p);
      if (ratio) out.priority(port, p, "peer-paused-ratio", *ratio);
      bool sustained = false;
      if (ratio && *ratio >= threshold) {
        auto since = above_since_.find({port, p});
        const TimestampNs start = since == above_since_.end() ? ctx.now : since->second;
        above[{port, p}] = start;
        sustained = ctx.now - start >= std::chrono::nanoseconds(ctx.config.pause_storm_for).count();
      }
      if (!ratio && !counted) continue;  // nothing to judge a storm by
      const bool storm = sustained || (nic_storm && storm_prios.count(p));
      out.priority(port, p, "pause-storm", uint64_t(storm ? 1 : 0));
    }
  }
  above_since_ = std::move(above);  // a port below the threshold, or gone, starts over
}

}  // namespace rdmagw::analytics
