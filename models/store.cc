#include "models/store.h"

#include <atomic>
#include <mutex>
#include <optional>

#include "models/ingest_lag.h"
#include "models/series_table.h"

namespace rdmagw {
namespace {

std::optional<uint64_t> asRawCounter(const Value& v) {
  if (auto p = std::get_if<uint64_t>(&v)) return *p;
  if (auto p = std::get_if<int64_t>(&v)) {
    if (*p >= 0) return static_cast<uint64_t>(*p);
  }
  return std::nullopt;
}

}  // namespace

// A target's series live in one SeriesTable (series_table.h): fixed records
// in a dense vector, so a scrape walks memory in order, with interned path
// pieces and label values instead of per-series strings.
struct Store::Shard {
  explicit Shard(PathPieces* pieces) : table(pieces) {}
  mutable std::mutex mu;
  SeriesTable table;        // guarded by mu
  TargetHealth health;      // guarded by mu
  uint64_t counter_resets = 0;  // guarded by mu
  uint64_t rejected = 0;        // guarded by mu
};

namespace {

// Visits a table's series in slot order. The path is rebuilt into one buffer
// whose group prefix is copied only when the group changes (a collector
// writes a group's leaves together, so mostly only the leaf is copied).
template <typename F>
void visitTable(std::string_view target, const SeriesTable& t, F&& visit) {
  std::string path;
  uint32_t group = SeriesTable::kNone;
  size_t prefix_size = 0;
  Value scratch;
  for (uint32_t i = 0; i < t.size(); ++i) {
    const SeriesTable::Series& s = t.at(i);
    if (s.prefix != group) {
      group = s.prefix;
      path.assign(t.prefix(s));
      prefix_size = path.size();
    }
    path.resize(prefix_size);
    path.append(t.suffix(s));
    visit(SeriesView{target, path, t.schema(s), t.labels(s), t.value(s, &scratch), s.timestamp_ns,
                     s.discontinuity_ns, s.saturated});
  }
}

SeriesSnapshot snapshotOf(std::string_view target, const SeriesTable& t, const SeriesTable::Series& s) {
  Value scratch;
  std::span<const std::string> labels = t.labels(s);
  return SeriesSnapshot{std::string(target), t.path(s), t.schema(s), {labels.begin(), labels.end()},
                        t.value(s, &scratch), s.timestamp_ns, s.discontinuity_ns,
                        s.saturated};
}

}  // namespace

Store::Store(size_t max_series_per_target)
    : max_series_per_target_(max_series_per_target), pieces_(std::make_unique<PathPieces>()) {}
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
  if (inserted) it->second = std::make_shared<Shard>(pieces_.get());
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
    SeriesTable& t = s->table;
    std::string err;
    for (const Update& u : updates) {
      const uint32_t hash = SeriesTable::hashOf(u.path);
      uint32_t slot = t.find(u.path, hash);
      bool fresh = false;
      if (slot == SeriesTable::kNone) {
        if (t.size() >= max_series_per_target_) {
          ++result.rejected;
          if (result.first_error.empty()) {
            result.first_error = "target holds " + std::to_string(t.size()) +
                                 " leaves, the per-target limit: new leaf " + u.path + " refused";
          }
          continue;
        }
        slot = t.insert(u.path, hash, &err);
        if (slot == SeriesTable::kNone) {
          ++result.rejected;
          if (result.first_error.empty()) result.first_error = std::move(err);
          err.clear();
          continue;
        }
        fresh = true;
      }
      SeriesTable::Series& e = t.at(slot);
      const LeafSchema* schema = t.schema(e);
      bool changed;
      if (schema != nullptr && schema->kind == LeafKind::kCounter) {
        std::optional<uint64_t> raw = asRawCounter(u.value);
        if (!raw) {
          ++result.rejected;
          if (result.first_error.empty()) {
            result.first_error = "counter " + u.path + " got non-counter value " + valueToString(u.value);
          }
          if (fresh) t.erase(slot);
          continue;
        }
        CounterTracker::Event event;
        changed = t.observeCounter(e, *raw, u.source, u.timestamp_ns, &event);
        if (event == CounterTracker::Event::kReset) ++s->counter_resets;
      } else {
        changed = t.setValue(e, u.value);
      }
      e.timestamp_ns = u.timestamp_ns;
      ++result.applied;
      if (collect_changes && (changed || fresh)) {
        Value scratch;
        changes.push_back(Change{u.path, t.value(e, &scratch), u.timestamp_ns, false});
      }
    }
    s->rejected += result.rejected;
  }
  // Visible from here: readers take the shard lock we just released.
  IngestLagHistogram::instance().record(updates, nowNs());
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
    SeriesTable& t = s->table;
    Value scratch;
    // A prefix that names one stored leaf (analytics retiring a verdict)
    // removes just that series through the index: a leaf has nothing under
    // it, so the scan below would find the same one, parsing every path.
    const std::string exact = prefix.toString();
    const uint32_t leaf = t.find(exact);
    if (leaf != SeriesTable::kNone) {
      changes.push_back(Change{exact, t.value(t.at(leaf), &scratch), nowNs(), true});
      t.erase(leaf);
      removed = 1;
    }
    for (uint32_t i = 0; leaf == SeriesTable::kNone && i < t.size();) {
      const SeriesTable::Series& e = t.at(i);
      std::string path = t.path(e);
      Result<Path> p = Path::parse(path);
      if (p.isOk() && p->hasPrefix(prefix)) {
        changes.push_back(Change{std::move(path), t.value(e, &scratch), nowNs(), true});
        t.erase(i);  // slot i now holds the former last series: do not advance
        ++removed;
      } else {
        ++i;
      }
    }
  }
  notify(target, changes);
  return removed;
}

