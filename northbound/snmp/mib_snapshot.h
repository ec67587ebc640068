#pragma once
// An immutable picture of everything the subagent serves, built off the
// agent thread (snapshot_builder.h) and answered from by the agent thread
// alone: a request never touches the store or a lock.
//
// Per context, per table: sorted columns, sorted row indexes and a
// column-major grid of cells. SNMP order inside a table is column, then
// row index, so GETNEXT is two binary searches and a short scan over absent
// cells; a leaf with no value is an absent cell and is never answered.

#include <cstdint>
#include <map>
#include <memory>
#include <span>
#include <string>
#include <vector>

#include "models/value.h"
#include "northbound/snmp/mib_catalog.h"
#include "northbound/snmp/oid.h"

namespace rdmagw::northbound::snmp {

struct Cell {
  SnmpType type = SnmpType::kAbsent;
  uint64_t number = 0;  // INTEGER (as int32 bits), Counter32/64, Gauge32, TimeTicks
  std::string text;     // OCTET STRING
};

struct TableData {
  std::vector<uint32_t> columns;  // sorted, unique
  std::vector<Oid> rows;          // sorted, unique index suffixes
  std::vector<Cell> cells;        // cells[c * rows.size() + r]

  bool empty() const { return rows.empty(); }
  size_t cellCount() const;  // present cells
  const Cell& at(size_t c, size_t r) const { return cells[c * rows.size() + r]; }
};

// A found object: its full OID and its value.
struct Found {
  Oid oid;
  const Cell* cell = nullptr;
};

// Exact lookup of `oid` in `data`, which serves table `def`; null if absent.
const Cell* getExact(const TableDef& def, const TableData& data, std::span<const uint32_t> oid);
// The first present object in the table strictly after `oid` (at or after
// when `inclusive`); false when the table has nothing past it.
bool getNext(const TableDef& def, const TableData& data, std::span<const uint32_t> oid, bool inclusive, Found* out);

struct ContextData {
  std::vector<TableData> tables;  // parallel to MibCatalog::tables()
};

struct MibSnapshot {
  std::map<std::string, ContextData> contexts;  // "" is the default context
  TimestampNs built_ns = 0;
  int64_t build_duration_ns = 0;
  size_t cells = 0;
};

using MibSnapshotPtr = std::shared_ptr<const MibSnapshot>;

}  // namespace rdmagw::northbound::snmp
