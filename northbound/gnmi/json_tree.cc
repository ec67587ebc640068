#include "northbound/gnmi/json_tree.h"

#include "northbound/gnmi/ietf_scalar.h"
#include "northbound/gnmi/typed_value.h"

namespace rdmagw::northbound::gnmi {
namespace {

using Keys = std::map<std::string, std::string>;

// What one render carries down the tree.
struct Render {
  bool ietf = false;
  std::string* out = nullptr;
  std::string_view where;  // the grouped container's path, for reports
  // Names from the grouped container down to the node being written: only
  // read to name a mismatched leaf.
  std::vector<std::pair<const std::string*, const Keys*>> stack;

  std::string leafPath() const {
    std::string p(where == "/" ? "" : where);
    for (const auto& [name, keys] : stack) {
      p.push_back('/');
      p += *name;
      if (keys == nullptr) continue;
      for (const auto& [k, v] : *keys) {
        p += "[" + k + "=";
        appendEscapedKeyValue(&p, v);
        p.push_back(']');
      }
    }
    return p;
  }
};

// Writes members of one JSON object, separated by commas; a member can be
// taken back (a leaf whose value did not fit its type).
class Members {
 public:
  explicit Members(std::string* out) : out_(out) {}
  // Starts a member: `,"name":` (the module prefix when `module` is set).
  void begin(std::string_view module, std::string_view name) {
    mark_ = out_->size();
    was_first_ = first_;
    if (!first_) out_->push_back(',');
    first_ = false;
    if (module.empty()) {
      appendJsonString(name, out_);
    } else {
      std::string q;
      q.reserve(module.size() + 1 + name.size());
      q += module;
      q.push_back(':');
      q += name;
      appendJsonString(q, out_);
    }
    out_->push_back(':');
  }
  // Takes back the member begun last.
  void undo() {
    out_->resize(mark_);
    first_ = was_first_;
  }

 private:
  std::string* out_;
  bool first_ = true;
  bool was_first_ = true;
  size_t mark_ = 0;
};

}  // namespace

struct JsonTree::Node {
  bool is_leaf = false;
  Value leaf;
  std::map<std::string, std::unique_ptr<Node>> containers;  // and leaves
  std::map<std::string, std::map<Keys, std::unique_ptr<Node>>> lists;

  Node* child(const PathElem& e) {
    std::unique_ptr<Node>& slot = e.keys.empty() ? containers[e.name] : lists[e.name][e.keys];
    if (!slot) slot = std::make_unique<Node>();
    return slot.get();
  }

  // The name a member is written with: under JSON_IETF the module's at the
  // top of the value and wherever it changes (RFC 7951 §4).
  static std::string_view moduleFor(const Render& r, const YangNode* parent, const YangNode* child, bool top) {
    if (!r.ietf || child == nullptr) return {};
    if (top || parent == nullptr || child->module != parent->module) return child->module;
    return {};
  }

  // Writes this node's members (not the braces). `schema`: this node's YANG
  // node (JSON_IETF only, null when unknown); `skip`: the keys of the list
  // entry this node is, already written.
  void writeMembers(Render& r, const YangNode* schema, bool top, Members& m, const Keys* skip) const {
    // Names in order; a name is either a container/leaf or a list.
    auto c = containers.begin();
    auto l = lists.begin();
    while (c != containers.end() || l != lists.end()) {
      if (l == lists.end() || (c != containers.end() && c->first < l->first)) {
        const std::string& name = c->first;
        const Node& kid = *c->second;
        ++c;
        // A key written from the entry's keys is not written again.
        if (r.ietf && skip != nullptr && skip->count(name) != 0) continue;
        const YangNode* ks = schema != nullptr ? schema->child(name) : nullptr;
        if (r.ietf && ks == nullptr) continue;  // not in the YANG modules
        m.begin(moduleFor(r, schema, ks, top), name);
        if (!kid.is_leaf) {
          r.stack.emplace_back(&name, nullptr);
          kid.writeObject(r, ks);
          r.stack.pop_back();
        } else if (!r.ietf) {
          appendJsonScalar(kid.leaf, false, r.out);
        } else if (!ks->is_leaf) {
          m.undo();  // a value where the modules have a container
        } else if (!appendIetfScalar(kid.leaf, ks->leaf, r.out)) {
          m.undo();
          r.stack.emplace_back(&name, nullptr);
          reportIetfMismatch(r.leafPath(), ks->leaf, kid.leaf);
          r.stack.pop_back();
        }
        continue;
      }
      const std::string& name = l->first;
      const YangNode* ls = schema != nullptr ? schema->child(name) : nullptr;
      if (r.ietf && ls == nullptr) {
        ++l;
        continue;
      }
      m.begin(moduleFor(r, schema, ls, top), name);
      r.out->push_back('[');
      bool first_entry = true;
      for (const auto& [keys, entry] : l->second) {
        if (!first_entry) r.out->push_back(',');
        first_entry = false;
        r.stack.emplace_back(&name, &keys);
        r.out->push_back('{');
        Members em(r.out);
        for (const auto& [k, v] : keys) {
          em.begin({}, k);
          writeKey(r, ls, k, v);
        }
        entry->writeMembers(r, ls, false, em, &keys);
        r.out->push_back('}');
        r.stack.pop_back();
      }
      r.out->push_back(']');
      ++l;
    }
  }

  void writeObject(Render& r, const YangNode* schema, bool top = false) const {
    r.out->push_back('{');
    Members m(r.out);
    writeMembers(r, schema, top, m, nullptr);
    r.out->push_back('}');
  }

  // A key by its key leaf's type. A key that does not fit is still written
  // (as a string, reported): leaving it out would orphan its entry.
  static void writeKey(Render& r, const YangNode* list, const std::string& k, const std::string& v) {
    const YangNode* ks = r.ietf && list != nullptr ? list->child(k) : nullptr;
    if (ks == nullptr || !ks->is_leaf) {
      appendJsonString(v, r.out);
      return;
    }
    const Value text(v);
    if (appendIetfScalar(text, ks->leaf, r.out)) return;
    appendJsonString(v, r.out);
    reportIetfMismatch(r.leafPath() + "/" + k, ks->leaf, text, true);
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

std::string JsonTree::renderJson() const {
  std::string out;
  Render r;
  r.out = &out;
  root_->writeObject(r, nullptr);
  return out;
}

std::string JsonTree::renderIetf(const YangNode* schema, std::string_view where) const {
  if (schema == nullptr) return "{}";
  std::string out;
  Render r;
  r.ietf = true;
  r.out = &out;
  r.where = where;
  root_->writeObject(r, schema, true);
  return out;
}

}  // namespace rdmagw::northbound::gnmi
