#pragma once
// The NX-OS gNMI -> model mapping as data: one row per source leaf, compiled
// once into a hash from the source's keyless, origin-free path to the row,
// so mapping a leaf is one lookup and no regex.
//
// Source pattern: [origin:]/elem/elem[key={var}]/elem[key=*]/leaf, where
// {var} captures a key value, * or a key the pattern leaves out matches any
// value, and a literal value must match when the key is present. A DME
// relative name captures like phys-[{var}].
// Target template: a model path whose key values are {var} or {var:xform},
// xform one of ifname, qosgroup, priority (name_transforms.h).

#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

namespace rdmagw::southbound::gnmi {

enum class ValueRule : uint8_t {
  kCounter,  // uint64; accepts int >= 0, integral double, numeric strings
  kAsSent,   // typed as the switch sent it
  // An openconfig-if-ethernet ETHERNET_SPEED identity (module prefix or
  // not): stored bare at the target, and its rate in bits/s at the
  // interface's state/speed (models/ethernet_speed.h).
  kEthernetSpeed,
};

struct MappingRow {
  std::string_view source;
  std::string_view target;
  ValueRule value;
  // Listed by nxosSubscriptionPaths(). Rows that are a second source of a
  // model leaf another subscribed row already feeds stay unsubscribed (they
  // still map when a user subscribes to them): two sources of one counter
  // would make it jump between them.
  bool subscribe;
};

std::span<const MappingRow> mappingRows();

// Key leaves of a list as it appears in JSON blobs (YANG `key`), for lists
// whose entries must be told apart; others fall back to name, id, index.
std::span<const std::string_view> listKeysOf(std::string_view list_name);

enum class Xform : uint8_t { kNone, kIfName, kQosGroup, kPriority };

struct PatternKey {
  std::string key;    // empty: the DME rn value, or an element's only key
  std::string value;  // literal when var < 0
  int var = -1;       // capture slot; -2: wildcard
};

struct PatternElem {
  std::string name;
  std::vector<PatternKey> keys;
};

struct TargetKey {
  std::string key;
  int var;
  Xform xform;
};

struct TargetElem {
  std::string name;
  std::vector<TargetKey> keys;  // sorted by key: the canonical order
};

inline constexpr int kMaxVars = 4;

struct CompiledRow {
  const MappingRow* row = nullptr;
  std::string origin;                // "openconfig", "device", "DME"
  std::vector<PatternElem> source;
  std::vector<TargetElem> target;
  std::string keyless;               // source lookup key: "/interfaces/interface/..."
  std::string target_keyless;        // the schema row it feeds
  size_t iso_depth = 0;              // leading elements named alike in source and target
  int var_count = 0;
};

class MappingTable {
 public:
  static const MappingTable& instance();

  const CompiledRow* find(std::string_view keyless) const {
    auto it = by_keyless_.find(keyless);
    return it == by_keyless_.end() ? nullptr : it->second;
  }
  std::span<const CompiledRow> rows() const { return rows_; }
  // Rows that did not compile (a bug in mapping_table.cc; tests assert none).
  const std::vector<std::string>& compileErrors() const { return errors_; }

 private:
  MappingTable();
  std::vector<CompiledRow> rows_;
  std::unordered_map<std::string_view, const CompiledRow*> by_keyless_;
  std::vector<std::string> errors_;
};

}  // namespace rdmagw::southbound::gnmi
