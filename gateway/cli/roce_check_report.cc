#include "gateway/cli/roce_check_report.h"

#include <algorithm>
#include <charconv>
#include <map>
#include <nlohmann/json.hpp>
#include <set>
#include <tuple>

namespace rdmagw::gateway {

const std::vector<std::string> kRoceCheckGroups = {
    "lossless", "classification", "congestion-control", "flow-control", "ets", "live", "gpu"};

namespace {

int groupNumber(const std::string& name) {
  auto it = std::find(kRoceCheckGroups.begin(), kRoceCheckGroups.end(), name);
  return it == kRoceCheckGroups.end() ? 0 : static_cast<int>(it - kRoceCheckGroups.begin()) + 1;
}

// PASS 0, WARN 1, FAIL 2 (the status-code leaf's numbering); -1 for text
// that is none of them, so it never hides a worse status.
int statusRank(const std::string& status) {
  if (status == "PASS") return 0;
  if (status == "WARN") return 1;
  if (status == "FAIL") return 2;
  return -1;
}

const char* rankStatus(int rank) { return rank >= 2 ? "FAIL" : rank == 1 ? "WARN" : "PASS"; }

std::optional<uint64_t> number(const std::string& text) {
  uint64_t v = 0;
  auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), v);
  if (ec != std::errc() || end != text.data() + text.size() || text.empty()) return std::nullopt;
  return v;
}

std::string keyOf(const PathElem& e, const char* key) {
  auto it = e.keys.find(key);
  return it == e.keys.end() ? "" : it->second;
}

using Leaves = std::map<std::string, std::string>;

const std::string& leaf(const Leaves& l, const char* name) {
  static const std::string kEmpty;
  auto it = l.find(name);
  return it == l.end() ? kEmpty : it->second;
}

// Fixed groups in their order, then the others by name.
bool groupBefore(const std::string& a, const std::string& b) {
  const int na = groupNumber(a), nb = groupNumber(b);
  if ((na == 0) != (nb == 0)) return na != 0;
  return na != nb ? na < nb : a < b;
}

}  // namespace

Result<std::string> roceCheckGroupArg(const std::string& text) {
  if (std::optional<uint64_t> n = number(text)) {
    if (*n >= 1 && *n <= kRoceCheckGroups.size()) return kRoceCheckGroups[*n - 1];
  } else if (groupNumber(text) != 0) {
    return text;
  }
  std::string names;
  for (size_t i = 0; i < kRoceCheckGroups.size(); ++i) {
    names += (i ? ", " : "") + std::to_string(i + 1) + " " + kRoceCheckGroups[i];
  }
  return Status::invalidArgument("--group: '" + text + "' is not a check group (" + names + ")");
}

RoceCheckReport aggregateRoceChecks(const std::vector<CheckLeaf>& leaves, const std::optional<std::string>& only_group) {
  // (target, group name) and (target, finding id) -> leaf name -> value.
  std::map<std::pair<std::string, std::string>, Leaves> groups, findings;
  std::set<std::string> targets;
  for (const CheckLeaf& l : leaves) {
    const auto& el = l.path.elems();
    // fabric/checks/roce/{groups/group[name],findings/finding[id]}/state/LEAF
    if (el.size() != 7 || el[0].name != "fabric" || el[1].name != "checks" || el[2].name != "roce" ||
        el[5].name != "state") {
      continue;
    }
    if (el[3].name == "groups" && el[4].name == "group") {
      groups[{l.target, keyOf(el[4], "name")}][el[6].name] = l.value;
    } else if (el[3].name == "findings" && el[4].name == "finding") {
      findings[{l.target, keyOf(el[4], "id")}][el[6].name] = l.value;
    } else {
      continue;
    }
    targets.insert(l.target);
  }

  RoceCheckReport report;
  report.targets = static_cast<int>(targets.size());
  std::map<std::string, RoceCheckGroup> by_name;
  std::map<std::string, int> rank;
  auto group = [&](const std::string& name) -> RoceCheckGroup& {
    RoceCheckGroup& g = by_name[name];
    g.name = name;
    g.number = groupNumber(name);
    rank.emplace(name, 0);
    return g;
  };
  for (const auto& entry : groups) {
    const std::string& name = entry.first.second;
    const Leaves& l = entry.second;
    if (name.empty() || (only_group && name != *only_group)) continue;
    RoceCheckGroup& g = group(name);
    g.checked += number(leaf(l, "checked")).value_or(0);
    const uint64_t failed = number(leaf(l, "failed")).value_or(0);
    const uint64_t warned = number(leaf(l, "warned")).value_or(0);
    g.failed += failed;
    g.warned += warned;
    ++g.targets;
    int r = std::max(statusRank(leaf(l, "status")), failed > 0 ? 2 : warned > 0 ? 1 : 0);
    if (std::optional<uint64_t> code = number(leaf(l, "status-code")); code && *code <= 2) {
      r = std::max(r, static_cast<int>(*code));
    }
    rank[name] = std::max(rank[name], r);
  }
  for (const auto& entry : findings) {
    const std::string& target = entry.first.first;
    const std::string& id = entry.first.second;
    const Leaves& l = entry.second;
    RoceFinding f{target, leaf(l, "group"), leaf(l, "severity"), leaf(l, "port"),
                  leaf(l, "check"), leaf(l, "expected"), leaf(l, "found")};
    // The id is "<group>/<check>/<port>": it names the group and check when
    // their own leaves are missing.
    if (f.group.empty()) f.group = id.substr(0, id.find('/'));
    if (f.check.empty()) {
      const size_t a = id.find('/');
      if (a != std::string::npos) f.check = id.substr(a + 1, id.find('/', a + 1) - a - 1);
    }
    if (f.severity != "WARN") f.severity = "FAIL";  // a finding that does not say is not a pass
    if (f.group.empty() || (only_group && f.group != *only_group)) continue;
    // A finding makes its group at least as bad as itself, summary or not.
    group(f.group);
    rank[f.group] = std::max(rank[f.group], statusRank(f.severity));
    report.findings.push_back(std::move(f));
  }
  for (auto& entry : by_name) {
    entry.second.status = rankStatus(rank[entry.first]);
    report.groups.push_back(entry.second);
  }
  std::sort(report.groups.begin(), report.groups.end(),
            [](const RoceCheckGroup& a, const RoceCheckGroup& b) { return groupBefore(a.name, b.name); });
  std::sort(report.findings.begin(), report.findings.end(), [](const RoceFinding& a, const RoceFinding& b) {
    if (a.group != b.group) return groupBefore(a.group, b.group);
    if (a.severity != b.severity) return a.severity == "FAIL";
    return std::tie(a.target, a.port, a.check) < std::tie(b.target, b.port, b.check);
  });
  return report;
}

