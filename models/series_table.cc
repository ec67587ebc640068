#include "models/series_table.h"

#include <bit>
#include <cstring>

#include "models/path.h"

namespace rdmagw {
namespace {

constexpr size_t kNpos = std::string_view::npos;

// Where the path's last key ends ("...[port-num=1]" | "/state/..."): 0 when
// it has no key, npos on an unterminated key (the parser reports why). Uses
// the parser's escape rules so the split never lands inside a key value.
size_t keyedPrefixLength(std::string_view s) {
  size_t end = 0;
  size_t i = 0;
  const size_t n = s.size();
  while (i < n) {
    char c = s[i];
    if (c == '\\') {
      i += 2;
      continue;
    }
    if (c != '[') {
      ++i;
      continue;
    }
    ++i;
    while (i < n && s[i] != '=') i += s[i] == '\\' ? 2 : 1;
    if (i >= n) return kNpos;
    ++i;
    bool closed = false;
    while (i < n) {
      if (s[i] == '\\') {
        i += 2;
        continue;
      }
      if (s[i++] == ']') {
        closed = true;
        break;
      }
    }
    if (!closed) return kNpos;
    end = i;
  }
  return end;
}

// A suffix the fast path may use verbatim as keyless text: "" or
// "/name/name" with no escapes or special characters. Anything else goes
// through the full parser, which either accepts it or says why not.
bool plainSuffix(std::string_view s) {
  if (s.empty()) return true;
  if (s.front() != '/' || s.back() == '/') return false;
  char prev = 0;
  for (char c : s) {
    if (c == '\\' || c == '[' || c == ']' || c == '=' || c == ':') return false;
    if (c == '/' && prev == '/') return false;
    prev = c;
  }
  return true;
}

// Labels per schema row, counted once.
const std::vector<uint8_t>& labelCounts() {
  static const std::vector<uint8_t> counts = [] {
    std::vector<uint8_t> out;
    for (const LeafSchema& row : SchemaTable::instance().leaves()) {
      out.push_back(uint8_t(SchemaTable::splitLabels(row.labels).size()));
    }
    return out;
  }();
  return counts;
}

uint32_t hashPath(std::string_view path) { return uint32_t(std::hash<std::string_view>{}(path)); }

}  // namespace

const LeafSchema* SeriesTable::schema(const Series& s) const {
  return s.row == kNoRow ? nullptr : &SchemaTable::instance().leaves()[s.row];
}

std::span<const std::string> SeriesTable::labels(const Series& s) const {
  if (s.row == kNoRow) return {};  // a leaf the schema does not know binds no labels
  return pieces_->piece(s.prefix).labels;
}

std::string SeriesTable::path(const Series& s) const {
  std::string out;
  out.reserve(prefix(s).size() + suffix(s).size());
  out.append(prefix(s)).append(suffix(s));
  return out;
}

bool SeriesTable::matches(uint32_t slot, std::string_view path) const {
  const Series& s = series_[slot];
  std::string_view p = prefix(s);
  std::string_view x = suffix(s);
  return path.size() == p.size() + x.size() && std::memcmp(path.data(), p.data(), p.size()) == 0 &&
         std::memcmp(path.data() + p.size(), x.data(), x.size()) == 0;
}

uint32_t SeriesTable::hashOf(std::string_view path) { return hashPath(path); }

uint32_t SeriesTable::find(std::string_view path, uint32_t h) const {
  if (buckets_.empty()) return kNone;
  const size_t mask = buckets_.size() - 1;
  for (size_t i = h & mask;; i = (i + 1) & mask) {
    const Bucket& b = buckets_[i];
    if (b.slot_plus1 == 0) return kNone;
    if (b.hash == h && matches(b.slot_plus1 - 1, path)) return b.slot_plus1 - 1;
  }
}

void SeriesTable::indexInsert(uint32_t hash, uint32_t slot) {
  const size_t mask = buckets_.size() - 1;
  size_t i = hash & mask;
  while (buckets_[i].slot_plus1 != 0) i = (i + 1) & mask;
  buckets_[i] = Bucket{slot + 1, hash};
}

size_t SeriesTable::bucketOf(uint32_t slot) const {
  const size_t mask = buckets_.size() - 1;
  size_t i = hashPath(path(series_[slot])) & mask;
  while (buckets_[i].slot_plus1 != slot + 1) i = (i + 1) & mask;
  return i;
}

// Backward-shift deletion: linear probing stays tombstone-free.
void SeriesTable::indexErase(size_t hole) {
  const size_t mask = buckets_.size() - 1;
  for (size_t j = (hole + 1) & mask; buckets_[j].slot_plus1 != 0; j = (j + 1) & mask) {
    const size_t home = buckets_[j].hash & mask;
    if (((j - home) & mask) >= ((j - hole) & mask)) {
      buckets_[hole] = buckets_[j];
      hole = j;
    }
  }
  buckets_[hole] = Bucket{};
}

void SeriesTable::grow() {
  std::vector<Bucket> old = std::move(buckets_);
  buckets_.assign(old.empty() ? 16 : old.size() * 2, Bucket{});
  for (const Bucket& b : old) {
    if (b.slot_plus1 != 0) indexInsert(b.hash, b.slot_plus1 - 1);
  }
}

uint32_t SeriesTable::insert(std::string_view path, uint32_t h, std::string* error) {
  const size_t split = keyedPrefixLength(path);
  std::string_view prefix = split == kNpos ? std::string_view() : path.substr(0, split);
  std::string_view suffix = split == kNpos ? path : path.substr(split);
  scratch_.clear();
  if (split == kNpos || split == 0 || !plainSuffix(suffix)) {
    // Rare shapes (no key, escapes in the tail): the full parser decides.
    Result<Path> parsed = Path::parse(path);
    if (!parsed.isOk()) {
      *error = parsed.status().message();
      return kNone;
    }
    scratch_ = parsed->keylessString();
  }
  Series s;
  if (!pieces_->acquire(prefix, suffix, &s.prefix, &s.suffix, error)) {
    Result<Path> parsed = Path::parse(path);  // the whole path's error names the whole path
    if (!parsed.isOk()) *error = parsed.status().message();
    return kNone;
  }
  const PathPieces::Piece& group = pieces_->piece(s.prefix);
  if (scratch_.empty()) scratch_.append(group.keyless).append(suffix);
  const LeafSchema* row = SchemaTable::instance().find(scratch_);
  if (row != nullptr) {
    s.row = uint16_t(row - SchemaTable::instance().leaves().data());
    const size_t want = labelCounts()[s.row];
    const size_t have = group.labels.size();
    if (have != want) {
      *error = "path " + std::string(path) + " has " + std::to_string(have) + " keys; schema row " +
               std::string(row->path) + " expects " + std::to_string(want);
      const uint32_t ids[] = {s.prefix, s.suffix};
      pieces_->release(ids);
      return kNone;
    }
  }
  if ((series_.size() + 1) * 8 > buckets_.size() * 7) grow();
  // Grow by a quarter, not double: at a million series the slack of a
  // doubling vector is a large part of what a series costs.
  if (series_.size() == series_.capacity()) series_.reserve(series_.size() + series_.size() / 4 + 8);
  const uint32_t slot = uint32_t(series_.size());
  series_.push_back(s);
  indexInsert(h, slot);
  return slot;
}

void SeriesTable::erase(uint32_t i) {
  indexErase(bucketOf(i));
  Series& s = series_[i];
  freeString(s);
  const uint32_t ids[] = {s.prefix, s.suffix};
  pieces_->release(ids);
  const uint32_t last = uint32_t(series_.size() - 1);
  if (i != last) {
    buckets_[bucketOf(last)].slot_plus1 = i + 1;
    series_[i] = series_[last];
  }
  series_.pop_back();
}

void SeriesTable::clear() {
  std::vector<uint32_t> ids;
  ids.reserve(series_.size() * 2);
  for (const Series& s : series_) {
    ids.push_back(s.prefix);
    ids.push_back(s.suffix);
  }
  if (!ids.empty()) pieces_->release(ids);
  // Swap with empties so the memory goes back, not just the contents.
  std::vector<Series>().swap(series_);
  std::vector<Bucket>().swap(buckets_);
  std::vector<Value>().swap(strings_);
  std::vector<uint32_t>().swap(free_strings_);
}

const Value& SeriesTable::value(const Series& s, Value* scratch) const {
  switch (s.tag) {
    case 0: *scratch = s.raw; break;
    case 1: *scratch = int64_t(s.raw); break;
    case 2: *scratch = std::bit_cast<double>(s.raw); break;
    case 3: *scratch = s.raw != 0; break;
    case 4: return strings_[s.raw];
    default: *scratch = s.offset + s.raw; break;
  }
  return *scratch;
}

uint32_t SeriesTable::allocString(Value v) {
  if (!free_strings_.empty()) {
    uint32_t id = free_strings_.back();
    free_strings_.pop_back();
    strings_[id] = std::move(v);
    return id;
  }
  strings_.push_back(std::move(v));
  return uint32_t(strings_.size() - 1);
}

void SeriesTable::freeString(Series& s) {
  if (s.tag != 4) return;
  strings_[s.raw] = Value();
  free_strings_.push_back(uint32_t(s.raw));
  s.tag = 0;
}

bool SeriesTable::observeCounter(Series& s, uint64_t raw, CounterSource source, TimestampNs ts,
                                 CounterTracker::Event* event) {
  const uint64_t before = s.offset + s.raw;
  const bool had = s.tag == kCounterTag;
  *event = CounterTracker::observe(
      CounterTracker::Fields{s.raw, s.offset, s.discontinuity_ns, s.seen, s.saturated}, raw, source, ts);
  s.tag = kCounterTag;
  return !had || s.offset + s.raw != before;
}

bool SeriesTable::setValue(Series& s, const Value& v) {
  const uint8_t tag = uint8_t(v.index());
  if (tag == 4) {
    if (s.tag == 4) {
      Value& held = strings_[s.raw];
      if (held == v) return false;
      held = v;
      return true;
    }
    s.raw = allocString(v);
    s.tag = 4;
    return true;
  }
  bool same = s.tag == tag;  // false when it held a string
  freeString(s);
  uint64_t bits = 0;
  switch (tag) {
    case 0: bits = std::get<uint64_t>(v); break;
    case 1: bits = uint64_t(std::get<int64_t>(v)); break;
    case 2: {
      double d = std::get<double>(v);
      bits = std::bit_cast<uint64_t>(d);
      same = same && std::bit_cast<double>(s.raw) == d;  // as Value's ==: NaN differs, -0 == 0
      break;
    }
    default: bits = std::get<bool>(v) ? 1 : 0; break;
  }
  if (tag != 2) same = same && s.raw == bits;
  s.raw = bits;
  s.tag = tag;
  return !same;
}

}  // namespace rdmagw
