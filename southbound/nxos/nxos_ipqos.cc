#include "southbound/nxos/nxos_ipqos.h"

#include <cctype>
#include <optional>
#include <string>
#include <vector>

#include "southbound/nxos/nxos_ipqos_statements.h"
#include "southbound/nxos/nxos_text.h"
#include "southbound/text/roce_text.h"

namespace rdmagw::southbound::nxos {

using text::Problems;
using text::dscpFromToken;
using text::parseBounded;
using text::trimBlanks;
using text::words;

namespace {

using rdmagw::roce::ClassMap;
using rdmagw::roce::PauseThresholds;
using rdmagw::roce::PolicyClass;
using rdmagw::roce::PolicyMap;
using rdmagw::roce::ServicePolicies;
using rdmagw::roce::SwitchQos;
using rdmagw::roce::Wred;

std::string lower(std::string_view s) { return toLower(s); }

// "26", "24-31", "26,46", "af31", "10 12 14" -> values <= max (names only for DSCP).
std::optional<std::vector<uint32_t>> valueList(const std::vector<std::string_view>& w, size_t from, uint32_t max,
                                               bool dscp_names, std::string& err) {
  std::vector<uint32_t> out;
  std::string joined;
  for (size_t i = from; i < w.size(); ++i) joined += std::string(w[i]) + ",";
  size_t i = 0;
  while (i < joined.size()) {
    size_t c = joined.find(',', i);
    const std::string item(trimBlanks(std::string_view(joined).substr(i, c - i)));
    i = c + 1;
    if (item.empty()) continue;
    const size_t dash = item.find('-', 1);
    if (dash != std::string::npos) {
      Result<uint64_t> a = parseBounded(item.substr(0, dash), max);
      Result<uint64_t> b = parseBounded(item.substr(dash + 1), max);
      if (!a.isOk() || !b.isOk() || *a > *b) {
        err = "'" + item.substr(0, 24) + "' is not a range within 0.." + std::to_string(max);
        return std::nullopt;
      }
      for (uint64_t v = *a; v <= *b; ++v) out.push_back(uint32_t(v));
      continue;
    }
    std::optional<uint32_t> v;
    if (dscp_names) {
      v = dscpFromToken(item);
    } else if (Result<uint64_t> n = parseBounded(item, max); n.isOk()) {
      v = uint32_t(*n);
    }
    if (!v) {
      err = "'" + item.substr(0, 24) + "' is not a value within 0.." + std::to_string(max);
      return std::nullopt;
    }
    out.push_back(*v);
  }
  if (out.empty()) {
    err = "no values";
    return std::nullopt;
  }
  return out;
}

Result<uint64_t> numberAt(const std::vector<std::string_view>& w, size_t i, uint64_t max) {
  if (i >= w.size()) return Status::corrupt("a number is missing at the end");
  return parseBounded(w[i], max);
}

// The parse of one configuration: the block each statement falls in.
class IpqosParser {
 public:
  IpqosParser(SwitchQos& qos, Problems& p) : qos_(qos), p_(p) {}

  bool statement(const IpqosStatement& s) {
    const std::vector<std::string_view> w = words(s.text);
    if (w.empty() || w[0].starts_with('!') || w[0].starts_with('#')) return false;
    if (s.top_level) closeBlocks();
    const std::string k0 = lower(w[0]);
    const std::string k1 = w.size() > 1 ? lower(w[1]) : "";
    stmt_ = s.text.substr(0, 60);
    if (k0 == "class-map") return classMap(w);
    if (k0 == "policy-map") return policyMap(w);
    if (k0 == "class") return policyClass(w);
    if (k0 == "system" && k1 == "qos") {
      closeBlocks();
      in_system_ = true;
      return true;
    }
    if (k0 == "interface") return interface(s.text.substr(w[0].size()));
    if (k0 == "service-policy") return servicePolicy(w);
    if (k0 == "priority-flow-control") return pfc(w);
    if (k0 == "congestion-control") {
      closeBlocks();
      if (k1 == "random-detect" && w.size() > 2 && lower(w[2]) == "forward-nonecn") qos_.forward_nonecn = true;
      return true;
    }
    if (k0 == "hardware" || k0 == "version") {
      closeBlocks();
      return false;
    }
    if (k0 == "match") return match(w);
    if (cls_ != nullptr) return classStatement(k0, w);
    return false;
  }

