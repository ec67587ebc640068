#pragma once
// One analytics run: read the raw counters out of the store, derive the
// fabric signals, write them back as leaves of the ports' own targets, and
// remove derived leaves whose inputs are gone (so an absent signal is
// absent, never a stale verdict). In a fleet it also reads a peer store:
// both ends of every link and the whole of every pause tree, whichever
// member collects them; it writes only its own store's ports, so each
// verdict is written once in the fleet, by the owner of its port. Not thread-safe: the stage runs it from
// its one thread; tests call runOnce with the times they choose.

#include <chrono>
#include <map>
#include <set>
#include <string>

#include "analytics/analytics_config.h"
#include "analytics/counter_window.h"
#include "analytics/mirror_needs.h"
#include "analytics/pause_storm.h"
#include "models/store.h"

namespace rdmagw::analytics {

struct RunStats {
  size_t written = 0;  // derived leaves written
  size_t removed = 0;  // derived leaves removed because nothing derives them any more
  size_t rejected = 0; // refused by the store (a schema row out of step with the writer: a bug)
  // Wall time of the whole run (read, derive, write) and of its RoCE check
  // pass alone; exported as self-metrics so a check's cost shows at scale.
  std::chrono::nanoseconds duration{0};
  std::chrono::nanoseconds roce_checks_duration{0};
};

class AnalyticsEngine {
 public:
  // `peers`: targets other gateways collect (a fleet member's copy of the
  // others' input leaves), read with the store's own but never written:
  // every verdict goes onto a port of a target `store` holds.
  // `board`, when given with `peers`, gets after each run what the peer
  // copy must hold for the next one (mirror_needs.h).
  AnalyticsEngine(Store& store, AnalyticsConfig config, const Store* peers = nullptr,
                  MirrorNeedsBoard* board = nullptr);
  AnalyticsEngine(const AnalyticsEngine&) = delete;
  AnalyticsEngine& operator=(const AnalyticsEngine&) = delete;

  // `now` ends every window; collection timestamps are compared with it.
  RunStats runOnce(TimestampNs now);

 private:
  Store& store_;
  const Store* const peers_;
  MirrorNeedsBoard* const board_;
  const AnalyticsConfig config_;
  CounterWindow window_;
  PauseStormDetector storms_;  // remembers since when each port has paused its peer
  std::map<std::string, std::set<std::string>> written_;  // target -> derived paths of the last run
  std::set<std::string> reported_conflicts_;  // LLDP disagreements logged so far: each once, not per run
};

}  // namespace rdmagw::analytics
