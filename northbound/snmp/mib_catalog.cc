#include "northbound/snmp/mib_catalog.h"

#include <algorithm>
#include <map>

namespace rdmagw::northbound::snmp {
namespace {

using enum IndexPart;
constexpr SnmpType C32 = SnmpType::kCounter32;
constexpr SnmpType G32 = SnmpType::kGauge32;

struct Row {
  const char* name;
  std::string table_oid;
  TableScope scope;
  std::vector<IndexPart> index;
  std::vector<ColumnRule> rules;
};

std::string rdmagw(const char* rest) { return std::string(MibCatalog::kRdmagwMib) + rest; }

// One row per table. Standard tables first (their MIBs name the columns),
// then RDMAGW-MIB (mibs/RDMAGW-MIB.txt documents every column and index).
std::vector<Row> tableRows() {
  return {
      // IF-MIB (RFC 2863). ifIndex, ifDescr, ifType come from the interface
      // registry; ifInOctets & co are the model's 64-bit counters mod 2^32.
      {"ifTable", "1.3.6.1.2.1.2.2", TableScope::kDevice, {kIfIndex},
       {{1, SnmpType::kInteger}, {2, SnmpType::kOctetString}, {3, SnmpType::kInteger},
        {4, SnmpType::kInteger}, {5, G32}, {7, SnmpType::kInteger, 1.0, true}, {8, SnmpType::kInteger, 1.0, true},
        {10, C32}, {11, C32}, {13, C32}, {14, C32}, {16, C32}, {17, C32}, {19, C32}, {20, C32}}},
      // ifName and ifCounterDiscontinuityTime from the registry and the store.
      {"ifXTable", "1.3.6.1.2.1.31.1.1", TableScope::kDevice, {kIfIndex},
       {{1, SnmpType::kOctetString}, {2, C32}, {3, C32}, {4, C32}, {5, C32},
        {15, G32, 1e-6}, {19, SnmpType::kTimeTicks}}},
      // EtherLike-MIB (RFC 3635) dot3PauseTable.
      {"dot3PauseTable", "1.3.6.1.2.1.10.7.10", TableScope::kDevice, {kIfIndex}, {{3, C32}, {4, C32}}},
      // IEEE8021-PFC-MIB: requests/indications are Counter32 there.
      {"ieee8021PfcIfTable", "1.3.111.2.802.1.1.21.1.1", TableScope::kDevice, {kIfIndex}, {{2, C32}, {3, C32}}},
      // CISCO-PFC-EXT-MIB, as NX-OS and SONiC serve it (Counter64).
      {"cpfcIfTable", "1.3.6.1.4.1.9.9.813.1.1", TableScope::kDevice, {kIfIndex}, {}},
      {"cpfcIfPriorityTable", "1.3.6.1.4.1.9.9.813.1.2", TableScope::kDevice, {kIfIndex, kUnsigned}, {}},
      // RDMAGW-MIB.
      {"rdmagwTargetTable", rdmagw(".1.1"), TableScope::kGateway, {kString},
       {{4, SnmpType::kInteger}, {6, G32}, {7, G32}, {11, G32}}},
      {"rdmagwIfTable", rdmagw(".1.2"), TableScope::kDevice, {kIfIndex}, {}},
      {"rdmagwPfcPriorityTable", rdmagw(".1.3"), TableScope::kDevice, {kIfIndex, kUnsigned}, {}},
      {"rdmagwQueueTable", rdmagw(".1.4"), TableScope::kDevice, {kIfIndex, kString}, {}},
      {"rdmagwRdmaDeviceTable", rdmagw(".1.5"), TableScope::kDevice, {kString}, {}},
      {"rdmagwRdmaPortTable", rdmagw(".1.6"), TableScope::kDevice, {kString, kUnsigned}, {{6, G32, 1e-6}}},
      {"rdmagwVmnicTable", rdmagw(".1.7"), TableScope::kDevice, {kIfIndex}, {}},
      // The analytics' verdicts (codes, alarms, tree size as Gauge32; texts).
      {"rdmagwFabricPrioTable", rdmagw(".1.8"), TableScope::kDevice, {kIfIndex, kUnsigned}, {}},
      {"rdmagwFabricDcqcnTable", rdmagw(".1.9"), TableScope::kDevice, {kString, kUnsigned}, {}},
      {"rdmagwFabricDcbTable", rdmagw(".1.10"), TableScope::kDevice, {kIfIndex}, {}},
  };
}

SnmpType defaultType(LeafKind kind) {
  switch (kind) {
    case LeafKind::kCounter: return SnmpType::kCounter64;
    case LeafKind::kGauge: return SnmpType::kGauge32;
    case LeafKind::kString: return SnmpType::kOctetString;
  }
  return SnmpType::kOctetString;
}

}  // namespace

const ColumnRule* TableDef::rule(uint32_t column) const {
  for (const ColumnRule& r : rules) {
    if (r.column == column) return &r;
  }
  return nullptr;
}

MibCatalog::MibCatalog() {
  for (Row& row : tableRows()) {
    TableDef def;
    def.name = row.name;
    def.table = *parseOid(row.table_oid);  // literals above: a bad one is a code bug caught by tests
    def.entry = def.table;
    def.entry.push_back(1);
    def.scope = row.scope;
    def.index = std::move(row.index);
    def.rules = std::move(row.rules);
    tables_.push_back(std::move(def));
  }
  std::span<const LeafSchema> leaves = SchemaTable::instance().leaves();
  by_leaf_.resize(leaves.size());
  for (size_t i = 0; i < leaves.size(); ++i) {
    const LeafSchema& leaf = leaves[i];
    std::string_view rest = leaf.oid;
    size_t keys = SchemaTable::splitLabels(leaf.labels).size();
    while (!rest.empty()) {
      size_t space = rest.find(' ');
      std::string_view one = rest.substr(0, space);
      rest = space == std::string_view::npos ? std::string_view() : rest.substr(space + 1);
      if (one.empty()) continue;
      std::string where = std::string(leaf.path) + ": oid " + std::string(one);
      Result<Oid> oid = parseOid(one);
      if (!oid.isOk()) {
        errors_.push_back(where + ": " + oid.status().message());
        continue;
      }
      size_t t = 0;
      while (t < tables_.size() && !(oidHasPrefix(*oid, tables_[t].entry) && oid->size() == tables_[t].entry.size() + 1)) ++t;
      if (t == tables_.size()) {
        errors_.push_back(where + ": not a column of any table the SNMP northbound serves");
        continue;
      }
      if (tables_[t].index.size() != keys) {
        errors_.push_back(where + ": " + tables_[t].name + " has " + std::to_string(tables_[t].index.size()) +
                          " index parts but the leaf has " + std::to_string(keys) + " keys");
        continue;
      }
      uint32_t column = oid->back();
      Placement p{t, column, defaultType(leaf.kind), 1.0, false};
      if (const ColumnRule* r = tables_[t].rule(column)) {
        p.type = r->type;
        p.scale = r->scale;
        p.if_status = r->if_status;
      }
      by_leaf_[i].push_back(p);
    }
  }
  // A MIB column has one syntax, and the snapshot stores one type per
  // column (mib_snapshot.h): leaves placed in one column must agree.
  std::map<std::pair<size_t, uint32_t>, std::pair<SnmpType, std::string_view>> column_types;
  for (size_t i = 0; i < leaves.size(); ++i) {
    for (const Placement& p : by_leaf_[i]) {
      auto [it, added] = column_types.emplace(std::make_pair(p.table, p.column), std::make_pair(p.type, leaves[i].path));
      if (!added && it->second.first != p.type) {
        errors_.push_back(std::string(leaves[i].path) + ": " + tables_[p.table].name + " column " +
                          std::to_string(p.column) + " has another SNMP type than for " + std::string(it->second.second));
      }
    }
  }
}

const MibCatalog& MibCatalog::instance() {
  static const MibCatalog catalog;
  return catalog;
}

size_t MibCatalog::find(std::string_view name) const {
  for (size_t i = 0; i < tables_.size(); ++i) {
    if (tables_[i].name == name) return i;
  }
  return tables_.size();
}

std::span<const Placement> MibCatalog::placements(const LeafSchema* leaf) const {
  std::span<const LeafSchema> leaves = SchemaTable::instance().leaves();
  if (leaf == nullptr || leaf < leaves.data() || leaf >= leaves.data() + leaves.size()) return {};
  return by_leaf_[size_t(leaf - leaves.data())];
}

Status MibCatalog::checkSchema() const {
  if (errors_.empty()) return Status::ok();
  std::string msg;
  for (const std::string& e : errors_) msg += (msg.empty() ? "" : "\n") + e;
  return Status::internal(msg);
}

}  // namespace rdmagw::northbound::snmp
