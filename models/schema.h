#pragma once
// The one schema table: for every leaf the model knows, its kind, unit,
// help text, Prometheus family and labels, and (later) its SNMP OID.
// Northbound code reads names from here; nothing else spells a metric name.

#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace rdmagw {

enum class LeafKind : uint8_t { kCounter, kGauge, kString };

struct LeafSchema {
  std::string_view path;       // keyless: /rdma/devices/device/ports/port/state/counters/symbol-error
  LeafKind kind;
  std::string_view unit;       // packets, bytes, microseconds, events, bits-per-second...
  std::string_view help;
  std::string_view prom_name;  // full family name, e.g. rdmagw_rdma_port_symbol_error_total
  // Label names for the path's keys, in path order, comma-separated; the
  // target label comes first implicitly. "device,port" for a device/port leaf.
  std::string_view labels;
  double prom_scale = 1.0;     // model unit -> Prometheus base unit (us -> s: 1e-6)
  // SNMP column OIDs the leaf is served as, space separated when a standard
  // MIB has a 32- and a 64-bit object (northbound/snmp/mib_catalog.h).
  std::string_view oid = {};
};

// Gateway self-metrics (per target health, store size); these are not leaves
// of any device but live here so every exported name has one home.
struct GatewayMetric {
  std::string_view id;         // stable key code uses: "target_up"
  LeafKind kind;
  std::string_view help;
  std::string_view prom_name;
  std::string_view labels;     // beyond nothing: "target", "target,kind,transport"
};

// The label that names the target (host or switch) on every device series.
inline constexpr std::string_view kTargetLabel = "target";

class SchemaTable {
 public:
  static const SchemaTable& instance();

  const LeafSchema* find(std::string_view keyless_path) const;
  std::span<const LeafSchema> leaves() const { return leaves_; }
  std::span<const GatewayMetric> gatewayMetrics() const { return gateway_; }
  const GatewayMetric& gateway(std::string_view id) const;  // aborts on an unknown id: a code bug

  // Splits a row's comma-separated label list.
  static std::vector<std::string_view> splitLabels(std::string_view labels);

 private:
  SchemaTable();
  std::span<const LeafSchema> leaves_;
  std::span<const GatewayMetric> gateway_;
  struct Index;
  const Index* index_;
};

}  // namespace rdmagw
