#pragma once
// The bounded hand-off between a stream reader (gRPC callback thread) and the
// store writer (the target's control thread). The reader never waits for the
// store: push() only takes a short lock. When the queue is full, an update
// for a path already queued replaces the queued value in place (coalescing:
// the newest reading wins, nothing is lost for a gauge or a counter), and an
// update for a new path is dropped; both are counted (gnmic #942, #947).
// Memory per target is bounded by `capacity` updates (+ capacity/8 deletes).
//
// Order: drain() hands back updates and deletes in the order pushed. A
// delete is a barrier: an update pushed after it never coalesces into a
// slot queued before it.

#include <cstddef>
#include <cstdint>
#include <mutex>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "models/update.h"

namespace rdmagw::southbound::gnmi {

struct QueuedBatch {
  std::vector<Update> updates;
  // (position in `updates` before which the delete applies, canonical prefix)
  std::vector<std::pair<size_t, std::string>> deletes;
  bool empty() const { return updates.empty() && deletes.empty(); }
  void clear() {
    updates.clear();
    deletes.clear();
  }
};

struct QueueStats {
  uint64_t pushed = 0;     // updates offered
  uint64_t coalesced = 0;  // replaced a queued value of the same path
  uint64_t dropped = 0;    // updates and deletes that found the queue full
  size_t high_water = 0;   // most updates queued at once
};

class UpdateQueue {
 public:
  explicit UpdateQueue(size_t capacity);
  UpdateQueue(const UpdateQueue&) = delete;
  UpdateQueue& operator=(const UpdateQueue&) = delete;

  // Both take ownership of the strings (moved from).
  void push(std::vector<Update>& updates, std::vector<std::string>& deletes);
  // Swaps the queued batch into `out` (which is cleared first); false if empty.
  bool drain(QueuedBatch& out);
  // Forgets everything queued (a transport change: stale stream data).
  void clear();
  QueueStats stats() const;
  size_t capacity() const { return capacity_; }

 private:
  void pushOneLocked(Update& u);
  void indexFromLocked(size_t from);

  const size_t capacity_;
  const size_t delete_capacity_;
  mutable std::mutex mu_;
  QueuedBatch pending_;  // guarded by mu_
  // Built only once the queue fills, so the fast path costs no hashing;
  // covers pending_.updates[barrier_..).
  std::unordered_map<std::string_view, size_t> index_;  // guarded by mu_
  bool indexed_ = false;                                 // guarded by mu_
  size_t barrier_ = 0;                                   // guarded by mu_
  QueueStats stats_;                                     // guarded by mu_
};

}  // namespace rdmagw::southbound::gnmi
