#pragma once
// Groups a subtree's leaves into one JSON object, as the gNMI
// specification's JSON examples do when a path names a container: nested
// objects for containers, arrays of objects for lists, each list entry
// holding its keys as members. Key values are rendered as strings (the
// store keeps them as text; no YANG types are loaded at run time).
//
// For JSON_IETF, members at the top of the tree (a Get of "/") are named
// "module:name" as RFC 7951 asks for top-level nodes.

#include <map>
#include <memory>
#include <string>
#include <vector>

#include "models/path.h"
#include "models/value.h"

namespace rdmagw::northbound::gnmi_server {

class JsonTree {
 public:
  JsonTree();
  ~JsonTree();
  JsonTree(JsonTree&&) noexcept;
  JsonTree& operator=(JsonTree&&) noexcept;

  // Adds the leaf at elems[begin, end) (relative to the grouped container).
  void add(const std::vector<PathElem>& elems, size_t begin, const Value& value);
  std::string render(bool ietf, bool qualify_top) const;

  // The YANG module that defines a top-level node ("interfaces" ->
  // "openconfig-interfaces"), as the schema says, or "" when unknown.
  static std::string moduleOf(const std::string& top_name);

 private:
  struct Node;
  std::unique_ptr<Node> root_;
};

}  // namespace rdmagw::northbound::gnmi_server
