#include "northbound/snmp/mib_catalog.h"

namespace rdmagw::northbound::snmp {
namespace {

SnmpType typeOf(SnmpSyntax s) {
  switch (s) {
    case SnmpSyntax::kInteger: return SnmpType::kInteger;
    case SnmpSyntax::kOctetString: return SnmpType::kOctetString;
    case SnmpSyntax::kCounter32: return SnmpType::kCounter32;
    case SnmpSyntax::kGauge32: return SnmpType::kGauge32;
    case SnmpSyntax::kTimeTicks: return SnmpType::kTimeTicks;
    case SnmpSyntax::kCounter64: return SnmpType::kCounter64;
  }
  return SnmpType::kAbsent;
}

std::vector<Placement> placementsOf(std::span<const SnmpPlacement> in) {
  std::vector<Placement> out;
  for (const SnmpPlacement& p : in) out.push_back({p.table, p.column, typeOf(p.type), p.scale, p.map, p.label, p.from});
  return out;
}

}  // namespace

MibCatalog::MibCatalog() {
  const SchemaTable& schema = SchemaTable::instance();
  for (const SnmpTableSchema& t : schema.snmpTables()) {
    TableDef def;
    def.name = std::string(t.name);
    Result<Oid> oid = parseOid(t.oid);
    if (!oid.isOk()) {
      errors_.push_back(def.name + ": oid " + std::string(t.oid) + ": " + oid.status().message());
    } else {
      def.table = *oid;
    }
    def.entry = def.table;
    def.entry.push_back(1);
    def.scope = t.scope;
    def.index.assign(t.index.begin(), t.index.end());
    def.derived = placementsOf(t.derived);
    tables_.push_back(std::move(def));
  }
  for (const LeafSchema& leaf : schema.leaves()) by_leaf_.push_back(placementsOf(leaf.snmp));
  for (const GatewayMetric& m : schema.gatewayMetrics()) by_gateway_.push_back(placementsOf(m.snmp));
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

std::span<const Placement> MibCatalog::placements(const GatewayMetric* metric) const {
  std::span<const GatewayMetric> metrics = SchemaTable::instance().gatewayMetrics();
  if (metric == nullptr || metric < metrics.data() || metric >= metrics.data() + metrics.size()) return {};
  return by_gateway_[size_t(metric - metrics.data())];
}

const Placement* MibCatalog::derivedColumn(SnmpDerived from) const {
  for (const TableDef& t : tables_) {
    for (const Placement& p : t.derived) {
      if (p.from == from) return &p;
    }
  }
  return nullptr;
}

Status MibCatalog::checkSchema() const {
  if (errors_.empty()) return Status::ok();
  std::string msg;
  for (const std::string& e : errors_) msg += (msg.empty() ? "" : "\n") + e;
  return Status::internal(msg);
}

}  // namespace rdmagw::northbound::snmp
