#include "replay_loader.h"

#include <nlohmann/json.hpp>

#include <map>
#include <set>
#include <string>

#include "gnmi_builders.h"

namespace rdmagw::testing {
namespace {

using nlohmann::json;

::gnmi::TypedValue typed(const json& v) {
  ::gnmi::TypedValue t;
  if (v.is_boolean()) {
    t.set_bool_val(v.get<bool>());
  } else if (v.is_number_unsigned()) {
    t.set_uint_val(v.get<uint64_t>());
  } else if (v.is_number_integer()) {
    t.set_int_val(v.get<int64_t>());
  } else if (v.is_number_float()) {
    t.set_double_val(v.get<double>());
  } else if (v.is_string()) {
    t.set_string_val(v.get<std::string>());
  } else {
    t.set_json_val(v.dump());
  }
  return t;
}

std::vector<std::string_view> lines(std::string_view text) {
  std::vector<std::string_view> out;
  while (!text.empty()) {
    size_t nl = text.find('\n');
    out.push_back(text.substr(0, nl));
    if (nl == std::string_view::npos) break;
    text.remove_prefix(nl + 1);
  }
  return out;
}

}  // namespace

Replay fromGnmicEvents(std::string_view text) {
  Replay r;
  for (std::string_view line : lines(text)) {
    if (line.empty() || line[0] != '{') continue;
    json rec = json::parse(line, nullptr, false);
    if (rec.is_discarded()) {
      ++r.skipped;
      continue;
    }
    ::gnmi::Notification n;
    n.set_timestamp(rec.value("timestamp", int64_t{0}));
    for (auto& [key, value] : rec["values"].items()) {
      ::gnmi::Path p = gpath(key);
      // gnmic moved each key into a tag named <elem>_<key>.
      for (auto& [tag, tv] : rec["tags"].items()) {
        size_t us = tag.find('_');
        if (us == std::string::npos || !tv.is_string()) continue;
        for (::gnmi::PathElem& e : *p.mutable_elem()) {
          if (e.name() == tag.substr(0, us)) (*e.mutable_key())[tag.substr(us + 1)] = tv.get<std::string>();
        }
      }
      addUpdate(n, std::move(p), typed(value));
    }
    r.notifications.push_back(std::move(n));
  }
  return r;
}

Replay fromGnmicGet(std::string_view text) {
  Replay r;
  size_t start = text.find("\n[\n");  // after the prompt line "[root@host ...]# gnmic ..."
  json doc = json::parse(text.substr(start == std::string_view::npos ? 0 : start + 1), nullptr, false);
  if (!doc.is_array()) return r;
  for (const json& resp : doc) {
    ::gnmi::Notification n;
    n.set_timestamp(resp.value("timestamp", int64_t{0}));
    for (const json& u : resp["updates"]) {
      for (auto& [key, value] : u["values"].items()) addUpdate(n, gpath(u["Path"].get<std::string>()), typed(value));
    }
    r.notifications.push_back(std::move(n));
  }
  return r;
}

Replay fromDmeRest(std::string_view text) {
  Replay r;
  size_t start = text.find("\n{");
  std::string_view body = text.substr(start == std::string_view::npos ? 0 : start + 1);
  json doc = json::parse(body, nullptr, false);
  if (!doc.is_object() || doc.empty()) return r;
  std::string dn = doc.begin().value()["attributes"].value("dn", "");
  // The DN exactly as NX-OS writes it, one element per rn.
  std::vector<std::string> rns;
  int depth = 0;
  std::string cur;
  for (char c : dn) {
    if (c == '[') ++depth;
    if (c == ']') --depth;
    if (c == '/' && depth == 0) {
      rns.push_back(cur);
      cur.clear();
    } else {
      cur.push_back(c);
    }
  }
  rns.push_back(cur);
  ::gnmi::Notification n;
  addUpdate(n, rawPath("DME", rns), jsonVal(std::string(body)));
  r.notifications.push_back(std::move(n));
  return r;
}

Replay fromNetconfReply(std::string_view text) {
  Replay r;
  size_t data = text.find("<data>");
  if (data == std::string_view::npos) return r;
  static const std::map<std::string, std::string> kListKeys = {{"interface", ""}, {"queue", ""}};
  struct Open {
    std::string name;
    std::map<std::string, std::string> keys;
    bool list = false;
    bool has_child = false;
  };
  std::vector<Open> stack;
  std::string textbuf;
  ::gnmi::Notification n;
  size_t pos = data + 6;
  while (pos < text.size()) {
    size_t lt = text.find('<', pos);
    if (lt == std::string_view::npos) break;
    textbuf.assign(text.substr(pos, lt - pos));
    size_t gt = text.find('>', lt);
    if (gt == std::string_view::npos) break;  // cut inside a tag
    std::string_view tag = text.substr(lt + 1, gt - lt - 1);
    pos = gt + 1;
    if (tag.empty() || tag[0] == '?' || tag[0] == '!') continue;
    if (tag[0] == '/') {
      if (tag.substr(1) == "data" || stack.empty()) break;
      Open closing = std::move(stack.back());
      stack.pop_back();
      if (closing.has_child) continue;
      // A leaf: its path is the open elements plus itself.
      size_t b = textbuf.find_first_not_of(" \t\r\n"), e = textbuf.find_last_not_of(" \t\r\n");
      std::string value = b == std::string::npos ? "" : textbuf.substr(b, e - b + 1);
      if (!stack.empty() && stack.back().list && stack.back().keys.empty()) stack.back().keys[closing.name] = value;
      ::gnmi::Path p;
      p.set_origin("openconfig");
      for (const Open& o : stack) {
        ::gnmi::PathElem* pe = p.add_elem();
        pe->set_name(o.name);
        for (const auto& [k, v] : o.keys) (*pe->mutable_key())[k] = v;
      }
      p.add_elem()->set_name(closing.name);
      bool digits = !value.empty() && value.find_first_not_of("0123456789") == std::string::npos;
      addUpdate(n, std::move(p), digits ? uintVal(std::stoull(value)) : stringVal(value));
      continue;
    }
    std::string name(tag.substr(0, tag.find_first_of(" \t/")));
    if (!stack.empty()) stack.back().has_child = true;
    if (tag.back() == '/') continue;  // <empty/>
    stack.push_back(Open{name, {}, kListKeys.count(name) > 0, false});
  }
  if (!stack.empty()) ++r.skipped;
  r.notifications.push_back(std::move(n));
  return r;
}

}  // namespace rdmagw::testing
