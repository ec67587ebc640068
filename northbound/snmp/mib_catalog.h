#pragma once
// The SNMP tables the subagent serves: where each table lives, how its rows
// are indexed, and the few columns whose SNMP type is not the default for
// the leaf kind (Counter32 where a standard MIB demands it, scaled gauges).
// Which store leaf lands in which column is NOT here: it is the schema
// table's `oid` column (models/schema_table.cc); this catalog only resolves
// those OIDs to a table and a column.
//
// Defaults by leaf kind: counter -> Counter64, gauge -> Gauge32 (clamped to
// 0..2^32-1), string -> OCTET STRING.

#include <cstddef>
#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "models/schema.h"
#include "models/status.h"
#include "northbound/snmp/oid.h"

namespace rdmagw::northbound::snmp {

enum class SnmpType : uint8_t { kAbsent, kInteger, kOctetString, kCounter32, kGauge32, kTimeTicks, kCounter64 };

// How one index component is built from a store key (the schema row's
// labels, in path order).
enum class IndexPart : uint8_t {
  kIfIndex,   // interface or vmnic name -> stable ifIndex (if_index_registry.h)
  kUnsigned,  // a numeric key such as a priority or an RDMA port number
  kString,    // length-prefixed OCTET STRING: queue names, RDMA device names
};

// kDevice tables are served in each device's context; kGateway tables in
// the default context (where snmpd serves its own IF-MIB: error 263).
enum class TableScope : uint8_t { kDevice, kGateway };

struct ColumnRule {
  uint32_t column;
  SnmpType type;
  double scale = 1.0;     // model unit -> MIB unit (bits/s -> Mbit/s: 1e-6)
  bool if_status = false; // a state string mapped to IF-MIB's up(1)/down(2)/unknown(4)
};

struct TableDef {
  std::string name;      // MIB name of the table, for logs and registrations
  Oid table;             // the table; rows live under table.1 (the entry)
  Oid entry;
  TableScope scope;
  std::vector<IndexPart> index;
  std::vector<ColumnRule> rules;  // columns whose type is not the leaf-kind default

  const ColumnRule* rule(uint32_t column) const;
};

// Where a schema leaf is served: one placement per OID in its `oid` column.
struct Placement {
  size_t table;     // index into MibCatalog::tables()
  uint32_t column;
  SnmpType type;
  double scale;
  bool if_status;
};

class MibCatalog {
 public:
  static const MibCatalog& instance();

  std::span<const TableDef> tables() const { return tables_; }
  // The table whose name is `name`, or tables().size().
  size_t find(std::string_view name) const;
  // Empty for a leaf with no OID or one the catalog could not place.
  std::span<const Placement> placements(const LeafSchema* leaf) const;
  // Every schema OID placed, or one line per OID that is malformed, outside
  // every table, or whose key count does not fit the table's index.
  Status checkSchema() const;

  // Our enterprise arc: PEN 32473 is reserved for documentation (RFC 5612);
  // it stands in until the project has a Private Enterprise Number.
  static constexpr std::string_view kRdmagwMib = "1.3.6.1.4.1.32473.1";

 private:
  MibCatalog();
  std::vector<TableDef> tables_;
  std::vector<std::vector<Placement>> by_leaf_;  // parallel to SchemaTable::leaves()
  std::vector<std::string> errors_;
};

// Well-known table names, so the builder's synthetic columns say what they fill.
inline constexpr std::string_view kIfTable = "ifTable";
inline constexpr std::string_view kIfXTable = "ifXTable";
inline constexpr std::string_view kTargetTable = "rdmagwTargetTable";

}  // namespace rdmagw::northbound::snmp
