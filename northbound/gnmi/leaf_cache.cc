#include "northbound/gnmi/leaf_cache.h"

#include "models/schema.h"

namespace rdmagw::northbound::gnmi {

ParsedLeafPtr parseLeaf(std::string_view path) {
  Result<Path> parsed = Path::parse(path);
  if (!parsed.isOk()) return nullptr;
  auto leaf = std::make_shared<ParsedLeaf>();
  leaf->path = *parsed;
  const LeafSchema* schema = SchemaTable::instance().find(parsed->keylessString());
  leaf->counter = schema != nullptr && schema->kind == LeafKind::kCounter;
  if (const YangNode* node = YangTree::schema().find(leaf->path); node != nullptr && node->is_leaf) {
    leaf->yang = &node->leaf;
  }
  return leaf;
}

ParsedLeafPtr LeafCache::lookup(std::string_view path) {
  auto it = by_path_.find(path);
  if (it != by_path_.end()) return it->second;
  ParsedLeafPtr leaf = parseLeaf(path);
  if (!leaf) return nullptr;
  if (by_path_.size() >= max_entries_) by_path_.clear();
  by_path_.emplace(std::string(path), leaf);
  return leaf;
}

}  // namespace rdmagw::northbound::gnmi
