#include "northbound/snmp/snapshot_builder.h"

#include <algorithm>
#include <cmath>
#include <map>

#include "models/log.h"

namespace rdmagw::northbound::snmp {
namespace {

constexpr uint32_t kEthernetCsmacd = 6;  // IANAifType

struct PendingCell {
  Oid index;
  uint32_t column;
  Cell cell;
};
using Pending = std::vector<std::vector<PendingCell>>;  // per catalog table

bool numberOf(const Value& v, double* out) { return valueAsDouble(v, out); }

// IF-MIB ifOperStatus from the states sources report (ESXi "Up", sysfs "ACTIVE").
uint64_t ifStatusOf(const std::string& s) {
  std::string lower;
  for (char c : s) lower += char(std::tolower(static_cast<unsigned char>(c)));
  if (lower == "up" || lower == "active" || lower == "linkup") return 1;
  if (lower == "down" || lower == "disabled") return 2;
  return 4;  // unknown
}

Cell toCell(const Value& value, const Placement& p) {
  Cell cell;
  double d = 0;
  switch (p.type) {
    case SnmpType::kOctetString:
      cell.text = std::holds_alternative<std::string>(value) ? std::get<std::string>(value) : valueToString(value);
      break;
    case SnmpType::kInteger:
      if (p.if_status) {
        if (!std::holds_alternative<std::string>(value)) return cell;
        cell.number = ifStatusOf(std::get<std::string>(value));
      } else {
        if (!numberOf(value, &d)) return cell;
        cell.number = uint64_t(uint32_t(int32_t(std::clamp(d * p.scale, -2147483648.0, 2147483647.0))));
      }
      break;
    case SnmpType::kCounter64:
    case SnmpType::kCounter32:
      if (const uint64_t* u = std::get_if<uint64_t>(&value); u && p.scale == 1.0) {
        cell.number = *u;
      } else {
        if (!numberOf(value, &d) || d < 0) return cell;
        cell.number = uint64_t(d * p.scale);
      }
      // Counter32 columns wrap mod 2^32, as a 32-bit counter on the device would.
      if (p.type == SnmpType::kCounter32) cell.number &= 0xffffffffu;
      break;
    case SnmpType::kGauge32:
    case SnmpType::kTimeTicks:
      if (!numberOf(value, &d)) return cell;
      cell.number = uint64_t(std::llround(std::clamp(d * p.scale, 0.0, 4294967295.0)));
      break;
    case SnmpType::kAbsent:
      return cell;
  }
  cell.type = p.type;
  return cell;
}

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
        appendStringIndex(out, keys[i]);
        break;
    }
  }
  return true;
}

Cell numberCell(SnmpType type, uint64_t n) {
  Cell c;
  c.type = type;
  c.number = n;
  return c;
}
Cell textCell(std::string s) {
  Cell c;
  c.type = SnmpType::kOctetString;
  c.text = std::move(s);
  return c;
}

// Sorts one table's cells into the column-major grid.
TableData finalize(std::vector<PendingCell>& cells) {
  TableData t;
  if (cells.empty()) return t;
  for (const PendingCell& p : cells) t.columns.push_back(p.column);
  std::sort(t.columns.begin(), t.columns.end());
  t.columns.erase(std::unique(t.columns.begin(), t.columns.end()), t.columns.end());
  for (const PendingCell& p : cells) t.rows.push_back(p.index);
  std::sort(t.rows.begin(), t.rows.end());
  t.rows.erase(std::unique(t.rows.begin(), t.rows.end()), t.rows.end());
  t.cells.resize(t.columns.size() * t.rows.size());
  for (PendingCell& p : cells) {
    size_t c = size_t(std::lower_bound(t.columns.begin(), t.columns.end(), p.column) - t.columns.begin());
    size_t r = size_t(std::lower_bound(t.rows.begin(), t.rows.end(), p.index) - t.rows.begin());
    t.cells[c * t.rows.size() + r] = std::move(p.cell);
  }
  return t;
}

struct InterfaceSeen {
  uint32_t if_index = 0;
  TimestampNs discontinuity_ns = 0;
};

}  // namespace

SnapshotBuilder::SnapshotBuilder(const Store& store, IfIndexRegistry& registry, TimestampNs agent_start_ns)
    : store_(store), registry_(registry), agent_start_ns_(agent_start_ns) {
  for (const LeafSchema& leaf : SchemaTable::instance().leaves()) {
    std::vector<std::string_view> labels = SchemaTable::splitLabels(leaf.labels);
    interface_keyed_.push_back(!labels.empty() && (labels[0] == "interface" || labels[0] == "nic"));
  }
}

