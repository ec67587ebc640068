#include "models/store.h"

#include <atomic>
#include <mutex>
#include <unordered_map>

#include "models/counter_tracker.h"

namespace rdmagw {
namespace {

// Entries live in a dense vector per shard so a scrape walks memory in order
// (a node-based map made the walk cache-miss bound: ~165 ns per series).
struct Entry {
  std::string_view path;  // views the shard index's key: node-based keys never move
  const LeafSchema* schema = nullptr;
  std::vector<std::string> label_values;
  Value value;
  TimestampNs timestamp_ns = 0;
  CounterTracker counter;
};

// Transparent hashing so lookups by string_view do not allocate.
struct StringHash {
  using is_transparent = void;
  size_t operator()(std::string_view s) const { return std::hash<std::string_view>{}(s); }
};

std::optional<uint64_t> asRawCounter(const Value& v) {
  if (auto p = std::get_if<uint64_t>(&v)) return *p;
  if (auto p = std::get_if<int64_t>(&v)) {
    if (*p >= 0) return static_cast<uint64_t>(*p);
  }
  return std::nullopt;
}

// Resolves a new series: parse its path once, find its schema row, bind keys
// to label values. Returns an error text on a malformed update.
std::string bindSeries(std::string_view path_text, Entry* entry) {
  Result<Path> path = Path::parse(path_text);
  if (!path.isOk()) return path.status().message();
  entry->schema = SchemaTable::instance().find(path->keylessString());
  if (entry->schema == nullptr) return "";  // unknown leaf: kept, exported by no name
  size_t want = SchemaTable::splitLabels(entry->schema->labels).size();
  for (const PathElem& e : path->elems()) {
    for (const auto& kv : e.keys) entry->label_values.push_back(kv.second);
  }
  if (entry->label_values.size() != want) {
    return "path " + std::string(path_text) + " has " +
           std::to_string(entry->label_values.size()) + " keys; schema row " +
           std::string(entry->schema->path) + " expects " + std::to_string(want);
  }
  return "";
}

}  // namespace

struct Store::Shard {
  mutable std::mutex mu;
  std::vector<Entry> entries;                                                      // guarded by mu
  std::unordered_map<std::string, uint32_t, StringHash, std::equal_to<>> index;  // path -> slot; guarded by mu
  TargetHealth health;                                                          // guarded by mu
  uint64_t counter_resets = 0;                                                  // guarded by mu
  uint64_t rejected = 0;                                                        // guarded by mu
};

namespace {

// Swap-removes slot i, keeping the index in step. Caller holds the shard lock.
template <typename ShardT>
void eraseAt(ShardT& s, size_t i) {
  auto removed = s.index.find(s.entries[i].path);
  if (i + 1 != s.entries.size()) {
    s.entries[i] = std::move(s.entries.back());
    s.index.find(s.entries[i].path)->second = uint32_t(i);
  }
  s.entries.pop_back();
  s.index.erase(removed);
}

SeriesView viewOf(std::string_view target, const Entry& e) {
  return SeriesView{target, e.path, e.schema, e.label_values, e.value, e.timestamp_ns,
                    e.counter.discontinuityNs(), e.counter.saturated()};
}

}  // namespace

Store::Store(size_t max_series_per_target) : max_series_per_target_(max_series_per_target) {}
Store::~Store() = default;

std::shared_ptr<Store::Shard> Store::shard(std::string_view target) const {
  std::shared_lock lock(targets_mu_);
  auto it = targets_.find(target);
  return it == targets_.end() ? nullptr : it->second;
}

std::shared_ptr<Store::Shard> Store::shardOrCreate(std::string_view target) {
  if (auto s = shard(target)) return s;
  std::unique_lock lock(targets_mu_);
  auto [it, inserted] = targets_.try_emplace(std::string(target), nullptr);
  if (inserted) it->second = std::make_shared<Shard>();
  return it->second;
}

bool Store::hasListeners() const {
  std::shared_lock lock(listeners_mu_);
  return !listeners_.empty();
}

void Store::notify(std::string_view target, std::span<const Change> changes) const {
  if (changes.empty()) return;
  std::shared_lock lock(listeners_mu_);
  for (const auto& [id, listener] : listeners_) listener->onChanges(target, changes);
}

Store::ApplyResult Store::apply(std::string_view target, std::span<const Update> updates) {
  ApplyResult result;
  std::shared_ptr<Shard> s = shardOrCreate(target);
  const bool collect_changes = hasListeners();
  std::vector<Change> changes;
  {
    std::lock_guard lock(s->mu);
    for (const Update& u : updates) {
      auto it = s->index.find(std::string_view(u.path));
      bool fresh = false;
      if (it == s->index.end()) {
        if (s->entries.size() >= max_series_per_target_) {
          ++result.rejected;
          if (result.first_error.empty()) {
            result.first_error = "target holds " + std::to_string(s->entries.size()) +
                                 " leaves, the per-target limit: new leaf " + u.path + " refused";
          }
          continue;
        }
        Entry entry;
        std::string err = bindSeries(u.path, &entry);
        if (!err.empty()) {
          ++result.rejected;
          if (result.first_error.empty()) result.first_error = std::move(err);
          continue;
        }
        it = s->index.emplace(u.path, uint32_t(s->entries.size())).first;
        entry.path = it->first;
        s->entries.push_back(std::move(entry));
        fresh = true;
      }
      const size_t slot = it->second;
      Entry& e = s->entries[slot];
      Value next = u.value;
      if (e.schema != nullptr && e.schema->kind == LeafKind::kCounter) {
        std::optional<uint64_t> raw = asRawCounter(u.value);
        if (!raw) {
          ++result.rejected;
          if (result.first_error.empty()) {
            result.first_error = "counter " + u.path + " got non-counter value " + valueToString(u.value);
          }
          if (fresh) eraseAt(*s, slot);
          continue;
        }
        if (e.counter.observe(*raw, u.source, u.timestamp_ns) == CounterTracker::Event::kReset) {
          ++s->counter_resets;
        }
        next = e.counter.value();
      }
      const bool changed = fresh || next != e.value;
      e.value = std::move(next);
      e.timestamp_ns = u.timestamp_ns;
      ++result.applied;
      if (collect_changes && changed) changes.push_back(Change{u.path, e.value, u.timestamp_ns, false});
    }
    s->rejected += result.rejected;
  }
  notify(target, changes);
  return result;
}

size_t Store::remove(std::string_view target, const Path& prefix) {
  std::shared_ptr<Shard> s = shard(target);
  if (!s) return 0;
  std::vector<Change> changes;
  size_t removed = 0;
  {
    std::lock_guard lock(s->mu);
    for (size_t i = 0; i < s->entries.size();) {
      const Entry& e = s->entries[i];
      Result<Path> p = Path::parse(e.path);
      if (p.isOk() && p->hasPrefix(prefix)) {
        changes.push_back(Change{std::string(e.path), e.value, nowNs(), true});
        eraseAt(*s, i);  // slot i now holds the former last entry: do not advance
        ++removed;
      } else {
        ++i;
      }
    }
  }
  notify(target, changes);
  return removed;
}

void Store::removeTarget(std::string_view target) {
  std::unique_lock lock(targets_mu_);
  auto it = targets_.find(target);
  if (it != targets_.end()) targets_.erase(it);
}

void Store::expireData(std::string_view target) {
  if (std::shared_ptr<Shard> s = shard(target)) {
    std::lock_guard lock(s->mu);
    s->entries.clear();
    s->index.clear();
  }
}

void Store::setHealth(std::string_view target, const TargetHealth& health) {
  std::shared_ptr<Shard> s = shardOrCreate(target);
  std::lock_guard lock(s->mu);
  s->health = health;
}

std::vector<TargetStatus> Store::targets() const {
  std::vector<std::pair<std::string, std::shared_ptr<Shard>>> shards;
  {
    std::shared_lock lock(targets_mu_);
    shards.assign(targets_.begin(), targets_.end());
  }
  std::vector<TargetStatus> out;
  out.reserve(shards.size());
  for (auto& [name, s] : shards) {
    std::lock_guard lock(s->mu);
    out.push_back(TargetStatus{name, s->health, s->entries.size(), s->counter_resets, s->rejected});
  }
  return out;
}

void Store::forEach(Visitor visit) const {
  std::vector<std::pair<std::string, std::shared_ptr<Shard>>> shards;
  {
    std::shared_lock lock(targets_mu_);
    shards.assign(targets_.begin(), targets_.end());
  }
  for (auto& [name, s] : shards) {
    std::lock_guard lock(s->mu);
    for (const Entry& e : s->entries) visit(viewOf(name, e));
  }
}

void Store::forEachIn(std::string_view target, Visitor visit) const {
  std::shared_ptr<Shard> s = shard(target);
  if (!s) return;
  std::lock_guard lock(s->mu);
  for (const Entry& e : s->entries) visit(viewOf(target, e));
}

std::vector<SeriesSnapshot> Store::snapshot(std::string_view target) const {
  std::vector<SeriesSnapshot> out;
  forEachIn(target, [&](const SeriesView& v) {
    out.push_back(SeriesSnapshot{std::string(v.target), std::string(v.path), v.schema,
                                 {v.label_values.begin(), v.label_values.end()}, v.value,
                                 v.timestamp_ns, v.discontinuity_ns, v.saturated});
  });
  return out;
}

std::optional<SeriesSnapshot> Store::get(std::string_view target, std::string_view path) const {
  std::shared_ptr<Shard> s = shard(target);
  if (!s) return std::nullopt;
  std::lock_guard lock(s->mu);
  auto it = s->index.find(path);
  if (it == s->index.end()) return std::nullopt;
  const Entry& e = s->entries[it->second];
  return SeriesSnapshot{std::string(target), it->first, e.schema, e.label_values, e.value,
                        e.timestamp_ns, e.counter.discontinuityNs(), e.counter.saturated()};
}

size_t Store::seriesCount() const {
  size_t n = 0;
  for (const TargetStatus& t : targets()) n += t.series;
  return n;
}

uint64_t Store::addListener(ChangeListener* listener) {
  std::unique_lock lock(listeners_mu_);
  uint64_t id = next_listener_id_++;
  listeners_.emplace(id, listener);
  return id;
}

void Store::removeListener(uint64_t id) {
  std::unique_lock lock(listeners_mu_);
  listeners_.erase(id);
}

}  // namespace rdmagw
