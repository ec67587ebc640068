#include "southbound/gnmi/mapping/json_flatten.h"

#include "southbound/gnmi/mapping/mapping_table.h"

namespace rdmagw::southbound::gnmi {
namespace {

using text::JsonDom;
using text::JsonNode;
using Kind = JsonNode::Kind;

std::string_view stripModule(std::string_view name) {
  size_t colon = name.find(':');
  return colon == std::string_view::npos ? name : name.substr(colon + 1);
}

class Walker {
 public:
  Walker(PathBuffer& path, JsonLeafSink& sink) : path_(path), sink_(sink) {}

  void root(const JsonNode* n) {
    if (n == nullptr) return;
    switch (n->kind) {
      case Kind::kNull:
        return;
      case Kind::kObject:
        if (isDmeObject(*n)) {
          dmeObject(*n);
        } else {
          object(*n);
        }
        return;
      case Kind::kArray:
        baseList(*n);
        return;
      default:
        sink_.leaf(path_, *n);
    }
  }

 private:
  // A DME managed object: {"attributes": {...}, "children": [...]}. Its class
  // name (the member holding it) is not a path element; its rn is.
  static bool isDmeObject(const JsonNode& n) {
    if (n.kind != Kind::kObject) return false;
    const JsonNode* attrs = n.get("attributes");
    return attrs != nullptr && attrs->kind == Kind::kObject;
  }

  // A child entry {"rmonDot3Stats": {"attributes": ...}}: its one member.
  static const JsonNode* dmeClass(const JsonNode& item) {
    const JsonNode* m = item.firstChild();
    if (m == nullptr || m->nextSibling() != nullptr) return nullptr;
    return isDmeObject(*m) ? m : nullptr;
  }

  void dmeObject(const JsonNode& cls) {
    object(*cls.get("attributes"));
    const JsonNode* children = cls.get("children");
    if (children == nullptr || children->kind != Kind::kArray) return;
    for (const JsonNode& item : children->children()) {
      const JsonNode* child = item.kind == Kind::kObject ? dmeClass(item) : nullptr;
      if (child == nullptr) {
        sink_.error("DME child without class and attributes, skipped");
        continue;
      }
      const JsonNode* rn = child->get("attributes")->get("rn");
      if (rn == nullptr || rn->kind != Kind::kString || rn->text.empty()) {
        sink_.error("DME child " + std::string(child->key) + " without rn, skipped");
        continue;
      }
      std::string err;
      if (!path_.push(rn->text, &err)) {
        sink_.error(err);
        continue;
      }
      dmeObject(*child);
      path_.pop();
    }
  }

  void object(const JsonNode& obj) {
    for (const JsonNode& n : obj.children()) {
      if (n.kind == Kind::kNull) continue;
      if (n.kind == Kind::kArray) {
        list(stripModule(n.key), n);
        continue;
      }
      if (isDmeObject(n)) {
        dmeObject(n);
        continue;
      }
      std::string err;
      if (!path_.push(stripModule(n.key), &err)) {
        sink_.error(err);
        continue;
      }
      if (n.kind == Kind::kObject) {
        object(n);
      } else {
        sink_.leaf(path_, n);
      }
      path_.pop();
    }
  }

  // Adds the entry's key leaves to the last element; false when it has none.
  bool keyEntry(std::string_view list_name, const JsonNode& item) {
    auto scalar = [&](std::string_view key) -> const JsonNode* {
      const JsonNode* m = item.get(key);
      return m != nullptr && m->isScalar() ? m : nullptr;
    };
    bool any = false;
    for (std::string_view key : listKeysOf(list_name)) {
      if (const JsonNode* v = scalar(key)) {
        path_.addKey(key, v->text);
        any = true;
      }
    }
    if (any) return true;
    for (std::string_view key : {"name", "id", "index"}) {
      if (const JsonNode* v = scalar(key)) {
        path_.addKey(key, v->text);
        return true;
      }
    }
    return false;
  }

  // Arrays of scalars are leaf-lists: one string, elements joined by ','.
  bool leafList(const JsonNode& arr, JsonNode& out) {
    std::string joined;
    for (const JsonNode& i : arr.children()) {
      if (!i.isScalar()) return false;
      if (!joined.empty()) joined.push_back(',');
      joined.append(i.text);
    }
    out.kind = Kind::kString;
    out.text = path_.keep(std::move(joined));
    return true;
  }

  static bool allObjects(const JsonNode& arr) {
    for (const JsonNode& i : arr.children()) {
      if (i.kind != Kind::kObject) return false;
    }
    return true;
  }

  void list(std::string_view name, const JsonNode& arr) {
    std::string err;
    if (!allObjects(arr)) {
      JsonNode joined;
      if (!leafList(arr, joined)) {
        sink_.error("array mixing objects and values under " + std::string(name) + ", skipped");
        return;
      }
      if (!path_.push(name, &err)) return sink_.error(err);
      sink_.leaf(path_, joined);
      path_.pop();
      return;
    }
    for (const JsonNode& item : arr.children()) {
      if (!path_.push(name, &err)) return sink_.error(err);
      if (keyEntry(name, item)) {
        object(item);
      } else {
        sink_.error("entry of list " + std::string(name) + " without a key leaf, skipped");
      }
      path_.pop();
    }
  }

  // A top-level array: entries of the list the base path names.
  void baseList(const JsonNode& arr) {
    if (!allObjects(arr)) {
      JsonNode joined;
      if (!leafList(arr, joined)) return sink_.error("array mixing objects and values, skipped");
      sink_.leaf(path_, joined);
      return;
    }
    if (path_.elems.empty()) return sink_.error("JSON list without a base path, skipped");
    ElemRef last = path_.elems.back();
    for (const JsonNode& item : arr.children()) {
      path_.pop();
      path_.elems.push_back(last);
      path_.elems.back().key_begin = path_.elems.back().key_end = static_cast<uint32_t>(path_.keys.size());
      if (keyEntry(last.name, item)) {
        object(item);
      } else {
        sink_.error("entry of list " + std::string(last.name) + " without a key leaf, skipped");
      }
    }
  }

  PathBuffer& path_;
  JsonLeafSink& sink_;
};

}  // namespace

void walkJson(const JsonDom& dom, PathBuffer& path, JsonLeafSink& sink) { Walker(path, sink).root(dom.root()); }

}  // namespace rdmagw::southbound::gnmi
