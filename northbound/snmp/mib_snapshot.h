#pragma once
// An immutable picture of everything the subagent serves, built off the
// agent thread (snapshot_builder.h) and answered from by the agent thread
// alone: a request never touches the store or a lock.
//
// Per context, per table: sorted columns, sorted row indexes, and per
// column only the cells that are present. SNMP order inside a table is
// column, then row index, so GETNEXT is two binary searches and a scan of
// a presence bitmap; a leaf with no value is absent and is never answered.
//
// Layout (why: at a million series a grid of {type, uint64, std::string}
// cells plus a heap vector per row index cost ~230 B per object):
//   row indexes   all arcs in one uint32 array, plus one start per row
//   presence      per column, one bit per row, and the count of present
//                 cells before each 64-row word (rank), so the value of
//                 (column, row) is found without a scan
//   values        per column, one uint64 per present cell in row order:
//                 the number, or for OCTET STRING where its bytes are in
//                 the table's text blob, where equal texts are stored once
// A column has one SNMP type (a MIB column has one syntax; the catalog
// checks the schema for it), so types cost nothing per cell. All arrays of
// a table share one heap block. rdmagw_snmp_bench (BM_SnmpSnapshotRefresh):
// 22 B per object at 1M series, where the grid took 103 B on the same data.
//
// Longer than a header should be because the snapshot's layout and its lookups
// are one structure, documented where it is declared.

#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "models/value.h"
#include "northbound/snmp/mib_catalog.h"
#include "northbound/snmp/oid.h"

namespace rdmagw::northbound::snmp {

// One present value; `text` points into the snapshot, valid while it is held.
struct CellView {
  SnmpType type = SnmpType::kAbsent;
  uint64_t number = 0;    // INTEGER (as int32 bits), Counter32/64, Gauge32, TimeTicks
  std::string_view text;  // OCTET STRING
};

class TableData {
 public:
  static constexpr size_t kNone = SIZE_MAX;

  bool empty() const { return body_ == nullptr || body_->row_starts.size() <= 1; }
  size_t rowCount() const { return body_ ? body_->row_starts.size() - 1 : 0; }
  size_t columnCount() const { return body_ ? body_->columns.size() : 0; }
  uint32_t columnId(size_t c) const { return body_->columns[c].id; }
  std::span<const uint32_t> rowIndex(size_t r) const;
  // Position of a column id / a row index, or kNone.
  size_t findColumn(uint32_t id) const;
  size_t findRow(std::span<const uint32_t> index) const;
  // First column whose id is >= id; first row whose index is >= (or > when
  // !inclusive) `index`. columnCount() / rowCount() when none.
  size_t lowerColumn(uint32_t id) const;
  size_t lowerRow(std::span<const uint32_t> index, bool inclusive) const;

  std::optional<CellView> cell(size_t c, size_t r) const;
  // The first row >= r holding a present cell in column c, or kNone.
  size_t nextPresent(size_t c, size_t r) const;

  size_t cellCount() const { return body_ ? body_->values.size() : 0; }  // present cells
  size_t heapBytes() const;  // what this table holds on the heap

