#include "southbound/gnmi/mapping/path_buffer.h"

#include <algorithm>

namespace rdmagw::southbound::gnmi {
namespace {

bool needsSlowPath(std::string_view name) {
  for (char c : name) {
    if (c == '/' || c == '[' || c == ']' || c == ':') return true;
  }
  return false;
}

// "openconfig-interfaces:interfaces" -> "interfaces". Only a prefix before
// any bracket: a ':' inside a DN key ("[10.0.0.1:80]") is data.
std::string_view stripModule(std::string_view name) {
  size_t colon = name.find(':');
  if (colon == std::string_view::npos) return name;
  size_t bracket = name.find('[');
  if (bracket != std::string_view::npos && bracket < colon) return name;
  return name.substr(colon + 1);
}

int bracketBalance(std::string_view s) {
  int depth = 0;
  for (char c : s) {
    if (c == '[') ++depth;
    if (c == ']' && --depth < 0) return -1;
  }
  return depth;
}

}  // namespace

void appendEscapedName(std::string& out, std::string_view name) {
  for (char c : name) {
    if (c == '/' || c == '[' || c == ']' || c == '=' || c == '\\') out.push_back('\\');
    out.push_back(c);
  }
}

void appendEscapedValue(std::string& out, std::string_view value) {
  for (char c : value) {
    if (c == ']' || c == '\\') out.push_back('\\');
    out.push_back(c);
  }
}

void PathBuffer::clear() {
  elems.clear();
  keys.clear();
  arena_.clear();
  pending_.clear();
}

void PathBuffer::truncate(size_t n) {
  if (n >= elems.size()) return;
  keys.resize(elems[n].key_begin);
  elems.resize(n);
}

std::string_view PathBuffer::keep(std::string s) {
  arena_.push_back(std::move(s));
  return arena_.back();
}

void PathBuffer::addKey(std::string_view name, std::string_view value) {
  ElemRef& e = elems.back();
  auto pos = std::upper_bound(keys.begin() + e.key_begin, keys.begin() + e.key_end, name,
                              [](std::string_view n, const KeyRef& k) { return n < k.name; });
  keys.insert(pos, KeyRef{name, value});
  ++e.key_end;
}

bool PathBuffer::pushSegment(std::string_view seg, std::string* error) {
  if (elems.size() >= kMaxElems) {
    *error = "path deeper than " + std::to_string(kMaxElems) + " elements";
    return false;
  }
  if (seg.size() > kMaxNameLength) {
    *error = "element name longer than " + std::to_string(kMaxNameLength) + " bytes";
    return false;
  }
  ElemRef e;
  e.raw = stripModule(seg);
  e.name = e.raw;
  // DME relative name "phys-[eth1/1]": match on "phys", keep the value.
  size_t open = e.raw.find("-[");
  if (open != std::string_view::npos && open > 0 && e.raw.back() == ']') {
    e.name = e.raw.substr(0, open);
    e.rn = e.raw.substr(open + 2, e.raw.size() - open - 3);
    e.has_rn = true;
  }
  if (e.name.empty()) {
    *error = "empty element name";
    return false;
  }
  e.key_begin = e.key_end = static_cast<uint32_t>(keys.size());
  elems.push_back(e);
  return true;
}

bool PathBuffer::push(std::string_view name, std::string* error) {
  if (bracketBalance(name) != 0) {
    *error = "unbalanced brackets in element \"" + std::string(name.substr(0, 64)) + "\"";
    return false;
  }
  return pushSegment(name, error);
}

bool PathBuffer::appendDn(std::string_view dn, std::string* error) {
  // Splits at the '/' outside brackets: "sys/intf/phys-[eth1/1]/x".
  int depth = 0;
  size_t start = 0;
  for (size_t i = 0; i <= dn.size(); ++i) {
    char c = i < dn.size() ? dn[i] : '/';
    if (c == '[') ++depth;
    if (c == ']') --depth;
    if (c == '/' && depth == 0) {
      if (i > start && !pushSegment(dn.substr(start, i - start), error)) return false;
      start = i + 1;
    }
  }
  return true;
}

bool PathBuffer::appendProto(const ::gnmi::Path& path, std::string* error) {
  using KeyMap = google::protobuf::Map<std::string, std::string>;
  pending_.clear();
  auto one = [&](std::string_view name, const KeyMap* key_map) -> bool {
    if (pending_.empty() && !needsSlowPath(name)) {
      if (!pushSegment(name, error)) return false;
    } else {
      if (!pending_.empty()) pending_.push_back('/');
      pending_.append(name);
      int balance = bracketBalance(pending_);
      if (balance < 0) {
        *error = "unbalanced ']' in element \"" + std::string(name.substr(0, 64)) + "\"";
        return false;
      }
      if (balance > 0) {
        if (pending_.size() > kMaxNameLength) {
          *error = "unterminated '[' in element \"" + pending_.substr(0, 64) + "\"";
          return false;
        }
        return true;  // the DN continues in the next element
      }
      std::string_view dn = keep(std::move(pending_));
      pending_.clear();
      size_t before = elems.size();
      if (!appendDn(dn, error)) return false;
      if (elems.size() == before) {
        *error = "empty element name";
        return false;
      }
    }
    if (key_map) {
      for (const auto& [k, v] : *key_map) {
        if (k.empty()) {
          *error = "empty key name in element \"" + std::string(name.substr(0, 64)) + "\"";
          return false;
        }
        if (v.size() > kMaxKeyValueLength || k.size() > kMaxNameLength) {
          *error = "key " + k.substr(0, 64) + " longer than " + std::to_string(kMaxKeyValueLength) + " bytes";
          return false;
        }
        addKey(k, v);
      }
    }
    return true;
  };
  if (path.elem_size() > 0) {
    for (const ::gnmi::PathElem& pe : path.elem()) {
      if (!one(pe.name(), &pe.key())) return false;
    }
  } else {
    for (const std::string& name : path.element()) {
      if (!one(name, nullptr)) return false;
    }
  }
  if (!pending_.empty()) {
    *error = "unterminated '[' in path \"" + pending_.substr(0, 64) + "\"";
    pending_.clear();
    return false;
  }
  return true;
}

void PathBuffer::appendKeyless(std::string& out) const {
  for (const ElemRef& e : elems) {
    out.push_back('/');
    out.append(e.name);
  }
  if (elems.empty()) out.push_back('/');
}

void PathBuffer::appendCanonical(std::string& out) const {
  for (const ElemRef& e : elems) {
    out.push_back('/');
    appendEscapedName(out, e.raw);
    for (uint32_t i = e.key_begin; i < e.key_end; ++i) {
      out.push_back('[');
      appendEscapedName(out, keys[i].name);
      out.push_back('=');
      appendEscapedValue(out, keys[i].value);
      out.push_back(']');
    }
  }
  if (elems.empty()) out.push_back('/');
}

}  // namespace rdmagw::southbound::gnmi