int roceCheckExitCode(const RoceCheckReport& report) {
  if (report.groups.empty()) return 2;
  for (const RoceCheckGroup& g : report.groups) {
    if (g.status == "FAIL") return 1;
  }
  return report.missing_members.empty() ? 0 : 2;
}

namespace {

std::string overall(const RoceCheckReport& report) {
  if (!report.groups.empty() && roceCheckExitCode(report) == 2) return "INCOMPLETE";
  switch (roceCheckExitCode(report)) {
    case 0:
      for (const RoceCheckGroup& g : report.groups) {
        if (g.status == "WARN") return "WARN";
      }
      return "PASS";
    case 1: return "FAIL";
    default: return "UNKNOWN";
  }
}

// Columns as wide as their widest cell, two spaces apart; numbers
// right-aligned so the counts line up.
std::string table(const std::vector<std::vector<std::string>>& rows, const std::vector<bool>& right) {
  std::vector<size_t> width;
  for (const auto& row : rows) {
    width.resize(std::max(width.size(), row.size()));
    for (size_t i = 0; i < row.size(); ++i) width[i] = std::max(width[i], row[i].size());
  }
  std::string out;
  for (const auto& row : rows) {
    std::string line;
    for (size_t i = 0; i < row.size(); ++i) {
      const std::string pad(width[i] - row[i].size(), ' ');
      const bool last = i + 1 == row.size();
      line += i < right.size() && right[i] ? pad + row[i] : row[i] + (last ? "" : pad);
      if (!last) line += "  ";
    }
    out += line + "\n";
  }
  return out;
}

}  // namespace

std::string formatRoceCheckText(const RoceCheckReport& report) {
  std::string out = "RoCE check: " + overall(report) + " (" + std::to_string(report.targets) +
                    (report.targets == 1 ? " target" : " targets") + ")\n\n";
  for (const MissingMember& m : report.missing_members) {
    out += "fleet member " + m.member + " did not answer, its targets are not checked: " + m.error + "\n";
  }
  if (!report.missing_members.empty()) out += "\n";
  std::vector<std::vector<std::string>> rows{{"#", "GROUP", "CHECKED", "FAILED", "WARNED", "RESULT"}};
  for (const RoceCheckGroup& g : report.groups) {
    rows.push_back({g.number ? std::to_string(g.number) : "-", g.name, std::to_string(g.checked),
                    std::to_string(g.failed), std::to_string(g.warned), g.status});
  }
  out += table(rows, {true, false, true, true, true, false});
  if (report.findings.empty()) return out;
  out += "\nFailures and warnings\n";
  std::vector<std::vector<std::string>> heads;
  for (const RoceFinding& f : report.findings) {
    heads.push_back({f.severity, f.group, f.target, f.port.empty() ? "-" : f.port, f.check});
  }
  const std::string lines = table(heads, {});
  size_t at = 0;
  for (const RoceFinding& f : report.findings) {
    const size_t nl = lines.find('\n', at);
    out += lines.substr(at, nl - at + 1);
    at = nl + 1;
    out += "      expected: " + f.expected + "\n";
    out += "      found:    " + f.found + "\n";
  }
  return out;
}

std::string formatRoceCheckJson(const RoceCheckReport& report) {
  nlohmann::json groups = nlohmann::json::array(), findings = nlohmann::json::array();
  for (const RoceCheckGroup& g : report.groups) {
    nlohmann::json j = {{"name", g.name},       {"checked", g.checked}, {"failed", g.failed},
                        {"warned", g.warned},   {"status", g.status},   {"targets", g.targets}};
    if (g.number) j["number"] = g.number;
    groups.push_back(std::move(j));
  }
  for (const RoceFinding& f : report.findings) {
    findings.push_back({{"target", f.target},
                        {"group", f.group},
                        {"severity", f.severity},
                        {"port", f.port},
                        {"check", f.check},
                        {"expected", f.expected},
                        {"found", f.found}});
  }
  nlohmann::json doc = {{"result", overall(report)},
                        {"exit_code", roceCheckExitCode(report)},
                        {"targets", report.targets},
                        {"groups", std::move(groups)},
                        {"findings", std::move(findings)}};
  if (!report.missing_members.empty()) {
    nlohmann::json missing = nlohmann::json::array();
    for (const MissingMember& m : report.missing_members) missing.push_back({{"member", m.member}, {"error", m.error}});
    doc["missing_members"] = std::move(missing);
  }
  // Values come from the devices: never let a stray byte abort the dump.
  return doc.dump(2, ' ', false, nlohmann::json::error_handler_t::replace) + "\n";
}

}  // namespace rdmagw::gateway