 private:
  void closeBlocks() {
    class_map_ = nullptr;
    policy_ = nullptr;
    cls_ = nullptr;
    in_system_ = false;
    interfaces_.clear();
  }

  void bad(const std::string& why) { p_.add("'" + stmt_ + "': " + why); }

  // The optional "type T" after the keyword at w[0] (qos when absent),
  // leaving `i` on the word after it; false (and a problem) when T is missing.
  bool typeClause(const std::vector<std::string_view>& w, size_t& i, std::string& type) {
    type = "qos";
    if (i >= w.size() || lower(w[i]) != "type") return true;
    if (i + 1 >= w.size()) return bad("no type"), false;
    type = lower(w[i + 1]);
    i += 2;
    return true;
  }

  // class-map type qos match-all NAME | class-map type network-qos NAME | class-map NAME
  bool classMap(const std::vector<std::string_view>& w) {
    closeBlocks();
    size_t i = 1;
    std::string type;
    if (!typeClause(w, i, type)) return true;
    std::string mode;
    if (i < w.size() && (lower(w[i]) == "match-all" || lower(w[i]) == "match-any")) mode = lower(w[i++]);
    if (i >= w.size()) return bad("no class-map name"), true;
    ClassMap& cm = qos_.class_maps[std::string(w[i])];
    cm.type = type;
    cm.match_mode = mode;
    class_map_ = &cm;
    return true;
  }

  bool policyMap(const std::vector<std::string_view>& w) {
    closeBlocks();
    size_t i = 1;
    std::string type;
    if (!typeClause(w, i, type)) return true;
    if (i >= w.size()) return bad("no policy-map name"), true;
    PolicyMap& pm = qos_.policy_maps[std::string(w[i])];
    pm.type = type;
    policy_ = &pm;
    return true;
  }

  // class [type T] NAME inside a policy-map; the same class again continues it.
  bool policyClass(const std::vector<std::string_view>& w) {
    if (policy_ == nullptr) return false;
    size_t i = 1;
    if (i < w.size() && lower(w[i]) == "type") i += 2;
    if (i >= w.size()) return bad("no class name"), true;
    const std::string name(w[i]);
    for (PolicyClass& c : policy_->classes) {
      if (c.name == name) {
        cls_ = &c;
        return true;
      }
    }
    policy_->classes.push_back(PolicyClass{});
    cls_ = &policy_->classes.back();
    cls_->name = name;
    return true;
  }

  bool match(const std::vector<std::string_view>& w) {
    if (class_map_ == nullptr || w.size() < 2) return false;
    const std::string what = lower(w[1]);
    if (what == "not") return true;  // a negative match selects no DSCP of its own
    std::string err;
    if (what == "dscp") {
      if (auto v = valueList(w, 2, rdmagw::roce::kMaxDscp, true, err)) class_map_->dscp.insert(class_map_->dscp.end(), v->begin(), v->end());
      else bad("match dscp: " + err);
    } else if (what == "cos") {
      if (auto v = valueList(w, 2, 7, false, err)) class_map_->cos.insert(class_map_->cos.end(), v->begin(), v->end());
      else bad("match cos: " + err);
    } else if (what == "qos-group") {
      if (auto v = valueList(w, 2, 7, false, err)) class_map_->qos_group.insert(class_map_->qos_group.end(), v->begin(), v->end());
      else bad("match qos-group: " + err);
    }
    return true;
  }

