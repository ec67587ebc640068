#include "southbound/rdma/dcb_show.h"

#include <array>
#include <cmath>
#include <optional>
#include <string>

#include "southbound/text/json_reader.h"
#include "southbound/text/roce_text.h"

namespace rdmagw::southbound::rdma {

using text::Problems;
using text::dscpFromToken;
using text::parseBounded;
using text::trimBlanks;
using text::tsaFromWord;
using text::words;

namespace {

using rdmagw::roce::HostPort;
using rdmagw::roce::kPriorities;
using rdmagw::roce::Trust;
using rdmagw::roce::Tsa;
using text::JsonNode;

// The 8 entries of an index-keyed member: [a,b,...] or {"0":a,...}.
std::optional<std::array<const JsonNode*, kPriorities>> eight(const JsonNode& v, const char* name, Problems& p) {
  std::array<const JsonNode*, kPriorities> out{};
  if (v.kind == JsonNode::Kind::kArray) {
    const size_t n = v.size();
    if (n != size_t(kPriorities)) {
      p.add(std::string(name) + " has " + std::to_string(n) + " entries, not 8");
      return std::nullopt;
    }
    int i = 0;
    for (const JsonNode& item : v.children()) out[i++] = &item;
    return out;
  }
  if (v.kind == JsonNode::Kind::kObject) {
    for (const JsonNode& item : v.children()) {
      const std::string_view key = item.key;
      if (key.size() != 1 || key[0] < '0' || key[0] > '7') {
        p.add(std::string(name) + " key '" + std::string(key.substr(0, 16)) + "' is not 0..7");
        return std::nullopt;
      }
      out[key[0] - '0'] = &item;
    }
    for (const JsonNode* e : out) {
      if (e == nullptr) {
        p.add(std::string(name) + " does not have all 8 entries");
        return std::nullopt;
      }
    }
    return out;
  }
  p.add(std::string(name) + " is not an array");
  return std::nullopt;
}

std::optional<uint64_t> number(const JsonNode& v, uint64_t max, const std::string& where, Problems& p) {
  if (v.kind != JsonNode::Kind::kNumber) {
    p.add(where + " is not a number");
    return std::nullopt;
  }
  Result<uint64_t> n = parseBounded(v.text, max);
  if (!n.isOk()) {
    p.add(where + ": " + n.status().message());
    return std::nullopt;
  }
  return *n;
}

// An 8-entry numeric member into `dst` (all or nothing).
template <typename T>
bool numbers8(const JsonNode* v, const char* name, uint64_t max, std::array<std::optional<T>, kPriorities>& dst,
              Problems& p) {
  if (v == nullptr) return false;
  auto e = eight(*v, name, p);
  if (!e) return true;
  std::array<std::optional<T>, kPriorities> tmp{};
  for (int i = 0; i < kPriorities; ++i) {
    std::optional<uint64_t> n = number(*(*e)[i], max, std::string(name) + "[" + std::to_string(i) + "]", p);
    if (!n) return true;
    tmp[i] = T(*n);
  }
  dst = tmp;
  return true;
}

bool etsJson(const JsonNode& root, HostPort& port, Problems& p) {
  bool seen = numbers8(root.get("prio_tc"), "prio_tc", kPriorities - 1, port.priority_tc, p);
  std::array<std::optional<uint32_t>, kPriorities> bw{};
  if (numbers8(root.get("tc_bw"), "tc_bw", 100, bw, p)) {
    seen = true;
    for (int i = 0; i < kPriorities; ++i) {
      if (bw[i]) port.tc[i].bandwidth_percent = bw[i];
    }
  }
  if (const JsonNode* tsa = root.get("tc_tsa")) {
    seen = true;
    if (auto e = eight(*tsa, "tc_tsa", p)) {
      for (int i = 0; i < kPriorities; ++i) {
        std::optional<Tsa> t = (*e)[i]->kind == JsonNode::Kind::kString ? tsaFromWord((*e)[i]->text) : std::nullopt;
        if (!t) {
          p.add("tc_tsa[" + std::to_string(i) + "] is not strict/ets/cbs/vendor");
          continue;
        }
        port.tc[i].tsa = t;
      }
    }
  }
  return seen;
}

bool pfcJson(std::string_view json, const JsonNode& root, HostPort& port, Problems& p) {
  if (root.get("prio_pfc") == nullptr) return false;
  // The same reader as the DCB consistency leaf, so the two cannot disagree.
  Result<uint64_t> bits = parseDcbPrioPfc(json);
  if (!bits.isOk()) {
    p.add(bits.status().message());
  } else {
    port.pfc_enabled = uint8_t(*bits);
  }
  return true;
}

bool bufferJson(const JsonNode& root, HostPort& port, Problems& p) {
  bool seen = numbers8(root.get("prio_buffer"), "prio_buffer", kPriorities - 1, port.priority_buffer, p);
  seen |= numbers8(root.get("buffer_size"), "buffer_size", UINT32_MAX, port.buffer_bytes, p);
  if (const JsonNode* total = root.get("total_size")) {
    seen = true;
    if (std::optional<uint64_t> n = number(*total, UINT32_MAX, "total_size", p)) port.total_buffer_bytes = *n;
  }
  return seen;
}

// A rule's DSCP: a number (-j prints numbers) or a name (older iproute2).
std::optional<uint32_t> ruleDscp(const JsonNode& v) {
  if (v.kind != JsonNode::Kind::kNumber && v.kind != JsonNode::Kind::kString) return std::nullopt;
  return dscpFromToken(v.text);
}

bool appJson(const JsonNode& root, HostPort& port, Problems& p) {
  if (root.kind != JsonNode::Kind::kObject) return false;
  const JsonNode* rules = root.get("dscp_prio");
  if (rules == nullptr) {
    // `{}` or only other selectors: no DSCP rules, the port trusts PCP.
    port.trust = Trust::kPcp;
    port.dscp_priority.clear();
    return true;
  }
  if (rules->kind != JsonNode::Kind::kArray) {
    p.add("dscp_prio is not an array");
    return true;
  }
  std::map<uint32_t, uint32_t> map;
  size_t i = 0;
  for (const JsonNode& r : rules->children()) {
    const std::string where = "dscp_prio[" + std::to_string(i++) + "]";
    if (r.kind != JsonNode::Kind::kArray || r.size() != 2) {
      p.add(where + " is not a [dscp, priority] pair");
      continue;
    }
    const JsonNode& dscp_v = *r.at(0);
    std::optional<uint32_t> dscp = ruleDscp(dscp_v);
    if (!dscp) {
      p.add(where + ": '" + std::string(dscp_v.text.substr(0, 16)) + "' is not a DSCP 0..63 or name");
      continue;
    }
    std::optional<uint64_t> prio = number(*r.at(1), kPriorities - 1, where + " priority", p);
    if (prio) map[*dscp] = uint32_t(*prio);  // a later rule for the same DSCP wins, as mlx5 applies them
  }
  port.dscp_priority = map;
  port.trust = rules->children().empty() ? Trust::kPcp : Trust::kDscp;
  return true;
}

// ----- text -----

// "0:1 1:3 ..." after the key: index -> value token.
std::optional<std::array<std::string_view, kPriorities>> pairs8(const std::vector<std::string_view>& w,
                                                                const std::string& key, Problems& p) {
  std::array<std::string_view, kPriorities> out{};
  std::array<bool, kPriorities> set{};
  for (size_t i = 1; i < w.size(); ++i) {
    const size_t colon = w[i].find(':');
    if (colon == std::string_view::npos) {
      p.add(key + ": '" + std::string(w[i].substr(0, 24)) + "' is not INDEX:VALUE");
      return std::nullopt;
    }
    const std::string_view idx = w[i].substr(0, colon);
    const std::string_view val = w[i].substr(colon + 1);
    if (idx == "all") {
      for (int k = 0; k < kPriorities; ++k) out[k] = val, set[k] = true;
      continue;
    }
    Result<uint64_t> n = parseBounded(idx, kPriorities - 1);
    if (!n.isOk()) {
      p.add(key + " index: " + n.status().message());
      return std::nullopt;
    }
    out[*n] = val;
    set[*n] = true;
  }
  for (bool s : set) {
    if (!s) {
      p.add(key + " does not have all 8 entries");
      return std::nullopt;
    }
  }
  return out;
}

// "10000", "10000b", "10Kb", "1Mb" (iproute2 sprint_size: 1024-based, rounded).
std::optional<uint64_t> sizeBytes(std::string_view t) {
  uint64_t mult = 1;
  if (t.ends_with("Mb")) mult = 1024 * 1024, t.remove_suffix(2);
  else if (t.ends_with("Kb")) mult = 1024, t.remove_suffix(2);
  else if (t.ends_with("b")) t.remove_suffix(1);
  Result<uint64_t> n = parseBounded(t, UINT32_MAX);
  if (!n.isOk()) return std::nullopt;
  return *n * mult;
}

template <typename T>
void numbersText(const std::vector<std::string_view>& w, const std::string& key, uint64_t max,
                 std::array<std::optional<T>, kPriorities>& dst, Problems& p) {
  auto e = pairs8(w, key, p);
  if (!e) return;
  std::array<std::optional<T>, kPriorities> tmp{};
  for (int i = 0; i < kPriorities; ++i) {
    Result<uint64_t> n = parseBounded((*e)[i], max);
    if (!n.isOk()) {
      p.add(key + " " + std::to_string(i) + ": " + n.status().message());
      return;
    }
    tmp[i] = T(*n);
  }
  dst = tmp;
}

bool textLine(const std::vector<std::string_view>& w, HostPort& port, Problems& p) {
  const std::string key(w[0]);
  if (key == "prio-tc") {
    numbersText(w, key, kPriorities - 1, port.priority_tc, p);
  } else if (key == "tc-bw") {
    std::array<std::optional<uint32_t>, kPriorities> bw{};
    numbersText(w, key, 100, bw, p);
    for (int i = 0; i < kPriorities; ++i) {
      if (bw[i]) port.tc[i].bandwidth_percent = bw[i];
    }
  } else if (key == "tc-tsa") {
    if (auto e = pairs8(w, key, p)) {
      for (int i = 0; i < kPriorities; ++i) {
        if (std::optional<Tsa> t = tsaFromWord((*e)[i])) {
          port.tc[i].tsa = t;
        } else {
          p.add("tc-tsa " + std::to_string(i) + ": '" + std::string((*e)[i].substr(0, 16)) + "' is not a TSA");
        }
      }
    }
  } else if (key == "prio-pfc" || key == "pg-pfc") {
    if (auto e = pairs8(w, key, p)) {
      uint8_t bits = 0;
      for (int i = 0; i < kPriorities; ++i) {
        if ((*e)[i] == "on") {
          bits |= uint8_t(1u << i);
        } else if ((*e)[i] != "off") {
          p.add(key + " " + std::to_string(i) + ": '" + std::string((*e)[i].substr(0, 16)) + "' is not on/off");
          return true;
        }
      }
      port.pfc_enabled = bits;
    }
  } else if (key == "prio-buffer") {
    numbersText(w, key, kPriorities - 1, port.priority_buffer, p);
  } else if (key == "buffer-size") {
    if (auto e = pairs8(w, key, p)) {
      std::array<std::optional<uint64_t>, kPriorities> tmp{};
      for (int i = 0; i < kPriorities; ++i) {
        tmp[i] = sizeBytes((*e)[i]);
        if (!tmp[i]) {
          p.add("buffer-size " + std::to_string(i) + ": '" + std::string((*e)[i].substr(0, 16)) + "' is not a size");
          return true;
        }
      }
      port.buffer_bytes = tmp;
    }
  } else if (key == "total-size") {
    std::optional<uint64_t> n = w.size() == 2 ? sizeBytes(w[1]) : std::nullopt;
    if (n) port.total_buffer_bytes = *n;
    else p.add("total-size is not a size");
  } else if (key == "dscp-prio") {
    std::map<uint32_t, uint32_t> map;
    for (size_t i = 1; i < w.size(); ++i) {
      const size_t colon = w[i].rfind(':');
      std::optional<uint32_t> dscp = colon == std::string_view::npos ? std::nullopt : dscpFromToken(w[i].substr(0, colon));
      Result<uint64_t> prio = colon == std::string_view::npos ? Result<uint64_t>(Status::corrupt("no ':'"))
                                                              : parseBounded(w[i].substr(colon + 1), kPriorities - 1);
      if (!dscp || !prio.isOk()) {
        p.add("dscp-prio: '" + std::string(w[i].substr(0, 24)) + "' is not DSCP:PRIORITY");
        continue;
      }
      map[*dscp] = uint32_t(*prio);
    }
    port.dscp_priority = map;
    port.trust = map.empty() ? Trust::kPcp : Trust::kDscp;
  } else {
    return false;
  }
  return true;
}

}  // namespace

namespace {

std::optional<bool> jsonBool(const JsonNode& v) {
  if (v.kind != JsonNode::Kind::kBool) return std::nullopt;
  return v.text == "true";
}

}  // namespace

Result<uint64_t> parseDcbPrioPfc(std::string_view text) {
  const text::JsonParse doc = text::parseJson(text);
  if (!doc.complete) return Status::corrupt("dcb pfc JSON: " + doc.error);
  const JsonNode* prio = doc.root().get("prio_pfc");
  if (prio == nullptr) return Status::corrupt("dcb pfc JSON: no prio_pfc member");
  uint64_t bits = 0;
  size_t seen = 0;
  auto take = [&](size_t p, const JsonNode& v) -> Status {
    std::optional<bool> on = jsonBool(v);
    if (!on || p > 7) {
      return Status::corrupt("dcb pfc JSON: prio_pfc entry " + std::to_string(p) + " is not true/false");
    }
    if (*on) bits |= uint64_t(1) << p;
    ++seen;
    return Status::ok();
  };
  if (prio->kind == JsonNode::Kind::kArray) {
    size_t i = 0;
    for (const JsonNode& v : prio->children()) {
      if (Status s = take(i++, v); !s.isOk()) return s;
    }
  } else if (prio->kind == JsonNode::Kind::kObject) {
    for (const JsonNode& v : prio->children()) {
      const std::string_view key = v.key;
      if (key.size() != 1 || key[0] < '0' || key[0] > '7') {
        return Status::corrupt("dcb pfc JSON: prio_pfc key '" + std::string(key) + "'");
      }
      if (Status s = take(size_t(key[0] - '0'), v); !s.isOk()) return s;
    }
  }
  if (seen != 8) return Status::corrupt("dcb pfc JSON: prio_pfc has " + std::to_string(seen) + " priorities, not 8");
  return bits;
}

Status parseDcbJson(std::string_view object, std::string_view json, HostPort& port) {
  const std::string what = "dcb " + std::string(object) + " JSON";
  const text::JsonParse doc = text::parseJson(json);
  if (!doc.complete) return Status::corrupt(what + ": " + doc.error);
  if (doc.root().kind != JsonNode::Kind::kObject) return Status::corrupt(what + ": not an object");
  Problems p(what);
  bool seen = false;
  if (object == "ets") seen = etsJson(doc.root(), port, p);
  else if (object == "pfc") seen = pfcJson(json, doc.root(), port, p);
  else if (object == "buffer") seen = bufferJson(doc.root(), port, p);
  else if (object == "app") seen = appJson(doc.root(), port, p);
  else return Status::invalidArgument("dcb: unknown object '" + std::string(object.substr(0, 16)) + "'");
  if (!seen) return Status::corrupt(what + ": none of its members");
  if (object == "ets") port.read_ets = true;
  if (object == "buffer") port.read_buffers = true;
  if (object == "app") port.read_dscp_map = true;
  return p.status();
}

Status parseDcbText(std::string_view text, HostPort& port) {
  Problems p("dcb show");
  bool seen = false;
  bool continued = false;  // the previous line was a command ending in '\'
  size_t start = 0;
  while (start < text.size()) {
    size_t nl = text.find('\n', start);
    if (nl == std::string_view::npos) nl = text.size();
    const std::string_view line = trimBlanks(text.substr(start, nl - start));
    start = nl + 1;
    const bool skip = continued || line.starts_with('#');
    continued = skip && line.ends_with('\\');
    if (skip || line.empty()) continue;
    const std::vector<std::string_view> w = words(line);
    if (textLine(w, port, p)) seen = true;
  }
  if (!seen) return Status::corrupt("dcb show: no prio-tc, tc-tsa, tc-bw, prio-pfc, prio-buffer, buffer-size or dscp-prio line");
  return p.status();
}

}  // namespace rdmagw::southbound::rdma
