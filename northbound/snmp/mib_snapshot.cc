#include "northbound/snmp/mib_snapshot.h"

#include <algorithm>

namespace rdmagw::northbound::snmp {
namespace {

bool spanLess(std::span<const uint32_t> a, std::span<const uint32_t> b) {
  return std::lexicographical_compare(a.begin(), a.end(), b.begin(), b.end());
}

// First present cell at or after (c, r) in column-major order.
bool scanFrom(const TableDef& def, const TableData& data, size_t c, size_t r, Found* out) {
  const size_t nrows = data.rows.size();
  for (; c < data.columns.size(); ++c, r = 0) {
    for (; r < nrows; ++r) {
      const Cell& cell = data.at(c, r);
      if (cell.type == SnmpType::kAbsent) continue;
      out->oid = def.entry;
      out->oid.push_back(data.columns[c]);
      out->oid.insert(out->oid.end(), data.rows[r].begin(), data.rows[r].end());
      out->cell = &cell;
      return true;
    }
  }
  return false;
}

}  // namespace

size_t TableData::cellCount() const {
  size_t n = 0;
  for (const Cell& c : cells) n += c.type != SnmpType::kAbsent;
  return n;
}

const Cell* getExact(const TableDef& def, const TableData& data, std::span<const uint32_t> oid) {
  const size_t base = def.entry.size();
  if (oid.size() < base + 2 || !std::equal(def.entry.begin(), def.entry.end(), oid.begin())) return nullptr;
  auto col = std::lower_bound(data.columns.begin(), data.columns.end(), oid[base]);
  if (col == data.columns.end() || *col != oid[base]) return nullptr;
  std::span<const uint32_t> index = oid.subspan(base + 1);
  auto row = std::lower_bound(data.rows.begin(), data.rows.end(), index,
                              [](const Oid& a, std::span<const uint32_t> b) { return spanLess(a, b); });
  if (row == data.rows.end() || !std::equal(row->begin(), row->end(), index.begin(), index.end())) return nullptr;
  const Cell& cell = data.at(size_t(col - data.columns.begin()), size_t(row - data.rows.begin()));
  return cell.type == SnmpType::kAbsent ? nullptr : &cell;
}

bool getNext(const TableDef& def, const TableData& data, std::span<const uint32_t> oid, bool inclusive, Found* out) {
  if (data.empty()) return false;
  const Oid& entry = def.entry;
  const size_t base = entry.size();
  bool under = oid.size() >= base && std::equal(entry.begin(), entry.end(), oid.begin());
  if (!under) {
    // Before the table (or an ancestor of it): its first object. After it: nothing.
    if (spanLess(oid, entry)) return scanFrom(def, data, 0, 0, out);
    return false;
  }
  if (oid.size() == base) return scanFrom(def, data, 0, 0, out);
  auto col = std::lower_bound(data.columns.begin(), data.columns.end(), oid[base]);
  size_t c = size_t(col - data.columns.begin());
  if (col == data.columns.end()) return false;
  if (*col != oid[base] || oid.size() == base + 1) return scanFrom(def, data, c, 0, out);
  std::span<const uint32_t> index = oid.subspan(base + 1);
  auto cmp = [](const Oid& a, std::span<const uint32_t> b) { return spanLess(a, b); };
  auto row = inclusive ? std::lower_bound(data.rows.begin(), data.rows.end(), index, cmp)
                       : std::upper_bound(data.rows.begin(), data.rows.end(), index,
                                          [](std::span<const uint32_t> b, const Oid& a) { return spanLess(b, a); });
  return scanFrom(def, data, c, size_t(row - data.rows.begin()), out);
}

}  // namespace rdmagw::northbound::snmp