Store::ApplyResult Store::apply(std::string_view target, const PollBatch& batch) {
  ApplyResult result = apply(target, batch.updates);
  if (!batch.replaced.empty()) removeUnwritten(target, batch.replaced, batch.updates);
  return result;
}

size_t Store::removeUnwritten(std::string_view target, std::span<const std::string> subtrees,
                              std::span<const Update> kept) {
  // A root is a literal path (the common case: one string compare per
  // series) or a pattern with "*" keys, parsed and matched only on series
  // that share its literal start and contain its literal end, so a pattern
  // costs a parse per candidate, not per series of the target.
  struct Root {
    std::string text;  // canonical form; for a pattern, the part before its first '*' key
    std::string tail;  // a pattern's part after its last '*' key, plus '/'
    std::optional<Path> pattern;
    size_t depth = 0;
  };
  std::vector<Root> roots;
  for (const std::string& text : subtrees) {
    Result<Path> p = Path::parse(text);
    if (!p.isOk()) continue;
    Root r{p->toString(), "", std::nullopt, p->elems().size()};
    if (const size_t star = r.text.find("=*]"); star != std::string::npos) {
      r.tail = r.text.substr(r.text.rfind("=*]") + 3) + "/";
      r.text.resize(r.text.rfind('[', star));
      r.pattern = std::move(*p);
    }
    roots.push_back(std::move(r));
  }
  std::shared_ptr<Shard> s = shard(target);
  if (!s || roots.empty()) return 0;
  const auto under = [&roots](std::string_view path) {
    for (const Root& r : roots) {
      if (!path.starts_with(r.text)) continue;
      if (!r.pattern) {
        if (path.size() > r.text.size() && path[r.text.size()] == '/') return true;
        continue;
      }
      if (path.find(r.tail, r.text.size()) == std::string_view::npos) continue;
      if (path.find(r.tail, r.text.size()) == std::string_view::npos) continue;
      Result<Path> p = Path::parse(path);
      if (p.isOk() && p->elems().size() > r.depth && p->hasPrefix(*r.pattern)) return true;
    }
    return false;
  };
  std::vector<Change> changes;
  {
    std::lock_guard lock(s->mu);
    SeriesTable& t = s->table;
    // Slots move as series are erased: mark the kept ones by slot first,
    // collect the rest by path, then erase by path.
    std::vector<bool> written(t.size(), false);
    for (const Update& u : kept) {
      if (const uint32_t slot = t.find(u.path); slot != SeriesTable::kNone) written[slot] = true;
    }
    std::vector<std::string> gone;
    for (uint32_t i = 0; i < t.size(); ++i) {
      if (written[i]) continue;
      std::string path = t.path(t.at(i));
      if (under(path)) gone.push_back(std::move(path));
    }
    Value scratch;
    const TimestampNs now = nowNs();
    for (std::string& path : gone) {
      const uint32_t slot = t.find(path);
      if (slot == SeriesTable::kNone) continue;
      changes.push_back(Change{path, t.value(t.at(slot), &scratch), now, true});
      t.erase(slot);
    }
  }
  notify(target, changes);
  return changes.size();
}

namespace {

// Every leaf of a shard as a delete, for listeners (gNMI ON_CHANGE sends
// deletes when a target goes away). Caller holds the shard lock.
std::vector<Change> deletesOf(const SeriesTable& t) {
  std::vector<Change> out;
  out.reserve(t.size());
  const TimestampNs now = nowNs();
  visitTable("", t, [&](const SeriesView& v) {
    out.push_back(Change{std::string(v.path), v.value, now, true});
  });
  return out;
}

}  // namespace

void Store::removeTarget(std::string_view target) {
  std::shared_ptr<Shard> s;
  {
    std::unique_lock lock(targets_mu_);
    auto it = targets_.find(target);
    if (it == targets_.end()) return;
    s = std::move(it->second);
    targets_.erase(it);
  }
  if (!hasListeners()) return;
  std::vector<Change> changes;
  {
    std::lock_guard lock(s->mu);
    changes = deletesOf(s->table);
  }
  notify(target, changes);
}

void Store::expireData(std::string_view target) {
  std::shared_ptr<Shard> s = shard(target);
  if (!s) return;
  const bool collect_changes = hasListeners();
  std::vector<Change> changes;
  {
    std::lock_guard lock(s->mu);
    if (collect_changes) changes = deletesOf(s->table);
    s->table.clear();
  }
  notify(target, changes);
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
    out.push_back(TargetStatus{name, s->health, s->table.size(), s->counter_resets, s->rejected});
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
    visitTable(name, s->table, visit);
  }
}

void Store::forEachIn(std::string_view target, Visitor visit) const {
  std::shared_ptr<Shard> s = shard(target);
  if (!s) return;
  std::lock_guard lock(s->mu);
  visitTable(target, s->table, visit);
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
  const uint32_t slot = s->table.find(path);
  if (slot == SeriesTable::kNone) return std::nullopt;
  return snapshotOf(target, s->table, s->table.at(slot));
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
