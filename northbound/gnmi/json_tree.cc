#include "northbound/gnmi/json_tree.h"

#include "models/schema.h"
#include "northbound/gnmi/typed_value.h"

namespace rdmagw::northbound::gnmi_server {

struct JsonTree::Node {
  using Keys = std::map<std::string, std::string>;
  bool is_leaf = false;
  Value leaf;
  std::map<std::string, std::unique_ptr<Node>> containers;
  std::map<std::string, std::map<Keys, std::unique_ptr<Node>>> lists;

  Node* child(const PathElem& e) {
    std::unique_ptr<Node>& slot =
        e.keys.empty() ? containers[e.name] : lists[e.name][e.keys];
    if (!slot) slot = std::make_unique<Node>();
    return slot.get();
  }

  void render(bool ietf, bool qualify, std::string* out) const {
    if (is_leaf) {
      appendJsonScalar(leaf, ietf, out);
      return;
    }
    out->push_back('{');
    bool first = true;
    auto member = [&](const std::string& name) {
      if (!first) out->push_back(',');
      first = false;
      const std::string module = qualify ? JsonTree::moduleOf(name) : std::string();
      appendJsonString(module.empty() ? name : module + ":" + name, out);
      out->push_back(':');
    };
    // Names in order; a name is either a container/leaf or a list.
    auto c = containers.begin();
    auto l = lists.begin();
    while (c != containers.end() || l != lists.end()) {
      if (l == lists.end() || (c != containers.end() && c->first < l->first)) {
        member(c->first);
        c->second->render(ietf, false, out);
        ++c;
        continue;
      }
      member(l->first);
      out->push_back('[');
      bool first_entry = true;
      for (const auto& [keys, entry] : l->second) {
        if (!first_entry) out->push_back(',');
        first_entry = false;
        std::string body;
        entry->render(ietf, false, &body);  // "{...}"
        out->push_back('{');
        bool first_key = true;
        for (const auto& [k, v] : keys) {
          if (!first_key) out->push_back(',');
          first_key = false;
          appendJsonString(k, out);
          out->push_back(':');
          appendJsonString(v, out);
        }
        if (body.size() > 2) out->push_back(',');
        out->append(body, 1, std::string::npos);  // members and the closing brace
      }
      out->push_back(']');
      ++l;
    }
    out->push_back('}');
  }
};

JsonTree::JsonTree() : root_(std::make_unique<Node>()) {}
JsonTree::~JsonTree() = default;
JsonTree::JsonTree(JsonTree&&) noexcept = default;
JsonTree& JsonTree::operator=(JsonTree&&) noexcept = default;

void JsonTree::add(const std::vector<PathElem>& elems, size_t begin, const Value& value) {
  Node* n = root_.get();
  for (size_t i = begin; i < elems.size(); ++i) n = n->child(elems[i]);
  n->is_leaf = true;
  n->leaf = value;
}

std::string JsonTree::render(bool ietf, bool qualify_top) const {
  std::string out;
  root_->render(ietf, ietf && qualify_top, &out);
  return out;
}

std::string JsonTree::moduleOf(const std::string& top_name) {
  return std::string(SchemaTable::instance().moduleOfNode("/" + top_name));
}

}  // namespace rdmagw::northbound::gnmi_server
