#pragma once
// A subscriber's pending leaves, coalesced per (target, path): while the
// client reads slowly, a leaf that changes again replaces its pending value
// in place (and is counted) instead of queueing behind it. The queue can
// hold at most one entry per distinct leaf, and never more than `capacity`;
// a new leaf arriving at a full queue is dropped and counted.
//
// Entries keep the order they first arrived in; sequence numbers let the
// stream place sync_response after exactly the entries queued before it.
// Not thread-safe: the owning session locks around it.

#include <cstdint>
#include <deque>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "models/value.h"
#include "northbound/gnmi/leaf_cache.h"

namespace rdmagw::northbound::gnmi {

struct PendingLeaf {
  std::string target;
  std::string path;
  ParsedLeafPtr leaf;  // the parsed path, shared with the dispatcher's cache
  Value value;
  TimestampNs timestamp_ns = 0;
  bool deleted = false;
  // Steady clock of the oldest store change this entry carries; 0 for a
  // sampled or initial value (their send time is a schedule, not a lag).
  int64_t seen_ns = 0;
};

class CoalescingQueue {
 public:
  explicit CoalescingQueue(size_t capacity) : capacity_(capacity) {}

  void put(std::string_view target, std::string_view path, const ParsedLeafPtr& leaf,
           const Value& value, TimestampNs ts, bool deleted, int64_t seen_ns = 0);
  void clear();

  // Pops the front run of entries sharing target and timestamp, at most
  // `max` of them and none at or past sequence `before`.
  std::vector<PendingLeaf> popRun(size_t max, uint64_t before);

  bool empty() const { return index_.empty(); }
  size_t size() const { return index_.size(); }
  uint64_t headSeq() const { return base_; }  // the next entry's sequence number
  uint64_t tailSeq() const { return base_ + slots_.size(); }
  uint64_t coalesced() const { return coalesced_; }
  uint64_t dropped() const { return dropped_; }
  size_t capacity() const { return capacity_; }

 private:
  const size_t capacity_;
  std::deque<PendingLeaf> slots_;                            // slot i has sequence base_ + i
  std::unordered_map<std::string, uint64_t> index_;   // target '\0' path -> sequence
  uint64_t base_ = 0;
  uint64_t coalesced_ = 0;
  uint64_t dropped_ = 0;
};

}  // namespace rdmagw::northbound::gnmi
