#include "analytics/analytics_engine.h"

#include <chrono>

#include "analytics/dcb_consistency.h"
#include "analytics/dcqcn_chain.h"
#include "analytics/derived_writer.h"
#include "analytics/fabric_reader.h"
#include "analytics/link_map.h"
#include "analytics/pause_tree.h"
#include "analytics/pfc_links.h"
#include "analytics/roce_checks.h"
#include "analytics/run_context.h"
#include "models/log.h"
#include "models/path.h"

namespace rdmagw::analytics {

AnalyticsEngine::AnalyticsEngine(Store& store, AnalyticsConfig config, const Store* peers, MirrorNeedsBoard* board)
    : store_(store), peers_(peers), board_(board), config_(std::move(config)), window_(config_.window) {}

RunStats AnalyticsEngine::runOnce(TimestampNs now) {
  const auto started = std::chrono::steady_clock::now();
  const FabricInventory inv = readFabric(store_, window_, config_.roles, peers_);
  window_.prune(now);
  const LinkMap links(config_.links, inv, config_.lldp_names);
  for (const std::string& c : links.conflicts()) {
    if (reported_conflicts_.insert(c).second) RDMAGW_LOG(kWarn, "analytics") << c;
  }
  const RunContext ctx{inv, window_, links, config_, now};

  if (peers_ != nullptr && board_ != nullptr) board_->publish(mirrorNeeds(ctx), now);

  DerivedWriter out(now);
  deriveLinks(ctx, out);
  deriveDcqcn(ctx, out);
  derivePfc(ctx, out);
  derivePauseTree(ctx, out);
  storms_.derive(ctx, out);
  deriveDcb(ctx, out);
  // Last: its live group reads the verdicts the signals above derived.
  RunStats stats;
  if (config_.roce_checks) {
    const auto roce_started = std::chrono::steady_clock::now();
    deriveRoceChecks(ctx, out);
    stats.roce_checks_duration = std::chrono::steady_clock::now() - roce_started;
  }

  std::map<std::string, std::set<std::string>> written;
  for (auto& [target, updates] : out.byTarget()) {
    // Only into targets that are up: a target removed since the read must
    // not come back as a shard holding nothing but verdicts, and one that is
    // down keeps no leaves at all (its up gauge says why), links included.
    // A peer's target is judged by the member that owns it.
    if (!inv.up.count(target) || !inv.local.count(target)) continue;  // a peer's port: its owner writes it
    std::set<std::string>& paths = written[target];
    for (const Update& u : updates) paths.insert(u.path);
    const Store::ApplyResult r = store_.apply(target, updates);
    stats.written += r.applied;
    stats.rejected += r.rejected;
    if (r.rejected > 0) {
      RDMAGW_LOG(kError, "analytics") << target << ": " << r.first_error;
    }
  }
  for (const auto& [target, paths] : written_) {
    const auto& now_written = written[target];
    for (const std::string& path : paths) {
      if (now_written.count(path)) continue;
      if (Result<Path> p = Path::parse(path); p.isOk()) stats.removed += store_.remove(target, *p);
    }
  }
  written_ = std::move(written);
  stats.duration = std::chrono::steady_clock::now() - started;
  return stats;
}

}  // namespace rdmagw::analytics
