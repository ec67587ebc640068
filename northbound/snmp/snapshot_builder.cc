#include "northbound/snmp/snapshot_builder.h"

#include <algorithm>
#include <cmath>
#include <map>
#include <optional>

#include "models/log.h"

namespace rdmagw::northbound::snmp {
namespace {

constexpr uint32_t kEthernetCsmacd = 6;  // IANAifType

// One builder per catalog table, reused from context to context.
using Pending = std::vector<TableDataBuilder>;

// A NaN or an infinity has no SNMP number, and converting one to an integer
// is undefined behaviour: such a value leaves its cell absent.
bool numberOf(const Value& v, double* out) { return valueAsDouble(v, out) && std::isfinite(*out); }

// IF-MIB ifOperStatus/ifAdminStatus from the states sources report (ESXi
// "Up", sysfs "ACTIVE", OpenConfig "TESTING"); 4 is unknown(4), which only
// ifOperStatus has.
uint64_t ifStatusOf(const std::string& s) {
  std::string lower;
  for (char c : s) lower += char(std::tolower(static_cast<unsigned char>(c)));
  if (lower == "up" || lower == "active" || lower == "linkup") return 1;
  if (lower == "down" || lower == "disabled") return 2;
  if (lower == "testing") return 3;
  return 4;
}

// Adds the cell a store value makes in a column of placement `p`; false
// (nothing added) when the value does not fit the column's type.
bool addCell(TableDataBuilder& table, std::span<const uint32_t> index, const Value& value, const Placement& p) {
  double d = 0;
  uint64_t number = 0;
  switch (p.type) {
    case SnmpType::kOctetString:
      if (const std::string* text = std::get_if<std::string>(&value)) {
        table.addText(index, p.column, *text);
      } else {
        table.addText(index, p.column, valueToString(value));
      }
      return true;
    case SnmpType::kInteger:
      if (p.map == SnmpValueMap::kIfStatus || p.map == SnmpValueMap::kIfAdminStatus) {
        if (!std::holds_alternative<std::string>(value)) return false;
        number = ifStatusOf(std::get<std::string>(value));
        if (number == 4 && p.map == SnmpValueMap::kIfAdminStatus) return false;
      } else if (p.map == SnmpValueMap::kTruthValue) {
        if (!numberOf(value, &d)) return false;
        number = d != 0 ? 1 : 2;  // TruthValue: true(1), false(2)
      } else {
        if (!numberOf(value, &d)) return false;
        number = uint64_t(uint32_t(int32_t(std::clamp(d * p.scale, -2147483648.0, 2147483647.0))));
      }
      break;
    case SnmpType::kCounter64:
    case SnmpType::kCounter32:
      if (const uint64_t* u = std::get_if<uint64_t>(&value); u && p.scale == 1.0) {
        number = *u;
      } else {
        if (!numberOf(value, &d) || d < 0) return false;
        number = uint64_t(d * p.scale);
      }
      // Counter32 columns wrap mod 2^32, as a 32-bit counter on the device would.
      if (p.type == SnmpType::kCounter32) number &= 0xffffffffu;
      break;
    case SnmpType::kGauge32:
    case SnmpType::kTimeTicks:
      if (!numberOf(value, &d)) return false;
      number = uint64_t(std::llround(std::clamp(d * p.scale, 0.0, 4294967295.0)));
      break;
    case SnmpType::kAbsent:
      return false;
  }
  table.addNumber(index, p.column, p.type, number);
  return true;
}

constexpr size_t kMaxStringIndexOctets = 96;

bool appendIndex(const TableDef& def, std::span<const std::string> keys, uint32_t if_index, Oid* out) {
  for (size_t i = 0; i < def.index.size(); ++i) {
    switch (def.index[i]) {
      case IndexPart::kIfIndex:
        out->push_back(if_index);
        break;
      case IndexPart::kUnsigned: {
        const std::string& k = keys[i];
        char* end = nullptr;
        unsigned long v = std::strtoul(k.c_str(), &end, 10);
        if (k.empty() || *end != '\0' || v > 0xffffffffUL) return false;
        out->push_back(uint32_t(v));
        break;
      }
      case IndexPart::kString:
        // Longer would bring the row's OID near SNMP's limit of 128
        // sub-identifiers (a finding id joins group, check and port): such a
        // row is served by Prometheus and gNMI only.
        if (keys[i].size() > kMaxStringIndexOctets) return false;
        appendStringIndex(out, keys[i]);
        break;
    }
  }
  return true;
}

// Finishes every table of `scope` into `ctx`, counting what it serves.
void finishTables(Pending& pending, TableScope scope, ContextData* ctx, MibSnapshot* snap) {
  const MibCatalog& catalog = MibCatalog::instance();
  ctx->tables.resize(pending.size());
  for (size_t i = 0; i < pending.size(); ++i) {
    if (catalog.tables()[i].scope != scope) continue;
    ctx->tables[i] = pending[i].finish();
    snap->cells += ctx->tables[i].cellCount();
  }
}

// The value of a gateway metric for a target, in the metric's unit (the
// placement scales it), as the Prometheus exposition reports it; nothing
// when the target has none yet.
std::optional<Value> gatewayValue(std::string_view id, const TargetStatus& t) {
  const TargetHealth& h = t.health;
  if (id == "target_up") return Value(uint64_t(h.up ? 1 : 0));
  if (id == "last_success") {
    if (h.last_success_ns <= 0) return std::nullopt;
    return Value(uint64_t(h.last_success_ns / 1'000'000'000));
  }
  if (id == "series") return Value(t.series);
  if (id == "polls") return Value(h.polls);
  if (id == "poll_errors") return Value(h.poll_errors);
  if (id == "read_errors") return Value(h.read_errors);
  if (id == "poll_duration") return Value(double(std::max<int64_t>(h.poll_duration_ns, 0) / 1'000'000) / 1e3);
  if (id == "counter_resets") return Value(t.counter_resets);
  if (id == "rejected_updates") return Value(t.rejected_updates);
  return std::nullopt;
}

// The value of a label of the target's metrics (target_info's).
std::optional<Value> gatewayLabel(std::string_view label, const TargetStatus& t) {
  if (label == kTargetLabel) return Value(t.name);
  if (label == "kind") return Value(t.health.kind);
  if (label == "transport") return Value(t.health.transport);
  return std::nullopt;
}

bool isFleetColumn(SnmpDerived from) {
  switch (from) {
    case SnmpDerived::kFleetTarget:
    case SnmpDerived::kFleetOwner:
    case SnmpDerived::kFleetOwnerSnmp:
    case SnmpDerived::kFleetOwnerGnmi:
    case SnmpDerived::kFleetOwnedHere:
      return true;
    default:
      return false;
  }
}

// One row per target of the fleet: its owner and where the owner answers.
// A target whose owner is not known yet (the member set has not come from
// etcd) keeps its row, with the owner columns empty: the NMS still sees
// the device exists.
void addFleetRows(const FleetSnapshot& fleet, std::span<const Placement> columns, Pending& pending) {
  std::map<std::string_view, const FleetMemberView*> members;
  for (const FleetMemberView& m : fleet.members) members.emplace(m.name, &m);
  auto address = [](const FleetMemberView* m, const char* northbound) -> std::string {
    if (m == nullptr) return {};
    auto it = m->addresses.find(northbound);
    return it == m->addresses.end() ? std::string() : it->second;
  };
  Oid index;
  for (const auto& [target, owner] : fleet.owners) {
    index.clear();
    appendStringIndex(&index, target);
    auto it = members.find(owner);
    const FleetMemberView* member = it == members.end() ? nullptr : it->second;
    for (const Placement& p : columns) {
      TableDataBuilder& table = pending[p.table];
      switch (p.from) {
        case SnmpDerived::kFleetTarget: addCell(table, index, Value(target), p); break;
        case SnmpDerived::kFleetOwner: addCell(table, index, Value(owner), p); break;
        case SnmpDerived::kFleetOwnerSnmp: addCell(table, index, Value(address(member, "snmp")), p); break;
        case SnmpDerived::kFleetOwnerGnmi: addCell(table, index, Value(address(member, "gnmi")), p); break;
        case SnmpDerived::kFleetOwnedHere:
          addCell(table, index, Value(uint64_t(!owner.empty() && owner == fleet.self ? 1 : 0)), p);
          break;
        default:  // not a fleet column (isFleetColumn picked these)
          break;
      }
    }
  }
}

struct InterfaceSeen {
  uint32_t if_index = 0;
  TimestampNs discontinuity_ns = 0;
};

}  // namespace

SnapshotBuilder::SnapshotBuilder(const Store& store, IfIndexRegistry& registry, TimestampNs agent_start_ns,
                                 const FleetView* fleet)
    : store_(store), registry_(registry), agent_start_ns_(agent_start_ns), fleet_(fleet) {
  for (const LeafSchema& leaf : SchemaTable::instance().leaves()) {
    std::vector<std::string_view> labels = SchemaTable::splitLabels(leaf.labels);
    interface_keyed_.push_back(!labels.empty() && (labels[0] == "interface" || labels[0] == "nic"));
  }
  for (const TableDef& def : MibCatalog::instance().tables()) {
    for (const Placement& p : def.derived) {
      if (isFleetColumn(p.from)) {
        fleet_columns_.push_back(p);
      } else {
        (p.from == SnmpDerived::kTargetLastError ? target_columns_ : interface_columns_).push_back(p);
      }
    }
  }
}

MibSnapshotPtr SnapshotBuilder::build() {
  const TimestampNs start = nowNs();
  const MibCatalog& catalog = MibCatalog::instance();
  const size_t ntables = catalog.tables().size();
  const LeafSchema* first_leaf = SchemaTable::instance().leaves().data();
  auto snap = std::make_shared<MibSnapshot>();

  // One set of table builders for every context: finish() leaves each
  // ready for the next, so its buffers are allocated once per build.
  Pending pending(ntables);
  std::vector<TargetStatus> targets = store_.targets();
  for (const TargetStatus& t : targets) {
    Oid index;
    appendStringIndex(&index, t.name);
    for (const GatewayMetric& m : SchemaTable::instance().gatewayMetrics()) {
      for (const Placement& p : catalog.placements(&m)) {
        std::optional<Value> v = p.label.empty() ? gatewayValue(m.id, t) : gatewayLabel(p.label, t);
        if (v && catalog.tables()[p.table].index.size() == 1) addCell(pending[p.table], index, *v, p);
      }
    }
    for (const Placement& p : target_columns_) {
      if (p.from == SnmpDerived::kTargetLastError) addCell(pending[p.table], index, Value(t.health.last_error), p);
    }
  }
  if (fleet_ != nullptr && !fleet_columns_.empty()) {
    // Read before the copy: a set() in between makes the next build copy again.
    if (const uint64_t version = fleet_->version(); version != fleet_version_) {
      fleet_copy_ = fleet_->snapshot();
      fleet_version_ = version;
    }
    if (fleet_copy_.enabled) addFleetRows(fleet_copy_, fleet_columns_, pending);
  }
  finishTables(pending, TableScope::kGateway, &snap->contexts[""], snap.get());

  Oid index;  // reused: one index per placed leaf, no allocation once grown
  for (const TargetStatus& t : targets) {
    std::map<std::string, InterfaceSeen, std::less<>> interfaces;
    auto visit = [&](const SeriesView& s) {
      if (s.schema == nullptr) return;
      std::span<const Placement> places = catalog.placements(s.schema);
      uint32_t if_index = 0;
      if (interface_keyed_[size_t(s.schema - first_leaf)] && !s.label_values.empty()) {
        auto it = interfaces.find(s.label_values[0]);
        if (it == interfaces.end()) {
          it = interfaces.emplace(s.label_values[0], InterfaceSeen{registry_.indexOf(t.name, s.label_values[0]), 0}).first;
        }
        it->second.discontinuity_ns = std::max(it->second.discontinuity_ns, s.discontinuity_ns);
        if_index = it->second.if_index;
      }
      for (const Placement& p : places) {
        const TableDef& def = catalog.tables()[p.table];
        if (s.label_values.size() != def.index.size()) continue;
        index.clear();
        if (!appendIndex(def, s.label_values, if_index, &index)) continue;
        addCell(pending[p.table], index, s.value, p);
      }
    };
    store_.forEachIn(t.name, visit);
    // Derived ifIndex: names new to this build that collided take their
    // numbers in name order, as a member seeing them all at once would; the
    // cells placed under the numbers first given are dropped and placed
    // again (rare: only a collision in the 31-bit hash does it). Bounded:
    // a name added by a collector between passes settles with the next one.
    for (int pass = 0; pass < 2 && registry_.settle(t.name); ++pass) {
      for (TableDataBuilder& b : pending) (void)b.finish();
      interfaces.clear();
      store_.forEachIn(t.name, visit);
    }
    for (const auto& [name, seen] : interfaces) {
      const uint32_t row[] = {seen.if_index};
      // TimeStamp: hundredths of a second since the agent started.
      const TimestampNs since = seen.discontinuity_ns > agent_start_ns_ ? seen.discontinuity_ns - agent_start_ns_ : 0;
      for (const Placement& p : interface_columns_) {
        switch (p.from) {
          case SnmpDerived::kIfIndex: addCell(pending[p.table], row, Value(uint64_t(seen.if_index)), p); break;
          case SnmpDerived::kIfName:
            if (p.type == SnmpType::kOctetString) {
              pending[p.table].addText(row, p.column, name);  // no copy of the name per row
            } else {
              addCell(pending[p.table], row, Value(name), p);
            }
            break;
          case SnmpDerived::kIfType: addCell(pending[p.table], row, Value(uint64_t(kEthernetCsmacd)), p); break;
          case SnmpDerived::kDiscontinuityTime: addCell(pending[p.table], row, Value(uint64_t(since / 10'000'000)), p); break;
          case SnmpDerived::kNone:
          case SnmpDerived::kTargetLastError:
          case SnmpDerived::kFleetTarget:
          case SnmpDerived::kFleetOwner:
          case SnmpDerived::kFleetOwnerSnmp:
          case SnmpDerived::kFleetOwnerGnmi:
          case SnmpDerived::kFleetOwnedHere:
            break;
        }
      }
    }
    finishTables(pending, TableScope::kDevice, &snap->contexts[t.name], snap.get());
  }
  for (const TableDataBuilder& b : pending) snap->mismatched_cells += b.mismatched();
  if (Status st = registry_.saveIfChanged(); !st.isOk()) {
    RDMAGW_LOG(kWarn, "snmp") << "ifIndex state not saved (indexes stay stable while running): " << st.message();
  }
  snap->built_ns = nowNs();
  snap->build_duration_ns = snap->built_ns - start;
  return snap;
}

}  // namespace rdmagw::northbound::snmp
