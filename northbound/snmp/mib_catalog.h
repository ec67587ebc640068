#pragma once
// The SNMP tables the subagent serves, resolved from the schema table
// (models/schema.yaml, snmp.tables): where each table lives, how its rows
// are indexed, and where every leaf, gateway metric and table-derived value
// is placed, with its SNMP type, scale and value mapping. This file holds
// no table, column or OID of its own: a new column is a schema entry.

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
// labels, in path order): kIfIndex, kUnsigned, kString.
using IndexPart = SnmpIndexKind;

// kDevice tables are served in each device's context; kGateway tables in
// the default context (where snmpd serves its own IF-MIB: error 263).
using TableScope = SnmpScope;

// Where a value is served: a column of one table.
struct Placement {
  size_t table;     // index into MibCatalog::tables()
  uint32_t column;
  SnmpType type;
  double scale;     // model unit -> MIB unit
  SnmpValueMap map;
  std::string_view label;  // gateway metrics: the label whose value fills the column
  SnmpDerived from;        // table-derived columns
};

struct TableDef {
  std::string name;      // MIB name of the table, for logs and registrations
  Oid table;             // the table; rows live under table.1 (the entry)
  Oid entry;
  TableScope scope;
  std::vector<IndexPart> index;
  std::vector<Placement> derived;  // columns filled from the row's key or the target's health
};

class MibCatalog {
 public:
  static const MibCatalog& instance();

  std::span<const TableDef> tables() const { return tables_; }
  // The table whose name is `name`, or tables().size().
  size_t find(std::string_view name) const;
  // Empty for a leaf with no SNMP placement.
  std::span<const Placement> placements(const LeafSchema* leaf) const;
  std::span<const Placement> placements(const GatewayMetric* metric) const;
  // The first table-derived column filled from `from`, or nullptr.
  const Placement* derivedColumn(SnmpDerived from) const;
  // Every table OID parsed, or one line per one that is not an OID.
  Status checkSchema() const;

 private:
  MibCatalog();
  std::vector<TableDef> tables_;
  std::vector<std::vector<Placement>> by_leaf_;     // parallel to SchemaTable::leaves()
  std::vector<std::vector<Placement>> by_gateway_;  // parallel to SchemaTable::gatewayMetrics()
  std::vector<std::string> errors_;
};

}  // namespace rdmagw::northbound::snmp
