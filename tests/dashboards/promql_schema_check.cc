#include "tests/dashboards/promql_schema_check.h"

#include <cctype>
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
    if (row.kind == LeafKind::kString) f.labels.insert(infoLabel(row.path));
    f.counter = row.kind == LeafKind::kCounter;
  }
  for (const GatewayMetric& m : table.gatewayMetrics()) {
    PromFamily& f = out[std::string(m.prom_name)];
    for (std::string_view l : SchemaTable::splitLabels(m.labels)) f.labels.emplace(l);
    f.counter = m.kind == LeafKind::kCounter;
  }
  // Prometheus adds the scrape's own target labels to every series it
  // ingests: which job and which gateway (an alert about a gateway names it).
  for (auto& [name, f] : out) {
    f.labels.insert("job");
    f.labels.insert("instance");
  }
  return out;
}

std::vector<std::string> checkPromQuery(const PromQuery& q, const std::map<std::string, PromFamily>& families,
                                        const QueryPolicy& policy) {
  std::vector<std::string> problems;
  auto problem = [&](const std::string& what) { problems.push_back(q.where + ": " + what + "  in: " + q.expr); };

  // Names recording rules made (level:metric:operation): they must exist.
  static const std::regex kRecorded(R"((^|[^a-zA-Z0-9_:])([a-zA-Z_][a-zA-Z0-9_]*:[a-zA-Z0-9_:]*[a-zA-Z0-9_]))");
  static const std::regex kQuoted(R"("(?:[^"\\]|\\.)*")");
  const std::string unquoted = std::regex_replace(q.expr, kQuoted, "\"\"");  // "a:b" is no name
  bool names_recorded = false;
  for (auto it = std::sregex_iterator(unquoted.begin(), unquoted.end(), kRecorded); it != std::sregex_iterator(); ++it) {
    const std::string name = (*it)[2];
    if (!policy.recorded.count(name)) problem("unknown recorded metric " + name + " (no recording rule defines it)");
    names_recorded = true;
  }

  // Metric names, with the selector braces and range that follow each.
  static const std::regex kMetric(R"((^|[^a-zA-Z0-9_:])(rdmagw_[a-z0-9_]+)(\s*\{([^}]*)\})?(\s*\[([^\]]*)\])?)");
  std::vector<const PromFamily*> used;
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
      static const std::regex kMatcher(R"(([a-zA-Z_][a-zA-Z0-9_]*)\s*(=~|!~|!=|=)\s*"(?:[^"\\]|\\.)*")");
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

  // Grouping and matching clauses: each label must be on every family of the
  // query (no query joins families with different labels).
  auto checkLabels = [&](const std::string& label, const std::string& clause) {
    for (const PromFamily* f : used) {
      if (!f->labels.count(label)) {
        problem(clause + " label " + label + " is not carried by every metric of the query");
        return;
      }
    }
  };
  static const std::regex kClause(R"(\b(by|without|on|ignoring|group_left|group_right)\s*\(([^)]*)\))");
  for (auto it = std::sregex_iterator(q.expr.begin(), q.expr.end(), kClause); it != std::sregex_iterator(); ++it) {
    for (const std::string& label : splitNames((*it)[2])) checkLabels(label, std::string((*it)[1]));
  }
  static const std::regex kLabelValues(R"(label_values\(\s*rdmagw_[a-z0-9_]+\s*(\{[^}]*\})?\s*,\s*([a-zA-Z_][a-zA-Z0-9_]*)\s*\))");
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
