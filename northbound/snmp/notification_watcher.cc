#include "northbound/snmp/notification_watcher.h"

namespace rdmagw::northbound::snmp {
namespace {

NotifyValue own(const CellView& cell) { return NotifyValue{cell.type, cell.number, std::string(cell.text)}; }

// The interface name of `if_index` in a context: the column the schema
// fills with the interface name (IF-MIB's ifDescr/ifName).
std::string ifNameOf(const ContextData& ctx, uint32_t if_index) {
  const Placement* name_column = MibCatalog::instance().derivedColumn(SnmpDerived::kIfName);
  if (name_column == nullptr || name_column->table >= ctx.tables.size()) return std::to_string(if_index);
  const TableData& data = ctx.tables[name_column->table];
  if (data.empty()) return std::to_string(if_index);
  size_t row = data.findRow(std::span<const uint32_t>(&if_index, 1));
  size_t column = data.findColumn(name_column->column);
  std::optional<CellView> name =
      row == TableData::kNone || column == TableData::kNone ? std::nullopt : data.cell(column, row);
  return name ? std::string(name->text) : std::to_string(if_index);
}

// The first `parts` components of a row index as the device names them,
// ':' separated ("Ethernet1/1", "mlx5_0:1").
std::string portName(const TableDef& def, const ContextData& ctx, std::span<const uint32_t> index, size_t parts) {
  std::string out;
  size_t at = 0;
  for (size_t p = 0; p < parts && p < def.index.size() && at < index.size(); ++p) {
    std::string piece;
    switch (def.index[p]) {
      case IndexPart::kIfIndex:
        piece = ifNameOf(ctx, index[at++]);
        break;
      case IndexPart::kUnsigned:
        piece = std::to_string(index[at++]);
        break;
      case IndexPart::kString: {
        size_t length = index[at++];
        for (size_t i = 0; i < length && at < index.size(); ++i) piece += char(index[at++]);
        break;
      }
    }
    out += (out.empty() ? "" : ":") + piece;
  }
  return out;
}

}  // namespace

std::vector<PendingNotification> NotificationWatcher::diff(const MibSnapshot& snap) {
  const MibCatalog& catalog = MibCatalog::instance();
  std::span<const NotificationDef> defs = notificationTable();
  std::map<Key, uint64_t> now;
  std::vector<PendingNotification> out;
  for (size_t d = 0; d < defs.size(); ++d) {
    const NotificationDef& nd = defs[d];
    const size_t t = catalog.find(nd.table);
    if (t >= catalog.tables().size()) continue;  // a row naming no table: the table test catches it
    const TableDef& def = catalog.tables()[t];
    for (const auto& [context, ctx] : snap.contexts) {
      if (t >= ctx.tables.size()) continue;
      const TableData& data = ctx.tables[t];
      const size_t code_col = data.empty() ? TableData::kNone : data.findColumn(nd.code_column);
      if (code_col == TableData::kNone) continue;
      for (size_t r = data.nextPresent(code_col, 0); r != TableData::kNone; r = data.nextPresent(code_col, r + 1)) {
        const CellView code = *data.cell(code_col, r);
        std::span<const uint32_t> index = data.rowIndex(r);
        Key key{d, context, Oid(index.begin(), index.end())};
        now.emplace(key, code.number);
        auto before = last_.find(key);
        const bool normal = code.number < 32 && (nd.normal_mask >> code.number) & 1u;
        if (before == last_.end() ? normal : before->second == code.number) continue;

        PendingNotification n;
        n.def = d;
        n.target = context;
        n.port = portName(def, ctx, index, nd.port_parts);
        n.code = code.number;
        auto add = [&](uint32_t column, const CellView& cell) {
          Oid oid = def.entry;
          oid.push_back(column);
          oid.insert(oid.end(), index.begin(), index.end());
          n.varbinds.emplace_back(std::move(oid), own(cell));
        };
        add(nd.code_column, code);
        for (uint32_t extra : nd.extra_columns) {
          if (extra == 0) continue;
          size_t c = data.findColumn(extra);
          std::optional<CellView> cell = c == TableData::kNone ? std::nullopt : data.cell(c, r);
          if (cell) add(extra, *cell);
        }
        out.push_back(std::move(n));
      }
    }
  }
  last_ = std::move(now);  // rows gone are forgotten: their return alerts like a first appearance
  return out;
}

}  // namespace rdmagw::northbound::snmp
