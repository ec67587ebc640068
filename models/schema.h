#pragma once
// The one schema table: for every leaf the model knows, its kind, unit,
// help text, Prometheus family and labels, the YANG module and type that
// define it, and where SNMP serves it; the gateway's own metrics; the YANG
// modules, lists, SNMP tables and notifications the northbounds serve.
// Its data is generated at build time from models/schema.yaml by
// models/gen_schema.py; northbound code reads names from here and nothing
// else spells a metric name, an OID or a module name.
//
// Longer than a header should be because every row type documents its fields
// where they are declared, and the row types are one contract that every
// northbound reads together.

#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace rdmagw {

enum class LeafKind : uint8_t { kCounter, kGauge, kString };

// --- SNMP ---------------------------------------------------------------

// The SMIv2 base type of a column as it goes on the wire.
enum class SnmpSyntax : uint8_t { kInteger, kOctetString, kCounter32, kGauge32, kTimeTicks, kCounter64 };

// How a value becomes an INTEGER column: IF-MIB's up(1)/down(2)/unknown(4)
// from a state string, or TruthValue's true(1)/false(2) from 1/0.
// kIfStatus: ifOperStatus's up(1)/down(2)/testing(3)/unknown(4); kIfAdminStatus:
// ifAdminStatus's up(1)/down(2)/testing(3), which has no unknown: another word
// leaves the cell absent rather than serving a value outside the syntax.
enum class SnmpValueMap : uint8_t { kNone, kIfStatus, kIfAdminStatus, kTruthValue };

// How one index component is built from a store key (the leaf's labels, in
// path order).
enum class SnmpIndexKind : uint8_t {
  kIfIndex,   // interface or vmnic name -> stable ifIndex
  kUnsigned,  // a numeric key such as a priority or an RDMA port number
  kString,    // length-prefixed OCTET STRING: queue names, RDMA device names
};

// kDevice tables are served in each device's context; kGateway tables in
// the default context.
enum class SnmpScope : uint8_t { kDevice, kGateway };

// Columns a table fills from the row's key, the collector's health or the
// fleet's placement (models/fleet_view.h) rather than from a leaf.
enum class SnmpDerived : uint8_t {
  kNone,
  kIfIndex,            // the row's ifIndex
  kIfName,             // the interface name the ifIndex stands for
  kIfType,             // IANAifType of the interface
  kDiscontinuityTime,  // latest counter discontinuity of the interface (TimeStamp)
  kTargetLastError,    // the target's last collection error
  kFleetTarget,        // a fleet target's name (its context on its owner's agent)
  kFleetOwner,         // the member that owns a fleet target
  kFleetOwnerSnmp,     // that member's advertised SNMP address
  kFleetOwnerGnmi,     // that member's advertised gNMI address
  kFleetOwnedHere,     // whether this member owns the target
};

// One column a leaf, a gateway metric or a table-derived value is served as.
struct SnmpPlacement {
  uint16_t table;           // index into SchemaTable::snmpTables()
  uint32_t column;
  SnmpSyntax type;
  double scale;             // model unit -> MIB unit (bits/s -> Mbit/s: 1e-6)
  SnmpValueMap map;
  std::string_view object;  // MIB object name: ifHCInOctets
  // Gateway metrics only: the label whose value fills the column ("": the
  // metric's own value).
  std::string_view label;
  SnmpDerived from;         // table-derived columns only
};

struct SnmpTableSchema {
  std::string_view name;    // MIB name of the table: ifXTable
  std::string_view mib;     // MIB module: IF-MIB
  std::string_view oid;     // the table (dotted); rows live under <oid>.1
  SnmpScope scope;
  std::span<const SnmpIndexKind> index;
  std::span<const SnmpPlacement> derived;
};

// --- YANG ---------------------------------------------------------------

struct YangModule {
  std::string_view name;          // openconfig-interfaces
  std::string_view prefix;        // oc-if
  std::string_view organization;
  std::string_view version;       // OpenConfig: semantic version; ours: the revision date
  bool openconfig;
};

// A list on leaf paths: its key and the Prometheus label the key becomes.
struct ListSchema {
  std::string_view path;          // keyless, without module names: /interfaces/interface
  std::string_view key;           // key leaf name: name
  std::string_view key_type;      // YANG built-in type of the key: string, uint8
  std::string_view key_typedef;   // the type as the module writes it
  std::string_view label;         // interface
};

// --- Leaves and gateway metrics ------------------------------------------

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
  // The OIDs of the SNMP columns in `snmp`, space separated.
  std::string_view oid = {};
  // RFC 7951-qualified path: the module on the first node and at every
  // node whose module differs from its parent's.
  std::string_view qualified_path = {};
  std::string_view yang_module = {};      // module that defines the leaf
  std::string_view yang_type = {};        // resolved built-in type: uint64, string, identityref...
  std::string_view yang_typedef = {};     // as the module writes it: oc-yang:counter64
  std::string_view yang_identities = {};  // identityref: the module defining its identities
  uint8_t yang_fraction_digits = 0;       // decimal64: its fraction-digits (1..18)
  std::span<const SnmpPlacement> snmp = {};
  // Non-empty: this string leaf is not a family of its own but the label of
  // that name on its list entry's info row (prom_name, see infoRows()).
  std::string_view prom_info_label = {};
};

