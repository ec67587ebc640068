#include "northbound/snmp/mib_snapshot.h"

#include <algorithm>
#include <bit>
#include <numeric>

#include "common/hash.h"

namespace rdmagw::northbound::snmp {
namespace {

bool spanLess(std::span<const uint32_t> a, std::span<const uint32_t> b) {
  return std::lexicographical_compare(a.begin(), a.end(), b.begin(), b.end());
}

// The first present cell at or after (c, r) in column-major order.
std::optional<CellPos> scanFrom(const TableData& data, size_t c, size_t r) {
  for (; c < data.columnCount(); ++c, r = 0) {
    size_t row = data.nextPresent(c, r);
    if (row != TableData::kNone) return CellPos{c, row};
  }
  return std::nullopt;
}

}  // namespace

// ---- TableData ----

std::span<const uint32_t> TableData::rowIndex(size_t r) const {
  const uint32_t* arcs = body_->row_arcs.data();
  return {arcs + body_->row_starts[r], arcs + body_->row_starts[r + 1]};
}

size_t TableData::lowerColumn(uint32_t id) const {
  if (!body_) return 0;
  const auto& cols = body_->columns;
  return size_t(std::lower_bound(cols.begin(), cols.end(), id, [](const Column& c, uint32_t v) { return c.id < v; }) -
                cols.begin());
}

size_t TableData::findColumn(uint32_t id) const {
  size_t c = lowerColumn(id);
  return c < columnCount() && columnId(c) == id ? c : kNone;
}

size_t TableData::lowerRow(std::span<const uint32_t> index, bool inclusive) const {
  // Binary search over row positions; rows are sorted by index.
  size_t lo = 0, hi = rowCount();
  while (lo < hi) {
    size_t mid = lo + (hi - lo) / 2;
    std::span<const uint32_t> row = rowIndex(mid);
    bool before = inclusive ? spanLess(row, index) : !spanLess(index, row);  // row < index, or row <= index
    if (before) {
      lo = mid + 1;
    } else {
      hi = mid;
    }
  }
  return lo;
}

size_t TableData::findRow(std::span<const uint32_t> index) const {
  size_t r = lowerRow(index, true);
  if (r == rowCount()) return kNone;
  std::span<const uint32_t> row = rowIndex(r);
  return std::equal(row.begin(), row.end(), index.begin(), index.end()) ? r : kNone;
}

std::optional<CellView> TableData::cell(size_t c, size_t r) const {
  const Column& col = body_->columns[c];
  const size_t w = col.first_word + r / 64;
  const uint64_t word = body_->present[w];
  const uint64_t bit = uint64_t{1} << (r % 64);
  if ((word & bit) == 0) return std::nullopt;
  const uint64_t value = body_->values[col.first_value + body_->rank[w] + size_t(std::popcount(word & (bit - 1)))];
  CellView v;
  v.type = col.type;
  if (col.type == SnmpType::kOctetString) {
    v.text = std::string_view(body_->texts).substr(size_t(value >> 32), size_t(value & 0xffffffffu));
  } else {
    v.number = value;
  }
  return v;
}

size_t TableData::nextPresent(size_t c, size_t r) const {
  const size_t rows = rowCount();
  if (r >= rows) return kNone;
  const Column& col = body_->columns[c];
  const size_t words = (rows + 63) / 64;
  size_t w = r / 64;
  uint64_t word = body_->present[col.first_word + w] & (~uint64_t{0} << (r % 64));
  for (;;) {
    if (word != 0) return w * 64 + size_t(std::countr_zero(word));
    if (++w == words) return kNone;
    word = body_->present[col.first_word + w];
  }
}

size_t TableData::heapBytes() const { return body_ ? sizeof(Body) + body_->block_bytes : 0; }

void TableData::Layout::clear() {
  present.clear();
  values.clear();
  columns.clear();
  row_starts.clear();
  row_arcs.clear();
  rank.clear();
  texts.clear();
}

std::unique_ptr<const TableData::Body> TableData::pack(const Layout& l) {
  // 8-byte arrays first, then the 4-byte ones, then the text bytes.
  const size_t bytes = (l.present.size() + l.values.size()) * sizeof(uint64_t) + l.columns.size() * sizeof(Column) +
                       (l.row_starts.size() + l.row_arcs.size() + l.rank.size()) * sizeof(uint32_t) + l.texts.size();
  auto body = std::make_unique<Body>();
  body->block = std::make_unique_for_overwrite<uint64_t[]>((bytes + 7) / 8);
  body->block_bytes = (bytes + 7) / 8 * 8;
  auto* at = reinterpret_cast<std::byte*>(body->block.get());
  auto place = [&at]<typename T>(const auto& from, std::span<const T>* to) {
    T* dst = reinterpret_cast<T*>(at);
    std::copy(from.begin(), from.end(), dst);
    *to = std::span<const T>(dst, from.size());
    at += from.size() * sizeof(T);
  };
  place(l.present, &body->present);
  place(l.values, &body->values);
  place(l.columns, &body->columns);
  place(l.row_starts, &body->row_starts);
  place(l.row_arcs, &body->row_arcs);
  place(l.rank, &body->rank);
  std::span<const char> texts;
  place(l.texts, &texts);
  body->texts = std::string_view(texts.data(), texts.size());
  return body;
}

// ---- TableDataBuilder ----

size_t TableDataBuilder::RowHash::operator()(const RowKey& k) const {
  // FNV-1a over the arcs, a whole arc a step: indexes are short (1 to ~20 arcs).
  uint64_t h = common::kFnv1aOffset;
  for (uint32_t i = 0; i < k.length; ++i) h = common::fnv1aMix(h, (*arcs)[k.start + i]);
  return size_t(h);
}

bool TableDataBuilder::RowEq::operator()(const RowKey& a, const RowKey& b) const {
  return a.length == b.length &&
         std::equal(arcs->begin() + a.start, arcs->begin() + a.start + a.length, arcs->begin() + b.start);
}

TableDataBuilder::TableDataBuilder() : row_ids_(16, RowHash{&arcs_}, RowEq{&arcs_}) {}

uint32_t TableDataBuilder::rowOf(std::span<const uint32_t> index) {
  // The candidate goes to the end of arcs_ so the hash and the comparison
  // see it where they see every row; it stays only when it is new.
  RowKey key{uint32_t(arcs_.size()), uint32_t(index.size())};
  arcs_.insert(arcs_.end(), index.begin(), index.end());
  auto [it, added] = row_ids_.emplace(key, uint32_t(rows_.size()));
  if (!added) {
    arcs_.resize(key.start);
    return it->second;
  }
  rows_.push_back(key);
  return it->second;
}

void TableDataBuilder::addNumber(std::span<const uint32_t> index, uint32_t column, SnmpType type, uint64_t number) {
  cells_.push_back(Pending{rowOf(index), column, type, number});
}

void TableDataBuilder::addText(std::span<const uint32_t> index, uint32_t column, std::string_view text) {
  auto it = text_ids_.find(text);
  if (it == text_ids_.end()) {
    uint64_t value = (uint64_t(texts_.size()) << 32) | uint64_t(text.size());
    texts_.append(text);
    it = text_ids_.emplace(std::string(text), value).first;
  }
  cells_.push_back(Pending{rowOf(index), column, SnmpType::kOctetString, it->second});
}

TableData TableDataBuilder::finish() {
  TableData out;
  if (cells_.empty()) return out;
  TableData::Layout& layout = layout_;
  layout.clear();

  // Rows in SNMP order; position_of[builder row id] = sorted position.
  std::vector<uint32_t> order(rows_.size());
  std::iota(order.begin(), order.end(), 0u);
  auto indexOf = [this](uint32_t id) {
    return std::span<const uint32_t>(arcs_.data() + rows_[id].start, rows_[id].length);
  };
  std::sort(order.begin(), order.end(), [&](uint32_t a, uint32_t b) { return spanLess(indexOf(a), indexOf(b)); });
  std::vector<uint32_t> position_of(rows_.size());
  layout.row_arcs.reserve(arcs_.size());
  layout.row_starts.reserve(rows_.size() + 1);
  for (uint32_t pos = 0; pos < order.size(); ++pos) {
    position_of[order[pos]] = pos;
    layout.row_starts.push_back(uint32_t(layout.row_arcs.size()));
    std::span<const uint32_t> index = indexOf(order[pos]);
    layout.row_arcs.insert(layout.row_arcs.end(), index.begin(), index.end());
  }
  layout.row_starts.push_back(uint32_t(layout.row_arcs.size()));
  const size_t nrows = rows_.size();
  const size_t words = (nrows + 63) / 64;

  // Cells in SNMP order (column, row); of equal cells the last added wins.
  std::vector<uint32_t> ids;
  for (const Pending& p : cells_) ids.push_back(p.column);
  std::sort(ids.begin(), ids.end());
  ids.erase(std::unique(ids.begin(), ids.end()), ids.end());
  std::vector<std::pair<uint64_t, uint32_t>> keyed;  // (column position << 32 | row position, cell)
  keyed.reserve(cells_.size());
  for (uint32_t i = 0; i < cells_.size(); ++i) {
    const Pending& p = cells_[i];
    uint64_t c = uint64_t(std::lower_bound(ids.begin(), ids.end(), p.column) - ids.begin());
    keyed.emplace_back(c << 32 | position_of[p.row], i);
  }
  std::sort(keyed.begin(), keyed.end());

  layout.columns.reserve(ids.size());
  layout.present.assign(ids.size() * words, 0);
  layout.values.reserve(keyed.size());
  for (size_t k = 0; k < keyed.size(); ++k) {
    if (k + 1 < keyed.size() && keyed[k + 1].first == keyed[k].first) continue;  // a later value replaces it
    const Pending& p = cells_[keyed[k].second];
    const size_t c = size_t(keyed[k].first >> 32);
    const size_t row = size_t(keyed[k].first & 0xffffffffu);
    if (layout.columns.size() <= c) {
      layout.columns.push_back(
          TableData::Column{ids[c], p.type, uint32_t(c * words), uint32_t(layout.values.size())});
    }
    if (layout.columns[c].type != p.type) {
      ++mismatched_;
      continue;
    }
    layout.present[c * words + row / 64] |= uint64_t{1} << (row % 64);
    layout.values.push_back(p.value);
  }
  layout.rank.resize(layout.present.size());
  for (size_t c = 0; c < layout.columns.size(); ++c) {
    uint32_t before = 0;
    for (size_t w = 0; w < words; ++w) {
      layout.rank[c * words + w] = before;
      before += uint32_t(std::popcount(layout.present[c * words + w]));
    }
  }
  layout.texts.swap(texts_);
  out.body_ = TableData::pack(layout);
  // Ready for another table (row_ids_ keeps its functors, which point at arcs_).
  arcs_.clear();
  rows_.clear();
  row_ids_.clear();
  cells_.clear();
  texts_.clear();
  text_ids_.clear();
  return out;
}

// ---- lookups ----

std::optional<CellView> getExact(const TableDef& def, const TableData& data, std::span<const uint32_t> oid) {
  const size_t base = def.entry.size();
  if (data.empty() || oid.size() < base + 2 || !std::equal(def.entry.begin(), def.entry.end(), oid.begin())) {
    return std::nullopt;
  }
  size_t c = data.findColumn(oid[base]);
  if (c == TableData::kNone) return std::nullopt;
  size_t r = data.findRow(oid.subspan(base + 1));
  if (r == TableData::kNone) return std::nullopt;
  return data.cell(c, r);
}

std::optional<CellPos> findNext(const TableDef& def, const TableData& data, std::span<const uint32_t> oid,
                                bool inclusive) {
  if (data.empty()) return std::nullopt;
  const Oid& entry = def.entry;
  const size_t base = entry.size();
  bool under = oid.size() >= base && std::equal(entry.begin(), entry.end(), oid.begin());
  if (!under) {
    // Before the table (or an ancestor of it): its first object. After it: nothing.
    if (spanLess(oid, entry)) return scanFrom(data, 0, 0);
    return std::nullopt;
  }
  if (oid.size() == base) return scanFrom(data, 0, 0);
  size_t c = data.lowerColumn(oid[base]);
  if (c == data.columnCount()) return std::nullopt;
  if (data.columnId(c) != oid[base] || oid.size() == base + 1) return scanFrom(data, c, 0);
  return scanFrom(data, c, data.lowerRow(oid.subspan(base + 1), inclusive));
}

bool getNext(const TableDef& def, const TableData& data, std::span<const uint32_t> oid, bool inclusive, Found* out) {
  std::optional<CellPos> pos = findNext(def, data, oid, inclusive);
  if (!pos) return false;
  out->oid = def.entry;
  out->oid.push_back(data.columnId(pos->column));
  std::span<const uint32_t> index = data.rowIndex(pos->row);
  out->oid.insert(out->oid.end(), index.begin(), index.end());
  out->cell = *data.cell(pos->column, pos->row);
  return true;
}

}  // namespace rdmagw::northbound::snmp
