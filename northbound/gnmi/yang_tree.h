#pragma once
// What RFC 7951 encoding needs to know about the data nodes we serve, as a
// tree walked beside the data: each node's YANG module (a JSON member name
// carries it at the top of a value and wherever it differs from the
// parent's), and each leaf's YANG built-in type (number or string, identity
// qualification). Built once from the schema table; a render looks up each
// child by its plain name, never a whole path.

#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "models/path.h"
#include "models/status.h"

namespace rdmagw::northbound::gnmi {

// YANG built-in types, as far as RFC 7951 encodes them differently.
// kUnknown: a type the encoder has no rule for; the value is written as the
// store holds it.
enum class YangType : uint8_t {
  kUnknown,
  kString,
  kEnumeration,
  kIdentityref,
  kBoolean,
  kInt8,
  kInt16,
  kInt32,
  kInt64,
  kUint8,
  kUint16,
  kUint32,
  kUint64,
  kDecimal64,
};

// "uint16" -> kUint16; kUnknown for a name without an encoding rule here.
YangType yangTypeFromName(std::string_view name);
std::string_view yangTypeName(YangType type);

struct YangLeafType {
  YangType type = YangType::kUnknown;
  // identityref: the module whose identities the values name (the JSON
  // value is "module:IDENTITY").
  std::string identity_module;
  // decimal64: its fraction-digits (1..18); 0 when not known.
  uint8_t fraction_digits = 0;
};

struct YangNode {
  std::string module;  // the module defining the node (the parent's unless augmented)
  bool is_leaf = false;
  YangLeafType leaf;   // for a leaf

  // The child named `name` (plain, unqualified), or null.
  const YangNode* child(std::string_view name) const {
    auto it = children.find(name);
    return it == children.end() ? nullptr : it->second.get();
  }

  struct Hash {
    using is_transparent = void;
    size_t operator()(std::string_view s) const { return std::hash<std::string_view>{}(s); }
  };
  std::unordered_map<std::string, std::unique_ptr<YangNode>, Hash, std::equal_to<>> children;
};

class YangTree {
 public:
  YangTree();
  ~YangTree();
  YangTree(YangTree&&) noexcept;
  YangTree& operator=(YangTree&&) noexcept;

  // Adds the leaf at `qualified_path`, an RFC 7951 path whose elements
  // carry "module:" at the top and wherever the module changes
  // ("/openconfig-interfaces:interfaces/interface/openconfig-if-ethernet:ethernet/state/port-speed").
  // A list key is added as the leaf below its list. Refuses a malformed path,
  // a path without a module at the top, and a node given two modules.
  Status addLeaf(std::string_view qualified_path, const YangLeafType& type);
  // Adds a list's key leaf below the list at `keyless_list_path` (already
  // placed by a leaf below it), in the list's module.
  Status addKey(std::string_view keyless_list_path, std::string_view key, const YangLeafType& type);

  const YangNode& root() const { return *root_; }
  // The node at elems[0, n) by name (keys ignored), or null.
  const YangNode* find(const std::vector<PathElem>& elems, size_t n) const;
  const YangNode* find(const Path& path) const { return find(path.elems(), path.elems().size()); }

  // The tree of every leaf of the schema table, built on first use.
  static const YangTree& schema();

 private:
  std::unique_ptr<YangNode> root_;
};

}  // namespace rdmagw::northbound::gnmi
