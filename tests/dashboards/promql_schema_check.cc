#include "tests/dashboards/promql_schema_check.h"

#include <yaml-cpp/yaml.h>

#include <algorithm>
#include <cctype>
#include <filesystem>
#include <regex>
#include <string_view>

#include "models/schema.h"

namespace rdmagw::testing {
namespace {

// The label a string leaf's *_info gauge carries its value in: the last path
// segment, sanitized like the exposition does ('-' and other non-name
// characters become '_').
std::string infoLabel(std::string_view path) {
  std::string leaf(path.substr(path.rfind('/') + 1));
  for (char& c : leaf) {
    if (!std::isalnum(static_cast<unsigned char>(c)) && c != '_') c = '_';
  }
  return leaf;
}

std::vector<std::string> splitNames(const std::string& list) {
  std::vector<std::string> out;
  std::string cur;
  for (char c : list + ",") {
    if (c == ',') {
      if (!cur.empty()) out.push_back(cur);
      cur.clear();
    } else if (!std::isspace(static_cast<unsigned char>(c))) {
      cur.push_back(c);
    }
  }
  return out;
}

std::string trimRight(std::string s) {
  while (!s.empty() && std::isspace(static_cast<unsigned char>(s.back()))) s.pop_back();
  return s;
}

// A counter on the right of `and`/`unless` only says which series exist (the
// set operators ignore its value), so it needs no rate().
bool isPresenceOperand(const std::string& before) {
  static const std::regex kSetOp(R"(\b(and|unless)\s*((on|ignoring)\s*\([^)]*\))?\s*\(?\s*$)");
  return std::regex_search(before, kSetOp);
}

}  // namespace

std::map<std::string, PromFamily> schemaFamilies() {
  std::map<std::string, PromFamily> out;
  const SchemaTable& table = SchemaTable::instance();
  for (const LeafSchema& row : table.leaves()) {
    PromFamily& f = out[std::string(row.prom_name)];
    f.labels.insert(std::string(kTargetLabel));
    for (std::string_view l : SchemaTable::splitLabels(row.labels)) f.labels.emplace(l);
    if (!row.prom_info_label.empty()) {
      f.labels.insert(std::string(row.prom_info_label));  // a label of its entry's info row, named in the schema
    } else if (row.kind == LeafKind::kString) {
      f.labels.insert(infoLabel(row.path));
    }
    f.counter = row.kind == LeafKind::kCounter;
  }
  for (const GatewayMetric& m : table.gatewayMetrics()) {
    PromFamily& f = out[std::string(m.prom_name)];
    for (std::string_view l : SchemaTable::splitLabels(m.labels)) f.labels.emplace(l);
    f.counter = m.kind == LeafKind::kCounter;
  }
  // kube-state-metrics, as the Kubernetes rules read it: who owns a pod, and
  // who owns a ReplicaSet or Job (a Deployment, a JobSet, a CronJob). Only the
  // families and labels the rules use; "<none>" where there is no owner.
  const std::set<std::string> owner = {"namespace", "owner_kind", "owner_name", "owner_is_controller"};
  auto kube = [&](const char* name, std::set<std::string> labels) {
    PromFamily& f = out[name];
    f.labels = owner;
    f.labels.insert(labels.begin(), labels.end());
  };
  kube("kube_pod_owner", {"pod", "uid"});
  kube("kube_replicaset_owner", {"replicaset"});
  kube("kube_job_owner", {"job_name"});
  // Prometheus adds the scrape's own target labels to every series it
  // ingests: which job and which gateway (an alert about a gateway names it).
  for (auto& [name, f] : out) {
    f.labels.insert("job");
    f.labels.insert("instance");
  }
  return out;
}

void addRecordingRules(const std::string& dir, QueryPolicy* policy) {
  // The output labels of `sum by (a, b) (...)` and its kin, outermost.
  static const std::regex kOuterBy(R"(^\s*(sum|max|min|count|avg|group)\s+by\s*\(([^)]*)\))");
  std::vector<std::filesystem::path> files;
  for (const auto& e : std::filesystem::directory_iterator(dir)) {
    if (e.path().extension() == ".yml") files.push_back(e.path());
  }
  std::sort(files.begin(), files.end());
  for (const auto& file : files) {
    YAML::Node doc = YAML::LoadFile(file.string());
    for (const YAML::Node& group : doc["groups"]) {
      for (const YAML::Node& rule : group["rules"]) {
        if (!rule["record"]) continue;
        const std::string name = rule["record"].as<std::string>();
        policy->recorded.insert(name);
        const std::string expr = rule["expr"].as<std::string>();
        std::smatch m;
        if (std::regex_search(expr, m, kOuterBy)) {
          std::vector<std::string> labels = splitNames(m[2]);
          policy->recorded_labels[name] = std::set<std::string>(labels.begin(), labels.end());
        }
      }
    }
  }
}

std::vector<std::string> checkPromQuery(const PromQuery& q, const std::map<std::string, PromFamily>& families,
                                        const QueryPolicy& policy) {
  std::vector<std::string> problems;
  auto problem = [&](const std::string& what) { problems.push_back(q.where + ": " + what + "  in: " + q.expr); };

  // Names recording rules made (level:metric:operation): they must exist.
  static const std::regex kRecorded(
      R"((^|[^a-zA-Z0-9_:])([a-zA-Z_][a-zA-Z0-9_]*:[a-zA-Z0-9_:]*[a-zA-Z0-9_])(\s*\{([^}]*)\})?(\s*\[)?)");
  static const std::regex kQuoted(R"("(?:[^"\\]|\\.)*")");
  static const std::regex kMatcher(R"(([a-zA-Z_][a-zA-Z0-9_]*)\s*(=~|!~|!=|=)\s*"(?:[^"\\]|\\.)*")");
  const std::string unquoted = std::regex_replace(q.expr, kQuoted, "\"\"");  // "a:b" is no name
  bool names_recorded = false;
  std::vector<PromFamily> recorded_families;  // stable: `used` points into it
  recorded_families.reserve(unquoted.size());
  std::vector<const PromFamily*> used;
  for (auto it = std::sregex_iterator(unquoted.begin(), unquoted.end(), kRecorded); it != std::sregex_iterator(); ++it) {
    const std::string name = (*it)[2];
    if (!policy.recorded.count(name)) problem("unknown recorded metric " + name + " (no recording rule defines it)");
    names_recorded = true;
    auto known = policy.recorded_labels.find(name);
    if (known == policy.recorded_labels.end()) continue;
    recorded_families.push_back(PromFamily{known->second, false});
    used.push_back(&recorded_families.back());
    const std::string body = (*it)[4];
    for (auto mi = std::sregex_iterator(body.begin(), body.end(), kMatcher); mi != std::sregex_iterator(); ++mi) {
      if (!known->second.count((*mi)[1])) problem("label " + std::string((*mi)[1]) + " is not a label of " + name);
    }
    if ((*it)[5].matched) problem("recorded " + name + " used with a range (rate of a rate?)");
  }

  // Metric names, with the selector braces and range that follow each.
  static const std::regex kMetric(
      R"((^|[^a-zA-Z0-9_:])((?:rdmagw|kube)_[a-z0-9_]+)(\s*\{([^}]*)\})?(\s*\[([^\]]*)\])?)");
  for (auto it = std::sregex_iterator(q.expr.begin(), q.expr.end(), kMetric); it != std::sregex_iterator(); ++it) {
    const std::smatch& m = *it;
    std::string name = m[2];
    auto fam = families.find(name);
    if (fam == families.end()) {
      problem("unknown metric " + name + " (not in SchemaTable leaves or gatewayMetrics)");
      continue;
    }
    used.push_back(&fam->second);
    if (m[3].matched) {
      std::string body = m[4];
      for (auto mi = std::sregex_iterator(body.begin(), body.end(), kMatcher); mi != std::sregex_iterator(); ++mi) {
        std::string label = (*mi)[1];
        if (!fam->second.labels.count(label)) problem("label " + label + " is not a label of " + name);
      }
    }
    const std::string before = q.expr.substr(0, m.position(2));
    const bool is_label_values = q.expr.rfind("label_values(", 0) == 0;
    if (fam->second.counter && !is_label_values && !(!m[5].matched && isPresenceOperand(before))) {
      const std::string range = m[6];
      if (!m[5].matched || (!policy.counter_range.empty() && range != policy.counter_range)) {
        problem("counter " + name + " needs a [" + (policy.counter_range.empty() ? "range" : policy.counter_range) +
                "] range");
      } else {
        // The range vector must feed rate() or increase(), not e.g. *_over_time.
        size_t open = before.rfind('(');
        std::string fn = trimRight(open == std::string::npos ? "" : before.substr(0, open));
        if (!(fn.ends_with("rate") || fn.ends_with("increase"))) problem("counter " + name + " not inside rate()/increase()");
      }
    } else if (!fam->second.counter && m[5].matched) {
      problem("gauge " + name + " used with a range (rate of a gauge?)");
    }
  }

  // Grouping and matching clauses: a query without a group_left/group_right
  // join keeps one label set, so each label must be on every family of it.
  // A join's result carries its many side's labels and those it copies, and
  // its operands may be built of different families (kube_pod_owner beside
  // kube_job_owner): there each label must be on some family of the query,
  // or be made by a label_replace of it.
  static const std::regex kClause(R"(\b(by|without|on|ignoring|group_left|group_right)\s*\(([^)]*)\))");
  static const std::regex kJoin(R"(\bgroup_(left|right)\b)");
  // label_replace(v, "dst", "replacement", "src", "regex"): a quoted name
  // between commas, followed by another string, is its dst (or its src,
  // which exists anyway).
  static const std::regex kMade(R"re(,\s*"([a-zA-Z_][a-zA-Z0-9_]*)"\s*,\s*")re");
  const bool joins = std::regex_search(q.expr, kJoin);
  std::set<std::string> made;
  if (q.expr.find("label_replace") != std::string::npos) {
    for (auto it = std::sregex_iterator(q.expr.begin(), q.expr.end(), kMade); it != std::sregex_iterator(); ++it) {
      made.insert((*it)[1]);
    }
  }
  auto onEvery = [&](const std::string& label) {
    return std::all_of(used.begin(), used.end(), [&](const PromFamily* f) { return f->labels.count(label) > 0; });
  };
  auto onSome = [&](const std::string& label) {
    return made.count(label) > 0 ||
           std::any_of(used.begin(), used.end(), [&](const PromFamily* f) { return f->labels.count(label) > 0; });
  };
  auto checkLabels = [&](const std::string& label, const std::string& clause) {
    if (!joins) {
      if (!onEvery(label)) problem(clause + " label " + label + " is not carried by every metric of the query");
    } else if (!onSome(label)) {
      problem(clause + " label " + label + " is carried by no metric of the query");
    }
  };
  for (auto it = std::sregex_iterator(q.expr.begin(), q.expr.end(), kClause); it != std::sregex_iterator(); ++it) {
    for (const std::string& label : splitNames((*it)[2])) checkLabels(label, std::string((*it)[1]));
  }
  static const std::regex kLabelValues(
      R"(label_values\(\s*[a-zA-Z_:][a-zA-Z0-9_:]*\s*(\{[^}]*\})?\s*,\s*([a-zA-Z_][a-zA-Z0-9_]*)\s*\))");
  std::smatch lv;
  if (std::regex_search(q.expr, lv, kLabelValues)) checkLabels(lv[2], "label_values");
  if (used.empty() && !names_recorded) problem("query names no rdmagw metric");

  // Legend placeholders must be labels the series actually have.
  static const std::regex kLegend(R"(\{\{\s*([a-zA-Z_][a-zA-Z0-9_]*)\s*\}\})");
  for (auto it = std::sregex_iterator(q.legend.begin(), q.legend.end(), kLegend); it != std::sregex_iterator(); ++it) {
    checkLabels((*it)[1], "legendFormat");
  }
  // An alert's $labels.x: carried by some family of the query (an `or` of
  // host and ESXi families has interface on one side, nic on the other).
  for (const std::string& label : q.annotation_labels) {
    bool somewhere = false;
    for (const PromFamily* f : used) somewhere = somewhere || f->labels.count(label) > 0;
    if (!somewhere) problem("annotation label " + label + " is carried by no metric of the query");
  }
  return problems;
}

}  // namespace rdmagw::testing
