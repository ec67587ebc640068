// The schema table's lookups. The rows are data: models/schema.yaml,
// compiled into <build>/models/schema_data.cc by models/gen_schema.py.

#include <cstdio>
#include <cstdlib>
#include <string>
#include <unordered_map>

#include "models/schema.h"
#include "models/schema_data.h"

namespace rdmagw {

using schema_data::kSchemaData;

struct SchemaTable::Index {
  std::unordered_map<std::string_view, const LeafSchema*> by_path;
  std::unordered_map<std::string_view, const GatewayMetric*> gateway_by_id;
  std::unordered_map<std::string_view, std::string_view> module_of_node;
  std::unordered_map<std::string_view, const ListSchema*> list_by_path;
};

SchemaTable::SchemaTable() {
  auto* index = new Index();  // lives as long as the process, like the table
  for (const LeafSchema& row : kSchemaData.leaves) index->by_path.emplace(row.path, &row);
  for (const GatewayMetric& m : kSchemaData.gateway) index->gateway_by_id.emplace(m.id, &m);
  for (const schema_data::NodeModule& n : kSchemaData.node_modules) index->module_of_node.emplace(n.path, n.module);
  for (const ListSchema& l : kSchemaData.lists) index->list_by_path.emplace(l.path, &l);
  index_ = index;
}

const SchemaTable& SchemaTable::instance() {
  static const SchemaTable table;
  return table;
}

std::span<const LeafSchema> SchemaTable::leaves() const { return kSchemaData.leaves; }
std::span<const GatewayMetric> SchemaTable::gatewayMetrics() const { return kSchemaData.gateway; }
std::span<const InfoRowSchema> SchemaTable::infoRows() const { return kSchemaData.info_rows; }
std::span<const YangModule> SchemaTable::modules() const { return kSchemaData.modules; }
std::span<const ListSchema> SchemaTable::lists() const { return kSchemaData.lists; }
std::span<const SnmpTableSchema> SchemaTable::snmpTables() const { return kSchemaData.snmp_tables; }
std::string_view SchemaTable::enterpriseArc() const { return kSchemaData.enterprise_arc; }
std::string_view SchemaTable::mibName() const { return kSchemaData.mib_name; }
std::string_view SchemaTable::mibRoot() const { return kSchemaData.mib_root; }
std::string_view SchemaTable::notificationsArc() const { return kSchemaData.notifications_arc; }
std::span<const NotifyObjectSchema> SchemaTable::notifyObjects() const { return kSchemaData.notify_objects; }
std::span<const NotificationSchema> SchemaTable::notifications() const { return kSchemaData.notifications; }

const LeafSchema* SchemaTable::find(std::string_view keyless_path) const {
  auto it = index_->by_path.find(keyless_path);
  return it == index_->by_path.end() ? nullptr : it->second;
}

const GatewayMetric& SchemaTable::gateway(std::string_view id) const {
  auto it = index_->gateway_by_id.find(id);
  if (it == index_->gateway_by_id.end()) {
    std::fprintf(stderr, "rdmagw: unknown gateway metric id '%.*s'\n", int(id.size()), id.data());
    std::abort();
  }
  return *it->second;
}

const YangModule* SchemaTable::findModule(std::string_view name) const {
  for (const YangModule& m : kSchemaData.modules) {
    if (m.name == name) return &m;
  }
  return nullptr;
}

std::string_view SchemaTable::moduleOfNode(std::string_view keyless_path) const {
  auto it = index_->module_of_node.find(keyless_path);
  return it == index_->module_of_node.end() ? std::string_view() : it->second;
}

const ListSchema* SchemaTable::findList(std::string_view keyless_list_path) const {
  auto it = index_->list_by_path.find(keyless_list_path);
  return it == index_->list_by_path.end() ? nullptr : it->second;
}

std::string_view SchemaTable::listKeyType(std::string_view keyless_list_path) const {
  const ListSchema* l = findList(keyless_list_path);
  return l == nullptr ? std::string_view() : l->key_type;
}

const NotifyObjectSchema& SchemaTable::notifyObject(NotifyRole role) const {
  for (const NotifyObjectSchema& o : kSchemaData.notify_objects) {
    if (o.role == role) return o;
  }
  std::fprintf(stderr, "rdmagw: the schema has no notification object for role %d\n", int(role));
  std::abort();  // the generator requires one per role
}

std::vector<std::string_view> SchemaTable::splitLabels(std::string_view labels) {
  std::vector<std::string_view> out;
  while (!labels.empty()) {
    size_t comma = labels.find(',');
    out.push_back(labels.substr(0, comma));
    if (comma == std::string_view::npos) break;
    labels.remove_prefix(comma + 1);
  }
  return out;
}

}  // namespace rdmagw
