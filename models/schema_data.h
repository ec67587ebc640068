#pragma once
// The schema table's data, as models/gen_schema.py generates it from
// models/schema.yaml (the build writes <build>/models/schema_data.cc).
// Only models/schema_table.cc reads this; everything else asks SchemaTable.

#include <span>
#include <string_view>

#include "models/schema.h"

namespace rdmagw::schema_data {

// A node on a leaf path (keyless, no module names) and the module owning it.
struct NodeModule {
  std::string_view path;
  std::string_view module;
};

struct SchemaData {
  std::span<const LeafSchema> leaves;
  std::span<const GatewayMetric> gateway;
  std::span<const InfoRowSchema> info_rows;
  std::span<const YangModule> modules;
  std::span<const ListSchema> lists;
  std::span<const NodeModule> node_modules;
  std::span<const SnmpTableSchema> snmp_tables;
  std::span<const NotifyObjectSchema> notify_objects;
  std::span<const NotificationSchema> notifications;
  std::string_view enterprise_arc;
  std::string_view mib_name;
  std::string_view mib_root;
  std::string_view notifications_arc;
};

extern const SchemaData kSchemaData;

}  // namespace rdmagw::schema_data
