#pragma once
// Groups a subtree's leaves into one JSON object, as the gNMI
// specification's JSON examples do when a path names a container: nested
// objects for containers, arrays of objects for lists, each list entry
// holding its keys as members.
//
// JSON: member names as the store has them, numbers as numbers, keys as
// strings. JSON_IETF (RFC 7951), walking the schema's YANG tree beside the
// data: the members at the top of the value carry their module
// ("openconfig-interfaces:interfaces" in a Get of "/", "openconfig-interfaces:state"
// in a Get of an interface), and so does every member whose module differs
// from its parent's ("openconfig-if-ethernet:ethernet" inside an interface);
// leaves and keys are encoded by their YANG type (ietf_scalar.h), and a leaf
// whose value does not fit its type is left out and reported. Nodes the
// modules do not define (leaves a collector keeps without a schema row, such
// as an ESXi driver's private statistics) cannot be written in RFC 7951 and
// are left out of JSON_IETF; JSON and PROTO serve them.

#include <map>
#include <memory>
#include <string>
#include <vector>

#include "models/path.h"
#include "models/value.h"
#include "northbound/gnmi/yang_tree.h"

namespace rdmagw::northbound::gnmi {

class JsonTree {
 public:
  JsonTree();
  ~JsonTree();
  JsonTree(JsonTree&&) noexcept;
  JsonTree& operator=(JsonTree&&) noexcept;

  // Adds the leaf at elems[begin, end) (relative to the grouped container).
  void add(const std::vector<PathElem>& elems, size_t begin, const Value& value);

  // JSON (non-IETF).
  std::string renderJson() const;
  // JSON_IETF; `schema` is the YANG node of the grouped container (the
  // tree's root for "/"); null when the modules do not define it: "{}".
  // `where` names the container in mismatch reports.
  std::string renderIetf(const YangNode* schema, std::string_view where) const;

 private:
  struct Node;
  std::unique_ptr<Node> root_;
};

}  // namespace rdmagw::northbound::gnmi
