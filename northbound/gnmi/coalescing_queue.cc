#include "northbound/gnmi/coalescing_queue.h"

namespace rdmagw::northbound::gnmi {

void CoalescingQueue::put(std::string_view target, std::string_view path,
                          const ParsedLeafPtr& leaf_path, const Value& value, TimestampNs ts,
                          bool deleted, int64_t seen_ns) {
  std::string key;
  key.reserve(target.size() + 1 + path.size());
  key.append(target).push_back('\0');
  key.append(path);
  auto it = index_.find(key);
  if (it != index_.end()) {
    PendingLeaf& leaf = slots_[it->second - base_];
    leaf.value = value;
    leaf.timestamp_ns = ts;
    leaf.deleted = deleted;
    if (leaf.seen_ns == 0) leaf.seen_ns = seen_ns;  // the wait counts from the oldest change
    ++coalesced_;
    return;
  }
  if (index_.size() >= capacity_) {
    ++dropped_;
    return;
  }
  index_.emplace(std::move(key), tailSeq());
  slots_.push_back(PendingLeaf{std::string(target), std::string(path), leaf_path, value, ts, deleted, seen_ns});
}

void CoalescingQueue::clear() {
  base_ += slots_.size();  // sequence numbers keep counting: sync marks stay valid
  slots_.clear();
  index_.clear();
}

std::vector<PendingLeaf> CoalescingQueue::popRun(size_t max, uint64_t before) {
  std::vector<PendingLeaf> out;
  while (!slots_.empty() && out.size() < max && base_ < before) {
    PendingLeaf& s = slots_.front();
    if (!out.empty() && (s.target != out.front().target ||
                         s.timestamp_ns != out.front().timestamp_ns)) {
      break;
    }
    std::string key = s.target;
    key.push_back('\0');
    key += s.path;
    index_.erase(key);
    out.push_back(std::move(s));
    slots_.pop_front();
    ++base_;
  }
  return out;
}

}  // namespace rdmagw::northbound::gnmi
