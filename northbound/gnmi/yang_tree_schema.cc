// YangTree::schema(): the YANG tree of the schema table's leaves and list keys.

#include "models/log.h"
#include "models/schema.h"
#include "northbound/gnmi/yang_tree.h"

namespace rdmagw::northbound::gnmi {
namespace {

// The generator checked the schema; a row this tree cannot place (a
// generator bug, which the encoder's tests catch) is logged and left out:
// its leaves are then written as the store holds them.
void mustHold(const Status& st) {
  if (!st.isOk()) RDMAGW_LOG(kError, "gnmi") << "schema YANG tree: " << st.message();
}

YangTree build() {
  YangTree t;
  const SchemaTable& schema = SchemaTable::instance();
  for (const LeafSchema& leaf : schema.leaves()) {
    YangLeafType type;
    type.type = yangTypeFromName(leaf.yang_type);
    type.identity_module = std::string(leaf.yang_identities);
    type.fraction_digits = leaf.yang_fraction_digits;
    mustHold(t.addLeaf(leaf.qualified_path, type));
  }
  for (const ListSchema& list : schema.lists()) {
    mustHold(t.addKey(list.path, list.key, YangLeafType{yangTypeFromName(list.key_type), "", 0}));
  }
  return t;
}

}  // namespace

const YangTree& YangTree::schema() {
  static const YangTree tree = build();
  return tree;
}

}  // namespace rdmagw::northbound::gnmi
