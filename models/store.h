#pragma once
// The telemetry store: latest value per (target, path), the only place
// southbound writes and northbound reads.
//
// Locking: one shard per target. A writer holds only its target's shard
// lock for one batch; readers visit one target at a time, so a scrape never
// holds up writers of other targets, and a target's writer for no longer than
// it takes to visit that target's series. The target map itself has a
// reader/writer lock taken exclusively only to add or drop a target.

#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <shared_mutex>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "models/change_listener.h"
#include "models/function_ref.h"
#include "models/path.h"
#include "models/schema.h"
#include "models/target_health.h"
#include "models/update.h"

namespace rdmagw {

// One leaf as a reader sees it during a visit. References are valid only
// inside the visitor call. Label values are interned: within one target's
// visit, two series whose label_values start at the same address have the
// same values, so a reader may cache text built from them (the exposition
// does) until the visit moves to the next target.
struct SeriesView {
  std::string_view target;
  std::string_view path;
  const LeafSchema* schema;  // null: a leaf the schema does not know; kept, not named
  std::span<const std::string> label_values;  // one per schema label, path order
  const Value& value;        // counters: the monotonic model value
  TimestampNs timestamp_ns;
  TimestampNs discontinuity_ns;  // last counter reset seen, 0 if none
  bool saturated;                // a saturating source counter is stuck at all-ones
};

// An owned copy of a series, for callers that keep data past a visit.
struct SeriesSnapshot {
  std::string target;
  std::string path;
  const LeafSchema* schema;
  std::vector<std::string> label_values;
  Value value;
  TimestampNs timestamp_ns;
  TimestampNs discontinuity_ns;
  bool saturated;
};

class Store {
 public:
  struct ApplyResult {
    size_t applied = 0;
    size_t rejected = 0;
    std::string first_error;  // the first rejection, for the collector's log line
  };
  using Visitor = FunctionRef<void(const SeriesView&)>;

  // Default cap on leaves per target: a device that streams unbounded
  // distinct paths (unknown gNMI leaves, a runaway key) cannot take the
  // gateway's memory; new leaves past it are rejected and counted.
  static constexpr size_t kDefaultMaxSeriesPerTarget = 1'000'000;

  explicit Store(size_t max_series_per_target = kDefaultMaxSeriesPerTarget);
  ~Store();
  Store(const Store&) = delete;
  Store& operator=(const Store&) = delete;

  // Applies a batch in order. A bad update (unparsable path, key count that
  // does not match the schema, a string sent to a counter) is rejected and
  // counted; the rest of the batch is applied.
  ApplyResult apply(std::string_view target, std::span<const Update> updates);
  // A collector's poll: its updates, then every leaf under one of the
  // batch's replaced subtrees that the batch did not write is deleted (the
  // device no longer has that row). Listeners see those as deletes.
  ApplyResult apply(std::string_view target, const PollBatch& batch);

  // Deletes every leaf of `target` under `prefix`; returns how many.
  // Listeners see one deleted Change per leaf, as for the two calls below.
  size_t remove(std::string_view target, const Path& prefix);
  // Deletes every leaf of `target` under one of `subtrees` (Path strings)
  // that `kept` does not name; returns how many. A subtree that does not
  // parse as a path deletes nothing. A key given as "*" matches any value
  // (/interfaces/interface[name=*]/x: every interface's x).
  size_t removeUnwritten(std::string_view target, std::span<const std::string> subtrees,
                         std::span<const Update> kept);
  // Drops the target entirely: data, counters, health (gnmic #1009).
  void removeTarget(std::string_view target);
  // Drops the target's data but keeps its health, so `up` stays exported
  // while stale values are not.
  void expireData(std::string_view target);

  void setHealth(std::string_view target, const TargetHealth& health);
  std::vector<TargetStatus> targets() const;  // sorted by name

  // Visits every series, one target at a time, targets in name order.
  void forEach(Visitor visit) const;
  void forEachIn(std::string_view target, Visitor visit) const;
  std::vector<SeriesSnapshot> snapshot(std::string_view target) const;
  std::optional<SeriesSnapshot> get(std::string_view target, std::string_view path) const;
  size_t seriesCount() const;

  // Listener must outlive its registration. Returns an id for removeListener.
  uint64_t addListener(ChangeListener* listener);
  void removeListener(uint64_t id);

 private:
  struct Shard;
  std::shared_ptr<Shard> shard(std::string_view target) const;
  std::shared_ptr<Shard> shardOrCreate(std::string_view target);
  void notify(std::string_view target, std::span<const Change> changes) const;
  bool hasListeners() const;

  const size_t max_series_per_target_;
  // Interned path prefixes and leaf suffixes shared by every target's series;
  // declared before targets_ so it outlives every shard (path_pieces.h).
  std::unique_ptr<class PathPieces> pieces_;
  mutable std::shared_mutex targets_mu_;
  std::map<std::string, std::shared_ptr<Shard>, std::less<>> targets_;  // guarded by targets_mu_

  mutable std::shared_mutex listeners_mu_;
  std::map<uint64_t, ChangeListener*> listeners_;  // guarded by listeners_mu_
  uint64_t next_listener_id_ = 1;                  // guarded by listeners_mu_
};

}  // namespace rdmagw
