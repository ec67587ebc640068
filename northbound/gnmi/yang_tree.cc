#include "northbound/gnmi/yang_tree.h"

#include <array>
#include <utility>

namespace rdmagw::northbound::gnmi {
namespace {

constexpr std::array<std::pair<std::string_view, YangType>, 13> kTypeNames = {{
    {"string", YangType::kString},
    {"enumeration", YangType::kEnumeration},
    {"identityref", YangType::kIdentityref},
    {"boolean", YangType::kBoolean},
    {"int8", YangType::kInt8},
    {"int16", YangType::kInt16},
    {"int32", YangType::kInt32},
    {"int64", YangType::kInt64},
    {"uint8", YangType::kUint8},
    {"uint16", YangType::kUint16},
    {"uint32", YangType::kUint32},
    {"uint64", YangType::kUint64},
    {"decimal64", YangType::kDecimal64},
}};

}  // namespace

YangType yangTypeFromName(std::string_view name) {
  for (const auto& [n, t] : kTypeNames) {
    if (n == name) return t;
  }
  return YangType::kUnknown;
}

std::string_view yangTypeName(YangType type) {
  for (const auto& [n, t] : kTypeNames) {
    if (t == type) return n;
  }
  return "unknown";
}

YangTree::YangTree() : root_(std::make_unique<YangNode>()) {}
YangTree::~YangTree() = default;
YangTree::YangTree(YangTree&&) noexcept = default;
YangTree& YangTree::operator=(YangTree&&) noexcept = default;

Status YangTree::addLeaf(std::string_view qualified_path, const YangLeafType& type) {
  const std::string whole(qualified_path);
  if (qualified_path.empty() || qualified_path.front() != '/') {
    return Status::invalidArgument("YANG path '" + whole + "' does not start with '/'");
  }
  YangNode* node = root_.get();
  std::string_view rest = qualified_path.substr(1);
  while (!rest.empty()) {
    const size_t slash = rest.find('/');
    std::string_view seg = rest.substr(0, slash);
    rest = slash == std::string_view::npos ? std::string_view() : rest.substr(slash + 1);
    if (const size_t bracket = seg.find('['); bracket != std::string_view::npos) seg = seg.substr(0, bracket);
    std::string_view module = node->module;
    if (const size_t colon = seg.find(':'); colon != std::string_view::npos) {
      module = seg.substr(0, colon);
      seg = seg.substr(colon + 1);
    }
    if (seg.empty() || module.empty()) {
      return Status::invalidArgument("YANG path '" + whole + "': an empty name, or no module at the top");
    }
    if (node->is_leaf) return Status::invalidArgument("YANG path '" + whole + "' goes below a leaf");
    auto it = node->children.find(seg);
    if (it == node->children.end()) {
      auto child = std::make_unique<YangNode>();
      child->module = std::string(module);
      it = node->children.emplace(std::string(seg), std::move(child)).first;
    } else if (it->second->module != module) {
      return Status::invalidArgument("YANG path '" + whole + "': '" + std::string(seg) + "' is in module " +
                                     it->second->module + " elsewhere, " + std::string(module) + " here");
    }
    node = it->second.get();
  }
  if (node == root_.get()) return Status::invalidArgument("YANG path '" + whole + "' names no node");
  if (!node->children.empty()) return Status::invalidArgument("YANG path '" + whole + "' is a container elsewhere");
  node->is_leaf = true;
  node->leaf = type;
  return Status::ok();
}

Status YangTree::addKey(std::string_view keyless_list_path, std::string_view key, const YangLeafType& type) {
  const Result<Path> path = Path::parse(keyless_list_path);
  if (!path.isOk()) return path.status();
  YangNode* list = root_.get();
  for (const PathElem& e : path->elems()) {
    auto it = list->children.find(e.name);
    list = it == list->children.end() ? nullptr : it->second.get();
    if (list == nullptr || list->is_leaf) {
      return Status::invalidArgument("list '" + std::string(keyless_list_path) + "' is on no leaf's path");
    }
  }
  if (list == root_.get() || key.empty()) return Status::invalidArgument("no list or key to add");
  std::unique_ptr<YangNode>& slot = list->children[std::string(key)];
  if (slot != nullptr && !slot->is_leaf) {
    return Status::invalidArgument("key '" + std::string(key) + "' of '" + std::string(keyless_list_path) +
                                   "' is a container elsewhere");
  }
  if (slot == nullptr) slot = std::make_unique<YangNode>();
  slot->module = list->module;
  slot->is_leaf = true;
  slot->leaf = type;
  return Status::ok();
}

const YangNode* YangTree::find(const std::vector<PathElem>& elems, size_t n) const {
  const YangNode* node = root_.get();
  for (size_t i = 0; i < n && node != nullptr; ++i) node = node->child(elems[i].name);
  return node;
}

}  // namespace rdmagw::northbound::gnmi