MibSnapshotPtr SnapshotBuilder::build() {
  const TimestampNs start = nowNs();
  const MibCatalog& catalog = MibCatalog::instance();
  const size_t ntables = catalog.tables().size();
  const LeafSchema* first_leaf = SchemaTable::instance().leaves().data();
  auto snap = std::make_shared<MibSnapshot>();

  const size_t target_table = catalog.find(kTargetTable);
  const size_t if_table = catalog.find(kIfTable);
  const size_t ifx_table = catalog.find(kIfXTable);
  Pending gateway(ntables);
  std::vector<TargetStatus> targets = store_.targets();
  for (const TargetStatus& t : targets) {
    Oid index;
    appendStringIndex(&index, t.name);
    auto add = [&](uint32_t column, Cell cell) { gateway[target_table].push_back({index, column, std::move(cell)}); };
    const TargetHealth& h = t.health;
    add(2, textCell(h.kind));
    add(3, textCell(t.name));
    add(4, numberCell(SnmpType::kInteger, h.up ? 1 : 2));  // TruthValue
    add(5, textCell(h.transport));
    if (h.last_success_ns > 0) add(6, numberCell(SnmpType::kGauge32, uint64_t(h.last_success_ns / 1'000'000'000)));
    add(7, numberCell(SnmpType::kGauge32, std::min<uint64_t>(t.series, 0xffffffffu)));
    add(8, numberCell(SnmpType::kCounter64, h.polls));
    add(9, numberCell(SnmpType::kCounter64, h.poll_errors));
    add(10, numberCell(SnmpType::kCounter64, h.read_errors));
    add(11, numberCell(SnmpType::kGauge32, std::min<uint64_t>(uint64_t(std::max<int64_t>(h.poll_duration_ns, 0) / 1'000'000), 0xffffffffu)));
    add(12, numberCell(SnmpType::kCounter64, t.counter_resets));
    add(13, numberCell(SnmpType::kCounter64, t.rejected_updates));
    add(14, textCell(h.last_error));
  }
  ContextData& default_ctx = snap->contexts[""];
  default_ctx.tables.resize(ntables);
  default_ctx.tables[target_table] = finalize(gateway[target_table]);
  snap->cells += default_ctx.tables[target_table].cellCount();

  for (const TargetStatus& t : targets) {
    Pending pending(ntables);
    std::map<std::string, InterfaceSeen, std::less<>> interfaces;
    store_.forEachIn(t.name, [&](const SeriesView& s) {
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
        Cell cell = toCell(s.value, p);
        if (cell.type == SnmpType::kAbsent) continue;
        const TableDef& def = catalog.tables()[p.table];
        if (s.label_values.size() != def.index.size()) continue;
        PendingCell pc{{}, p.column, std::move(cell)};
        if (!appendIndex(def, s.label_values, if_index, &pc.index)) continue;
        pending[p.table].push_back(std::move(pc));
      }
    });
    for (const auto& [name, seen] : interfaces) {
      Oid index{seen.if_index};
      pending[if_table].push_back({index, 1, numberCell(SnmpType::kInteger, seen.if_index)});
      pending[if_table].push_back({index, 2, textCell(name)});
      pending[if_table].push_back({index, 3, numberCell(SnmpType::kInteger, kEthernetCsmacd)});
      pending[ifx_table].push_back({index, 1, textCell(name)});
      // TimeStamp: hundredths of a second since the agent started.
      TimestampNs since = seen.discontinuity_ns > agent_start_ns_ ? seen.discontinuity_ns - agent_start_ns_ : 0;
      pending[ifx_table].push_back({index, 19, numberCell(SnmpType::kTimeTicks, uint64_t(since / 10'000'000))});
    }
    ContextData& ctx = snap->contexts[t.name];
    ctx.tables.resize(ntables);
    for (size_t i = 0; i < ntables; ++i) {
      if (catalog.tables()[i].scope != TableScope::kDevice) continue;
      ctx.tables[i] = finalize(pending[i]);
      snap->cells += ctx.tables[i].cellCount();
    }
  }
  if (Status st = registry_.saveIfChanged(); !st.isOk()) {
    RDMAGW_LOG(kWarn, "snmp") << "ifIndex state not saved (indexes stay stable while running): " << st.message();
  }
  snap->built_ns = nowNs();
  snap->build_duration_ns = snap->built_ns - start;
  return snap;
}

}  // namespace rdmagw::northbound::snmp