 private:
  friend class TableDataBuilder;
  struct Column {
    uint32_t id;
    SnmpType type;
    uint32_t first_word;   // into present / rank
    uint32_t first_value;  // into values
  };
  // Every array of a table in one heap block: at a million series most
  // tables are small, and a vector each cost more than their contents.
  struct Body {
    std::span<const uint64_t> present;     // per column ceil(rows/64) words, bit r%64 of word r/64
    std::span<const uint64_t> values;      // per column, present cells in row order
    std::span<const Column> columns;       // sorted by id
    std::span<const uint32_t> row_starts;  // row r is row_arcs[row_starts[r], row_starts[r+1])
    std::span<const uint32_t> row_arcs;    // every row index, in row order
    std::span<const uint32_t> rank;        // per word: present cells of its column before it
    std::string_view texts;                // OCTET STRING bytes; a text value is offset << 32 | length
    std::unique_ptr<uint64_t[]> block;     // owns all of the above
    size_t block_bytes = 0;
  };
  // The same arrays while a table is built (TableDataBuilder reuses them).
  struct Layout {
    std::vector<uint64_t> present, values;
    std::vector<Column> columns;
    std::vector<uint32_t> row_starts, row_arcs, rank;
    std::string texts;
    void clear();
  };
  static std::unique_ptr<const Body> pack(const Layout& layout);
  std::unique_ptr<const Body> body_;  // null: nothing served in this table
};

// Collects one table's cells in any order; finish() sorts them into a
// TableData. Cost: a hash lookup per cell, then sorts within the table.
class TableDataBuilder {
 public:
  TableDataBuilder();
  // Not copied or moved: the row hash refers to arcs_ by address.
  TableDataBuilder(const TableDataBuilder&) = delete;
  TableDataBuilder& operator=(const TableDataBuilder&) = delete;
  // The last value given for a (column, index) wins. A cell whose type is
  // not its column's (the column takes its first cell's type) is left out
  // and counted in mismatched().
  void addNumber(std::span<const uint32_t> index, uint32_t column, SnmpType type, uint64_t number);
  void addText(std::span<const uint32_t> index, uint32_t column, std::string_view text);
  bool empty() const { return cells_.empty(); }
  size_t mismatched() const { return mismatched_; }
  TableData finish();

 private:
  struct Pending {
    uint32_t row;  // builder row id (order of first appearance)
    uint32_t column;
    SnmpType type;
    uint64_t value;
  };
  struct RowKey {
    uint32_t start;
    uint32_t length;
  };
  struct RowHash {
    const std::vector<uint32_t>* arcs;
    size_t operator()(const RowKey& k) const;
  };
  struct RowEq {
    const std::vector<uint32_t>* arcs;
    bool operator()(const RowKey& a, const RowKey& b) const;
  };
  struct TextHash {
    using is_transparent = void;
    size_t operator()(std::string_view s) const { return std::hash<std::string_view>()(s); }
  };
  uint32_t rowOf(std::span<const uint32_t> index);

  std::vector<uint32_t> arcs_;  // row indexes in order of first appearance
  std::vector<RowKey> rows_;
  std::unordered_map<RowKey, uint32_t, RowHash, RowEq> row_ids_;
  std::vector<Pending> cells_;
  std::string texts_;
  std::unordered_map<std::string, uint64_t, TextHash, std::equal_to<>> text_ids_;  // interned text -> value
  TableData::Layout layout_;  // scratch for finish()
  size_t mismatched_ = 0;
};

// A found object: its full OID and its value.
struct Found {
  Oid oid;
  CellView cell;
};

// Exact lookup of `oid` in `data`, which serves table `def`; empty if absent.
std::optional<CellView> getExact(const TableDef& def, const TableData& data, std::span<const uint32_t> oid);

// Where the first present object strictly after `oid` (at or after when
// `inclusive`) is, as (column, row) positions; empty when the table has
// nothing past it. The agent builds the answer's OID from the positions
// without an intermediate vector.
struct CellPos {
  size_t column;
  size_t row;
};
std::optional<CellPos> findNext(const TableDef& def, const TableData& data, std::span<const uint32_t> oid,
                                bool inclusive);
// The same, as an OID and a value.
bool getNext(const TableDef& def, const TableData& data, std::span<const uint32_t> oid, bool inclusive, Found* out);

struct ContextData {
  std::vector<TableData> tables;  // parallel to MibCatalog::tables()
};

struct MibSnapshot {
  std::map<std::string, ContextData> contexts;  // "" is the default context
  TimestampNs built_ns = 0;
  int64_t build_duration_ns = 0;
  size_t cells = 0;
  size_t mismatched_cells = 0;  // left out: type not their column's
};

using MibSnapshotPtr = std::shared_ptr<const MibSnapshot>;

}  // namespace rdmagw::northbound::snmp
