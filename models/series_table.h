#pragma once
// One target's series, laid out for a million-series gateway: memory and
// the exposition's walk both scale with the bytes a series takes.
// Not thread-safe: the Store guards each table with its shard lock.
//
// A series is one fixed 48-byte record in a dense vector: no per-series heap
// node or string. Its path is two ids into the store-wide PathPieces
// (prefix up to the last key, which owns the label values, and leaf
// suffix), and it is found through a flat open-addressing index keyed by the
// hash of its full path. First sight of a leaf under a known prefix needs no
// path parse: a scan for the split and a schema lookup.

#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "models/counter_tracker.h"
#include "models/path_pieces.h"
#include "models/schema.h"
#include "models/value.h"

namespace rdmagw {

class SeriesTable {
 public:
  static constexpr uint32_t kNone = UINT32_MAX;
  static constexpr uint16_t kNoRow = UINT16_MAX;

  struct Series {
    uint64_t raw = 0;     // counters: the last raw reading; others: value bits or string slot
    uint64_t offset = 0;  // counters: what wraps and resets added
    TimestampNs discontinuity_ns = 0;
    TimestampNs timestamp_ns = 0;
    uint32_t prefix = 0;  // PathPieces ids
    uint32_t suffix = 0;
    uint16_t row = kNoRow;  // SchemaTable::leaves() index
    uint8_t tag = 0;        // Value's variant index, or kCounterTag
    bool seen = false;      // counters: a first reading arrived
    bool saturated = false;
  };

  explicit SeriesTable(PathPieces* pieces) : pieces_(pieces) {}
  ~SeriesTable() { clear(); }
  SeriesTable(const SeriesTable&) = delete;
  SeriesTable& operator=(const SeriesTable&) = delete;

  size_t size() const { return series_.size(); }
  static uint32_t hashOf(std::string_view path);
  uint32_t find(std::string_view path) const { return find(path, hashOf(path)); }
  uint32_t find(std::string_view path, uint32_t hash) const;
  // Binds and appends a new series with no value yet. Returns its slot, or
  // kNone with the reason in *error. `hash` is hashOf(path).
  uint32_t insert(std::string_view path, uint32_t hash, std::string* error);
  uint32_t insert(std::string_view path, std::string* error) { return insert(path, hashOf(path), error); }
  // Swap-removes slot i: the last series moves into it.
  void erase(uint32_t i);
  void clear();

  Series& at(uint32_t i) { return series_[i]; }
  const Series& at(uint32_t i) const { return series_[i]; }
  const LeafSchema* schema(const Series& s) const;
  std::span<const std::string> labels(const Series& s) const;
  std::string_view prefix(const Series& s) const { return pieces_->piece(s.prefix).text; }
  std::string_view suffix(const Series& s) const { return pieces_->piece(s.suffix).text; }
  std::string path(const Series& s) const;

  // Value access. A string value is referenced in place; numbers are
  // rebuilt into *scratch.
  const Value& value(const Series& s, Value* scratch) const;
  // Sets a gauge or string value; true when it differs from the previous one.
  bool setValue(Series& s, const Value& v);
  // Feeds a counter reading (counter_tracker.h); true when the value changed.
  bool observeCounter(Series& s, uint64_t raw, CounterSource source, TimestampNs ts,
                      CounterTracker::Event* event);

 private:
  static constexpr uint8_t kCounterTag = 5;  // value = offset + raw
  struct Bucket {
    uint32_t slot_plus1 = 0;  // 0: empty
    uint32_t hash = 0;        // low half of the path hash: home bucket and quick reject
  };

  bool matches(uint32_t slot, std::string_view path) const;
  void indexInsert(uint32_t hash, uint32_t slot);
  size_t bucketOf(uint32_t slot) const;
  void indexErase(size_t bucket);
  void grow();
  uint32_t allocString(Value v);
  void freeString(Series& s);

  PathPieces* pieces_;
  std::vector<Series> series_;
  std::vector<Bucket> buckets_;  // power of two, linear probing, at most 7/8 full
  std::vector<Value> strings_;   // string values, out of line
  std::vector<uint32_t> free_strings_;
  std::string scratch_;          // keyless path being looked up
};

}  // namespace rdmagw