  bool classStatement(const std::string& k0, const std::vector<std::string_view>& w) {
    const std::string k1 = w.size() > 1 ? lower(w[1]) : "";
    if (k0 == "set" && k1 == "qos-group") {
      Result<uint64_t> n = numberAt(w, 2, 7);
      if (n.isOk()) cls_->set_qos_group = uint32_t(*n);
      else bad("set qos-group: " + n.status().message());
    } else if (k0 == "mtu") {
      Result<uint64_t> n = numberAt(w, 1, 65535);
      if (n.isOk()) cls_->mtu = uint32_t(*n);
      else bad("bad mtu: " + n.status().message());
    } else if (k0 == "pause") {
      pause(w);
    } else if (k0 == "bandwidth") {
      const bool remaining = k1 == "remaining";
      const size_t at = remaining ? 3 : 2;
      if (w.size() <= at || lower(w[at - 1]) != "percent") return bad("bandwidth: not '[remaining] percent N'"), true;
      Result<uint64_t> n = numberAt(w, at, 100);
      if (!n.isOk()) return bad("bandwidth: " + n.status().message()), true;
      (remaining ? cls_->bandwidth_remaining_percent : cls_->bandwidth_percent) = uint32_t(*n);
    } else if (k0 == "priority") {
      if (w.size() == 1) {
        cls_->priority_level = 1;  // plain `priority`: the one strict level
      } else if (k1 == "level") {
        Result<uint64_t> n = numberAt(w, 2, 8);
        if (n.isOk() && *n >= 1) cls_->priority_level = uint32_t(*n);
        else bad("priority level: " + (n.isOk() ? std::string("0 is out of range 1..8") : n.status().message()));
      }
    } else if (k0 == "random-detect") {
      randomDetect(w);
    } else {
      return false;
    }
    return true;
  }

  // pause [no-drop] [buffer-size B pause-threshold T resume-threshold R] [pfc-cos LIST]
  void pause(const std::vector<std::string_view>& w) {
    PauseThresholds t = cls_->pause.value_or(PauseThresholds{});
    bool thresholds = false;
    for (size_t i = 1; i < w.size(); ++i) {
      const std::string k = lower(w[i]);
      std::optional<uint64_t>* field = k == "buffer-size" ? &t.buffer_size
                                       : k == "pause-threshold" ? &t.pause_threshold
                                       : k == "resume-threshold" ? &t.resume_threshold
                                                                 : nullptr;
      if (field != nullptr) {
        Result<uint64_t> n = numberAt(w, i + 1, UINT32_MAX);
        if (!n.isOk()) return bad(k + ": " + n.status().message());
        *field = *n;
        thresholds = true;
        ++i;
      } else if (k == "pfc-cos") {
        std::string err;
        std::vector<std::string_view> rest(w.begin() + long(i) + 1, w.end());
        auto cos = valueList(rest, 0, 7, false, err);
        if (!cos) return bad("no pfc-cos list 0..7: " + err);
        uint8_t bits = 0;
        for (uint32_t c : *cos) bits |= uint8_t(1u << c);
        cls_->pause_pfc_cos = bits;
        break;
      }
    }
    if (thresholds) cls_->pause = t;
  }

  void randomDetect(const std::vector<std::string_view>& w) {
    Wred r;
    for (size_t i = 1; i < w.size(); ++i) {
      const std::string k = lower(w[i]);
      if (k == "minimum-threshold" || k == "maximum-threshold") {
        Result<uint64_t> n = numberAt(w, i + 1, UINT32_MAX);
        if (!n.isOk()) return bad(k + ": " + n.status().message());
        (k == "minimum-threshold" ? r.min_threshold : r.max_threshold) = *n;
        if (i + 2 < w.size()) {
          const std::string unit = lower(w[i + 2]);
          if (unit == "bytes" || unit == "kbytes" || unit == "mbytes" || unit == "packets") {
            if (!r.unit.empty() && r.unit != unit) return bad("thresholds in different units (" + r.unit + ", " + unit + ")");
            r.unit = unit;
            ++i;
          }
        }
        ++i;
      } else if (k == "drop-probability" || k == "weight") {
        Result<uint64_t> n = numberAt(w, i + 1, k == "weight" ? 15 : 100);
        if (!n.isOk()) return bad(k + ": " + n.status().message());
        (k == "weight" ? r.weight : r.drop_probability) = uint32_t(*n);
        ++i;
      } else if (k == "threshold" && i + 1 < w.size()) {
        r.profile = "threshold " + lower(w[i + 1]);
        ++i;
      } else if (k == "ecn") {
        r.ecn = true;
      }
    }
    cls_->wred = r;
  }

