#include "southbound/gnmi/mapping/json_flatten.h"

#include "southbound/gnmi/mapping/mapping_table.h"

namespace rdmagw::southbound::gnmi {
namespace {

using Kind = JsonNode::Kind;

std::string_view stripModule(std::string_view name) {
  size_t colon = name.find(':');
  return colon == std::string_view::npos ? name : name.substr(colon + 1);
}

class Walker {
 public:
  Walker(const JsonDom& dom, PathBuffer& path, JsonLeafSink& sink) : dom_(dom), path_(path), sink_(sink) {}

  void root() {
    uint32_t r = dom_.root();
    if (r == kNoNode) return;
    const JsonNode& n = dom_.node(r);
    switch (n.kind) {
      case Kind::kNull:
        return;
      case Kind::kObject:
        if (isDmeObject(r)) {
          dmeObject(r);
        } else {
          object(r);
        }
        return;
      case Kind::kArray:
        baseList(r);
        return;
      default:
        sink_.leaf(path_, n);
    }
  }

 private:
  // A DME managed object: {"attributes": {...}, "children": [...]}. Its class
  // name (the member holding it) is not a path element; its rn is.
  bool isDmeObject(uint32_t n) const {
    if (dom_.node(n).kind != Kind::kObject) return false;
    uint32_t attrs = dom_.member(n, "attributes");
    return attrs != kNoNode && dom_.node(attrs).kind == Kind::kObject;
  }

  // A child entry {"rmonDot3Stats": {"attributes": ...}}: its one member.
  uint32_t dmeClass(uint32_t item) const {
    uint32_t m = dom_.node(item).first;
    if (m == kNoNode || dom_.node(m).next != kNoNode) return kNoNode;
    return isDmeObject(m) ? m : kNoNode;
  }

  void dmeObject(uint32_t cls) {
    object(dom_.member(cls, "attributes"));
    uint32_t children = dom_.member(cls, "children");
    if (children == kNoNode || dom_.node(children).kind != Kind::kArray) return;
    for (uint32_t item = dom_.node(children).first; item != kNoNode; item = dom_.node(item).next) {
      uint32_t child = dom_.node(item).kind == Kind::kObject ? dmeClass(item) : kNoNode;
      if (child == kNoNode) {
        sink_.error("DME child without class and attributes, skipped");
        continue;
      }
      uint32_t rn = dom_.member(dom_.member(child, "attributes"), "rn");
      if (rn == kNoNode || dom_.node(rn).kind != Kind::kString || dom_.node(rn).text.empty()) {
        sink_.error("DME child " + std::string(dom_.node(child).key) + " without rn, skipped");
        continue;
      }
      std::string err;
      if (!path_.push(dom_.node(rn).text, &err)) {
        sink_.error(err);
        continue;
      }
      dmeObject(child);
      path_.pop();
    }
  }

  void object(uint32_t obj) {
    for (uint32_t m = dom_.node(obj).first; m != kNoNode; m = dom_.node(m).next) {
      const JsonNode& n = dom_.node(m);
      if (n.kind == Kind::kNull) continue;
      if (n.kind == Kind::kArray) {
        list(stripModule(n.key), m);
        continue;
      }
      if (isDmeObject(m)) {
        dmeObject(m);
        continue;
      }
      std::string err;
      if (!path_.push(stripModule(n.key), &err)) {
        sink_.error(err);
        continue;
      }
      if (n.kind == Kind::kObject) {
        object(m);
      } else {
        sink_.leaf(path_, n);
      }
      path_.pop();
    }
  }

  // Adds the entry's key leaves to the last element; false when it has none.
  bool keyEntry(std::string_view list_name, uint32_t item) {
    auto scalar = [&](std::string_view key) -> const JsonNode* {
      uint32_t m = dom_.member(item, key);
      return m != kNoNode && dom_.node(m).isScalar() ? &dom_.node(m) : nullptr;
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
  bool leafList(uint32_t arr, JsonNode& out) {
    std::string joined;
    for (uint32_t i = dom_.node(arr).first; i != kNoNode; i = dom_.node(i).next) {
      if (!dom_.node(i).isScalar()) return false;
      if (!joined.empty()) joined.push_back(',');
      joined.append(dom_.node(i).text);
    }
    out.kind = Kind::kString;
    out.text = path_.keep(std::move(joined));
    return true;
  }

  bool allObjects(uint32_t arr) const {
    for (uint32_t i = dom_.node(arr).first; i != kNoNode; i = dom_.node(i).next) {
      if (dom_.node(i).kind != Kind::kObject) return false;
    }
    return true;
  }

  void list(std::string_view name, uint32_t arr) {
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
    for (uint32_t item = dom_.node(arr).first; item != kNoNode; item = dom_.node(item).next) {
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
  void baseList(uint32_t arr) {
    if (!allObjects(arr)) {
      JsonNode joined;
      if (!leafList(arr, joined)) return sink_.error("array mixing objects and values, skipped");
      sink_.leaf(path_, joined);
      return;
    }
    if (path_.elems.empty()) return sink_.error("JSON list without a base path, skipped");
    ElemRef last = path_.elems.back();
    std::string err;
    for (uint32_t item = dom_.node(arr).first; item != kNoNode; item = dom_.node(item).next) {
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

  const JsonDom& dom_;
  PathBuffer& path_;
  JsonLeafSink& sink_;
};

}  // namespace

void walkJson(const JsonDom& dom, PathBuffer& path, JsonLeafSink& sink) { Walker(dom, path, sink).root(); }

}  // namespace rdmagw::southbound::gnmi
