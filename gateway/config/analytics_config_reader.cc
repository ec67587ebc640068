#include "gateway/config/analytics_config_reader.h"

#include <set>

namespace rdmagw::gateway {
namespace {

using analytics::LinkEnd;

constexpr const char* kPath = "analytics";

bool readEnd(YamlReader& r, const YAML::Node& n, const std::string& path,
             const std::map<std::string, std::string>& target_kinds, LinkEnd* end) {
  r.checkKeys(n, path, {"target", "interface", "rdma_port", "nic"});
  if (!n.IsMap()) return false;
  end->target = r.string(n, path, "target", true).value_or("");
  auto kind = target_kinds.find(end->target);
  if (!end->target.empty() && kind == target_kinds.end()) {
    r.error(n["target"], path + ".target", "no target named \"" + end->target + "\" in targets");
    return false;
  }
  int given = 0;
  for (const char* key : {"interface", "rdma_port", "nic"}) given += n[key] ? 1 : 0;
  if (given != 1) {
    r.error(n, path, "give exactly one of interface, rdma_port or nic");
    return false;
  }
  if (auto v = r.string(n, path, "interface")) {
    end->kind = LinkEnd::Kind::kInterface;
    end->name = *v;
  } else if (auto v = r.string(n, path, "rdma_port")) {
    end->kind = LinkEnd::Kind::kRdmaPort;
    end->name = *v;
    if (!analytics::splitRdmaPort(*v, nullptr, nullptr)) {
      r.error(n["rdma_port"], path + ".rdma_port", "\"" + *v + "\" is not <device>/<port>, e.g. mlx5_0/1");
      return false;
    }
    if (kind != target_kinds.end() && kind->second != "rdma-host") {
      r.error(n["rdma_port"], path + ".rdma_port", "only on an rdma-host target (" + end->target + " is " + kind->second + ")");
      return false;
    }
  } else if (auto v = r.string(n, path, "nic")) {
    end->kind = LinkEnd::Kind::kNic;
    end->name = *v;
    if (kind != target_kinds.end() && kind->second != "esxi") {
      r.error(n["nic"], path + ".nic", "only on an esxi target (" + end->target + " is " + kind->second + ")");
      return false;
    }
  } else {
    return false;
  }
  if (end->name.empty()) {
    r.error(n, path, "the port name is empty");
    return false;
  }
  return !end->target.empty();
}

// lldp_names: {system name as LLDP advertises it: target}.
void readLldpNames(YamlReader& r, const YAML::Node& names, const std::map<std::string, std::string>& target_kinds,
                   analytics::AnalyticsConfig* c) {
  const std::string path = std::string(kPath) + ".lldp_names";
  if (!names.IsMap()) {
    r.error(names, path, "must be a map of {LLDP system name: target}");
    return;
  }
  for (const auto& kv : names) {
    const std::string system = kv.first.IsScalar() ? kv.first.Scalar() : "";
    const std::string target = kv.second.IsScalar() ? kv.second.Scalar() : "";
    if (system.empty() || target.empty()) {
      r.error(kv.first, path, "each entry is a system name and a target name, both non-empty strings");
      continue;
    }
    if (!target_kinds.count(target)) {
      r.error(kv.second, path + "." + system, "no target named \"" + target + "\" in targets");
      continue;
    }
    c->lldp_names[system] = target;
  }
}

}  // namespace

void readAnalytics(YamlReader& r, const YAML::Node& n, const std::map<std::string, std::string>& target_kinds,
                   analytics::AnalyticsConfig* c) {
  r.checkKeys(n, kPath,
              {"period", "window", "no_drop_priorities", "pause_storm", "links", "lldp_names", "roce_checks"});
  if (!n.IsMap()) return;
  c->period = r.duration(n, kPath, "period").value_or(c->period);
  c->window = r.duration(n, kPath, "window").value_or(c->window);
  c->roce_checks = r.boolean(n, kPath, "roce_checks").value_or(c->roce_checks);
  if (YAML::Node p = n["no_drop_priorities"]) {
    c->no_drop_priorities.clear();
    const std::string ppath = std::string(kPath) + ".no_drop_priorities";
    if (!p.IsSequence()) r.error(p, ppath, "must be a list of priorities 0..7");
    for (size_t i = 0; p.IsSequence() && i < p.size(); ++i) {
      const std::string text = p[i].IsScalar() ? p[i].Scalar() : "";
      if (text.size() != 1 || text[0] < '0' || text[0] > '7') {
        r.error(p[i], ppath + "[" + std::to_string(i) + "]", "must be a priority 0..7");
        continue;
      }
      c->no_drop_priorities.push_back(text[0] - '0');
    }
  }
  if (YAML::Node storm = n["pause_storm"]) {
    const std::string spath = std::string(kPath) + ".pause_storm";
    r.checkKeys(storm, spath, {"paused_percent", "for"});
    if (storm.IsMap()) {
      c->pause_storm_percent = int(r.integer(storm, spath, "paused_percent", 1, 100).value_or(c->pause_storm_percent));
      c->pause_storm_for = r.duration(storm, spath, "for").value_or(c->pause_storm_for);
    }
  }
  if (YAML::Node links = n["links"]) {
    const std::string lpath = std::string(kPath) + ".links";
    if (!links.IsSequence()) r.error(links, lpath, "must be a list of {a: END, b: END}");
    std::map<std::string, std::string> cabled;  // "target:name" -> where it was first cabled
    for (size_t i = 0; links.IsSequence() && i < links.size(); ++i) {
      const std::string path = lpath + "[" + std::to_string(i) + "]";
      r.checkKeys(links[i], path, {"a", "b"});
      if (!links[i].IsMap()) continue;
      analytics::LinkConfig link;
      bool ok = true;
      for (auto [key, end] : {std::pair{"a", &link.a}, std::pair{"b", &link.b}}) {
        YAML::Node e = links[i][key];
        if (!e) {
          r.error(links[i], path + "." + key, "required key is missing");
          ok = false;
          continue;
        }
        if (!readEnd(r, e, path + "." + key, target_kinds, end)) {
          ok = false;
          continue;
        }
        // One cable per port: a second would make its peer ambiguous (and a
        // cable from a port to itself is caught here too).
        const std::string id = end->toString();
        auto [at, fresh] = cabled.emplace(id, path + "." + key);
        if (!fresh) {
          r.error(e, path + "." + key, id + " is already cabled at " + at->second);
          ok = false;
        }
      }
      if (ok) c->links.push_back(std::move(link));
    }
  }
  if (YAML::Node names = n["lldp_names"]) readLldpNames(r, names, target_kinds, c);
  if (Status st = c->validate(); !st.isOk()) r.error(n, kPath, st.message());
}

std::string explainAnalytics(const analytics::AnalyticsConfig& c) {
  std::string prios;
  for (int p : c.no_drop_priorities) prios += (prios.empty() ? "" : ",") + std::to_string(p);
  return "  analytics: every " + std::to_string(c.period.count()) + "ms over a " + std::to_string(c.window.count()) +
         "ms window, " + std::to_string(c.links.size()) + " static link(s) (LLDP for the other ports, " +
         std::to_string(c.lldp_names.size()) + " lldp_names), lossless priorities " +
         (prios.empty() ? "none" : prios) + " where a switch does not say, pause storm at " +
         std::to_string(c.pause_storm_percent) + "% paused for " + std::to_string(c.pause_storm_for.count()) + "ms\n";
}

}  // namespace rdmagw::gateway