  bool interface(std::string_view list) {
    closeBlocks();
    Result<std::vector<std::string>> names = expandNxosInterfaces(list);
    if (!names.isOk()) return bad(names.status().message()), true;
    for (const std::string& n : *names) qos_.interfaces[n];
    interfaces_ = *names;
    return true;
  }

  // service-policy [type T] input|output NAME (system qos: type network-qos NAME)
  bool servicePolicy(const std::vector<std::string_view>& w) {
    size_t i = 1;
    std::string type;
    if (!typeClause(w, i, type)) return true;
    std::string dir;
    if (i < w.size() && (lower(w[i]) == "input" || lower(w[i]) == "output")) dir = lower(w[i++]);
    if (i >= w.size()) return bad("no policy name"), true;
    const std::string name(w[i]);
    std::optional<std::string> ServicePolicies::*slot = nullptr;
    if (type == "network-qos") slot = &ServicePolicies::network_qos;
    else if (type == "qos" && dir != "output") slot = &ServicePolicies::qos_input;
    else if (type == "queuing" && dir == "input") slot = &ServicePolicies::queuing_input;
    else if (type == "queuing" && dir == "output") slot = &ServicePolicies::queuing_output;
    if (slot == nullptr) return true;  // qos output and the like: not on the RoCE path
    if (in_system_) {
      qos_.system.*slot = name;
    } else {
      for (const std::string& ifn : interfaces_) qos_.interfaces[ifn].policies.*slot = name;
    }
    return true;
  }

  bool pfc(const std::vector<std::string_view>& w) {
    if (w.size() < 3) return bad("incomplete"), true;
    const std::string what = lower(w[1]);
    std::string value;
    for (size_t i = 2; i < w.size(); ++i) value += (i > 2 ? " " : "") + lower(w[i]);
    if (what == "mode") {
      if (value != "on" && value != "off" && value != "auto") return bad("mode '" + value.substr(0, 16) + "' is not on/off/auto"), true;
      for (const std::string& ifn : interfaces_) qos_.interfaces[ifn].pfc_mode = value;
    } else if (what == "watch-dog-interval") {
      if (interfaces_.empty()) {
        qos_.global_watchdog_interval = value;
      } else {
        for (const std::string& ifn : interfaces_) qos_.interfaces[ifn].watchdog_interval = value;
      }
    }
    return true;
  }

  SwitchQos& qos_;
  Problems& p_;
  std::string stmt_;
  ClassMap* class_map_ = nullptr;
  PolicyMap* policy_ = nullptr;
  PolicyClass* cls_ = nullptr;
  bool in_system_ = false;
  std::vector<std::string> interfaces_;
};

}  // namespace

Status parseNxosIpqos(std::string_view text, SwitchQos& qos) {
  Problems p("show running-config ipqos");
  IpqosParser parser(qos, p);
  bool seen = false;
  for (const IpqosStatement& s : ipqosStatements(text)) {
    if (std::optional<std::string> banner = deviceErrorLine(s.text)) {
      return Status::unavailable("show running-config ipqos: device error: " + banner->substr(0, 80));
    }
    if (isPromptLine(s.text)) continue;
    if (parser.statement(s)) seen = true;
  }
  if (!seen) return Status::corrupt("show running-config ipqos: no class-map, policy-map, system qos or interface QoS statement");
  return p.status();
}

}  // namespace rdmagw::southbound::nxos
