// YangTree::schema(): the YANG tree of the schema table's leaves.

#include "models/schema.h"
#include "northbound/gnmi/yang_tree.h"

namespace rdmagw::northbound::gnmi_server {

const YangTree& YangTree::schema() {
  static const YangTree tree = [] {
    YangTree t;
    return t;
  }();
  return tree;
}

}  // namespace rdmagw::northbound::gnmi_server
