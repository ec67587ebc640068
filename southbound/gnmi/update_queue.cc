#include "southbound/gnmi/update_queue.h"

#include <algorithm>

namespace rdmagw::southbound::gnmi {

UpdateQueue::UpdateQueue(size_t capacity)
    : capacity_(std::max<size_t>(16, capacity)), delete_capacity_(std::max<size_t>(8, capacity_ / 8)) {}

void UpdateQueue::indexFromLocked(size_t from) {
  for (size_t i = from; i < pending_.updates.size(); ++i) {
    // string_view keys point into the queued Update's path: stable, because
    // the index exists only while the queue is full, when nothing is appended.
    index_[pending_.updates[i].path] = i;
  }
}

void UpdateQueue::pushOneLocked(Update& u) {
  ++stats_.pushed;
  std::vector<Update>& q = pending_.updates;
  if (q.size() < capacity_) {
    q.push_back(std::move(u));
    if (indexed_) index_[q.back().path] = q.size() - 1;
    stats_.high_water = std::max(stats_.high_water, q.size());
    return;
  }
  if (!indexed_) {
    indexed_ = true;
    index_.clear();
    indexFromLocked(barrier_);
  }
  auto it = index_.find(u.path);
  if (it == index_.end()) {
    ++stats_.dropped;
    return;
  }
  // Keep the queued path string (the index points at it); take the new value.
  Update& slot = q[it->second];
  slot.value = std::move(u.value);
  slot.timestamp_ns = u.timestamp_ns;
  slot.source = u.source;
  ++stats_.coalesced;
}

void UpdateQueue::push(std::vector<Update>& updates, std::vector<std::string>& deletes) {
  std::lock_guard lock(mu_);
  for (Update& u : updates) pushOneLocked(u);
  for (std::string& d : deletes) {
    if (pending_.deletes.size() >= delete_capacity_) {
      ++stats_.dropped;
      continue;
    }
    pending_.deletes.emplace_back(pending_.updates.size(), std::move(d));
    barrier_ = pending_.updates.size();
    index_.clear();
    indexed_ = false;
  }
}

bool UpdateQueue::drain(QueuedBatch& out) {
  out.clear();
  std::lock_guard lock(mu_);
  if (pending_.empty()) return false;
  std::swap(out, pending_);
  index_.clear();
  indexed_ = false;
  barrier_ = 0;
  return true;
}

void UpdateQueue::clear() {
  std::lock_guard lock(mu_);
  pending_.clear();
  index_.clear();
  indexed_ = false;
  barrier_ = 0;
}

QueueStats UpdateQueue::stats() const {
  std::lock_guard lock(mu_);
  return stats_;
}

}  // namespace rdmagw::southbound::gnmi