// One series (value 1) per list entry, labelled with the entry's keys and
// the string leaves that name it: a join reads one series, not one a leaf.
struct InfoRowSchema {
  std::string_view prom_name;  // rdmagw_rdma_device_pod_info
  std::string_view help;
};

// Gateway self-metrics (per target health, store size); these are not leaves
// of any device but live here so every exported name has one home.
struct GatewayMetric {
  std::string_view id;         // stable key code uses: "target_up"
  LeafKind kind;
  std::string_view help;
  std::string_view prom_name;
  std::string_view labels;     // beyond nothing: "target", "target,kind,transport"
  std::string_view unit = {};
  std::span<const SnmpPlacement> snmp = {};
};

// --- SNMP notifications --------------------------------------------------

// The two objects every notification carries (instance .0): the target it
// is about and the port.
enum class NotifyRole : uint8_t { kTarget, kPort };

struct NotifyObjectSchema {
  NotifyRole role;
  uint32_t sub_id;
  std::string_view object;     // rdmagwNotifyTarget
  std::string_view oid;        // with its instance: <notify objects>.<sub_id>.0
  std::string_view description;
};

// One verdict whose changes are sent as an SNMPv2 notification.
struct NotificationSchema {
  std::string_view type;        // label of the self-metrics, e.g. "pause-storm"
  std::string_view name;        // NOTIFICATION-TYPE name in the MIB
  uint32_t sub_id;              // under the notifications arc
  std::string_view table;       // MIB table of the verdict (SnmpTableSchema::name)
  uint32_t code_column;         // the verdict code's column: a change of it is sent
  uint32_t extra_columns[3];    // also carried, same instance (0: none); the verdict text first
  uint8_t port_parts;           // leading index parts naming the port (rest: priority...)
  uint32_t normal_mask;         // bit c set: code c is normal (no alert when a row first appears with it)
  std::string_view description; // the NOTIFICATION-TYPE's DESCRIPTION
  std::string_view verdict_path;  // keyless path of the verdict code's leaf
};

// The label that names the target (host or switch) on every device series.
inline constexpr std::string_view kTargetLabel = "target";

// Label names other exporters fix and users join on: dcgm-exporter's GPU
// UUID and model name, kept as it spells them (not snake_case) so that
// `on(UUID)` joins its series without relabelling.
inline constexpr std::string_view kForeignLabelSpellings[] = {"UUID", "modelName"};

class SchemaTable {
 public:
  static const SchemaTable& instance();

  const LeafSchema* find(std::string_view keyless_path) const;
  std::span<const LeafSchema> leaves() const;
  std::span<const GatewayMetric> gatewayMetrics() const;
  std::span<const InfoRowSchema> infoRows() const;
  const GatewayMetric& gateway(std::string_view id) const;  // aborts on an unknown id: a code bug

  // YANG: the modules the served tree uses (Capabilities lists them), and
  // the module that owns a node: moduleOfNode("/interfaces/interface/ethernet")
  // is "openconfig-if-ethernet", moduleOfNode("/interfaces") is
  // "openconfig-interfaces"; a list's key leaf is its list's module
  // (moduleOfNode("/interfaces/interface/name")); "" for a node on no leaf
  // path. Keyless paths without module names, as the store keeps them.
  std::span<const YangModule> modules() const;
  const YangModule* findModule(std::string_view name) const;
  std::string_view moduleOfNode(std::string_view keyless_path) const;

  // Lists on leaf paths, and one by its keyless path (nullptr: not a list).
  std::span<const ListSchema> lists() const;
  const ListSchema* findList(std::string_view keyless_list_path) const;
  // The YANG built-in type of a list's key ("string", "uint8"), "" for no list.
  std::string_view listKeyType(std::string_view keyless_list_path) const;

  // SNMP: every table served, the enterprise arc, the MIB module's root,
  // the notifications arc, the notification objects and notifications.
  std::span<const SnmpTableSchema> snmpTables() const;
  std::string_view enterpriseArc() const;      // dotted, no leading dot
  std::string_view mibName() const;            // RDMAGW-MIB
  std::string_view mibRoot() const;            // the MIB module identity's OID
  std::string_view notificationsArc() const;   // notifications are <arc>.<sub_id>
  std::span<const NotifyObjectSchema> notifyObjects() const;
  const NotifyObjectSchema& notifyObject(NotifyRole role) const;
  std::span<const NotificationSchema> notifications() const;

  // Splits a row's comma-separated label list.
  static std::vector<std::string_view> splitLabels(std::string_view labels);

 private:
  SchemaTable();
  struct Index;
  const Index* index_;
};

}  // namespace rdmagw
