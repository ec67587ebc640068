// Keeps dashboards/*.json honest against the one schema table: every metric a
// query names must be a family rdmagw exports, every label it groups or
// filters by must be one that family carries, and counters must go through
// rate(...[$__rate_interval]). A renamed metric or label fails here, not on an
// operator's screen.

#include <gtest/gtest.h>

#include <cctype>
#include <fstream>
#include <map>
#include <nlohmann/json.hpp>
#include <regex>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "models/schema.h"

namespace rdmagw {
namespace {

using nlohmann::json;

constexpr const char* kDashboard = RDMAGW_SOURCE_DIR "/dashboards/rdmagw-roce-congestion.json";

struct Family {
  std::set<std::string> labels;  // target, the row's keys, the info label
  bool counter = false;
};

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

std::map<std::string, Family> schemaFamilies() {
  std::map<std::string, Family> out;
  const SchemaTable& table = SchemaTable::instance();
  for (const LeafSchema& row : table.leaves()) {
    Family& f = out[std::string(row.prom_name)];
    f.labels.insert(std::string(kTargetLabel));
    for (std::string_view l : SchemaTable::splitLabels(row.labels)) f.labels.emplace(l);
    if (row.kind == LeafKind::kString) f.labels.insert(infoLabel(row.path));
    f.counter = row.kind == LeafKind::kCounter;
  }
  for (const GatewayMetric& m : table.gatewayMetrics()) {
    Family& f = out[std::string(m.prom_name)];
    for (std::string_view l : SchemaTable::splitLabels(m.labels)) f.labels.emplace(l);
    f.counter = m.kind == LeafKind::kCounter;
  }
  return out;
}

// One query string found in the dashboard and where it sits.
struct Query {
  std::string where;   // panel title / refId, for messages
  std::string expr;
  std::string legend;  // legendFormat, may be empty
};

// Every "expr" in the document (panels, nested rows, any depth) and every
// templating query (string or {"query": ...} object).
void collectQueries(const json& node, const std::string& where, std::vector<Query>* out) {
  if (node.is_object()) {
    std::string here = where;
    if (node.contains("title") && node["title"].is_string()) here = node["title"].get<std::string>();
    if (node.contains("name") && node["name"].is_string()) here = "variable " + node["name"].get<std::string>();
    if (node.contains("expr") && node["expr"].is_string()) {
      Query q{here, node["expr"].get<std::string>(), ""};
      if (node.contains("refId") && node["refId"].is_string()) q.where += " / " + node["refId"].get<std::string>();
      if (node.contains("legendFormat") && node["legendFormat"].is_string()) q.legend = node["legendFormat"];
      out->push_back(q);
    }
    if (node.contains("type") && node["type"] == "query" && node.contains("query")) {
      const json& q = node["query"];
      if (q.is_string()) out->push_back({here, q.get<std::string>(), ""});
      if (q.is_object() && q.contains("query") && q["query"].is_string()) out->push_back({here, q["query"], ""});
    }
    for (const auto& [key, child] : node.items()) collectQueries(child, here, out);
  } else if (node.is_array()) {
    for (const json& child : node) collectQueries(child, where, out);
  }
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

// Checks one query; returns one message per problem (empty: clean).
std::vector<std::string> checkQuery(const Query& q, const std::map<std::string, Family>& families) {
  std::vector<std::string> problems;
  auto problem = [&](const std::string& what) { problems.push_back(q.where + ": " + what + "  in: " + q.expr); };

  // Metric names, with the selector braces and range that follow each.
  static const std::regex kMetric(R"((^|[^a-zA-Z0-9_:])(rdmagw_[a-z0-9_]+)(\s*\{([^}]*)\})?(\s*\[([^\]]*)\])?)");
  std::vector<const Family*> used;
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
    bool is_label_values = q.expr.rfind("label_values(", 0) == 0;
    if (fam->second.counter && !is_label_values) {
      if (!m[5].matched || std::string(m[6]) != "$__rate_interval") {
        problem("counter " + name + " needs a [$__rate_interval] range");
      } else {
        // The range vector must feed rate() or increase(), not e.g. *_over_time.
        std::string before = q.expr.substr(0, m.position(2));
        size_t open = before.rfind('(');
        std::string fn = open == std::string::npos ? "" : before.substr(0, open);
        while (!fn.empty() && std::isspace(static_cast<unsigned char>(fn.back()))) fn.pop_back();
        if (!(fn.ends_with("rate") || fn.ends_with("increase"))) problem("counter " + name + " not inside rate()/increase()");
      }
    } else if (!fam->second.counter && m[5].matched) {
      problem("gauge " + name + " used with a range (rate of a gauge?)");
    }
  }

  // Grouping and matching clauses: each label must be on every family of the
  // query (the dashboard never joins families with different labels).
  auto checkLabels = [&](const std::string& label, const std::string& clause) {
    for (const Family* f : used) {
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
  if (used.empty()) problem("query names no rdmagw metric");

  // Legend placeholders must be labels the series actually have.
  static const std::regex kLegend(R"(\{\{\s*([a-zA-Z_][a-zA-Z0-9_]*)\s*\}\})");
  for (auto it = std::sregex_iterator(q.legend.begin(), q.legend.end(), kLegend); it != std::sregex_iterator(); ++it) {
    checkLabels((*it)[1], "legendFormat");
  }
  return problems;
}

std::vector<std::string> checkDashboard(const json& doc, const std::map<std::string, Family>& families) {
  std::vector<Query> queries;
  collectQueries(doc, "dashboard", &queries);
  std::vector<std::string> problems;
  for (const Query& q : queries) {
    for (std::string& p : checkQuery(q, families)) problems.push_back(std::move(p));
  }
  return problems;
}

json loadDashboard() {
  std::ifstream in(kDashboard);
  EXPECT_TRUE(in) << "cannot open " << kDashboard;
  std::stringstream buf;
  buf << in.rdbuf();
  return json::parse(buf.str());  // throws (fails the test) on invalid JSON
}

std::string joined(const std::vector<std::string>& v) {
  std::string out;
  for (const std::string& s : v) out += s + "\n";
  return out;
}

TEST(DashboardTest, EveryMetricAndLabelIsInTheSchema) {
  json doc = loadDashboard();
  std::vector<Query> queries;
  collectQueries(doc, "dashboard", &queries);
  EXPECT_GE(queries.size(), 20u) << "the extractor lost the queries";
  std::vector<std::string> problems = checkDashboard(doc, schemaFamilies());
  EXPECT_TRUE(problems.empty()) << joined(problems);
}

TEST(DashboardTest, CoversTheCongestionFamilies) {
  json doc = loadDashboard();
  std::vector<Query> queries;
  collectQueries(doc, "dashboard", &queries);
  std::string all;
  for (const Query& q : queries) all += q.expr + "\n";
  for (const char* name : {
           "rdmagw_target_up", "rdmagw_target_info", "rdmagw_target_poll_duration_seconds",
           "rdmagw_target_read_errors_total", "rdmagw_rdma_port_np_ecn_marked_roce_packets_total",
           "rdmagw_rdma_port_np_cnp_sent_total", "rdmagw_rdma_port_rp_cnp_handled_total",
           "rdmagw_qos_queue_ecn_marked_packets_total", "rdmagw_interface_pfc_in_pause_frames_total",
           "rdmagw_interface_pfc_out_pause_frames_total", "rdmagw_interface_pfc_in_pause_duration_seconds_total",
           "rdmagw_interface_pfc_in_frames_total", "rdmagw_hypervisor_nic_pfc_rx_pause_frames_total",
           "rdmagw_qos_queue_dropped_packets_total", "rdmagw_rdma_port_out_of_buffer_total",
           "rdmagw_interface_in_discards_total"}) {
    EXPECT_NE(all.find(std::string(name) + "{"), std::string::npos) << name << " missing from the dashboard";
  }
}

TEST(DashboardTest, StructureGrafanaImports) {
  json doc = loadDashboard();
  EXPECT_GE(doc.value("schemaVersion", 0), 36);
  EXPECT_FALSE(doc.value("uid", std::string()).empty());
  std::set<std::string> vars;
  for (const json& v : doc["templating"]["list"]) {
    vars.insert(v["name"].get<std::string>());
    if (v["name"] == "datasource") {
      EXPECT_EQ(v["type"], "datasource");
      EXPECT_EQ(v["query"], "prometheus");
    }
    if (v["name"] == "target") {
      EXPECT_EQ(v["query"]["query"], "label_values(rdmagw_target_up, target)");
    }
  }
  EXPECT_TRUE(vars.count("datasource"));
  EXPECT_TRUE(vars.count("target"));
  std::set<int> ids;
  std::vector<std::string> rows;
  for (const json& p : doc["panels"]) {
    int id = p["id"].get<int>();
    EXPECT_GT(id, 0);
    EXPECT_TRUE(ids.insert(id).second) << "duplicate panel id " << id;
    if (p["type"] == "row") {
      rows.push_back(p["title"]);
      continue;
    }
    EXPECT_EQ(p["datasource"]["uid"], "${datasource}") << p["title"];
    for (const json& t : p["targets"]) {
      EXPECT_EQ(t["datasource"]["uid"], "${datasource}") << p["title"];
      EXPECT_NE(t["expr"].get<std::string>().find("target=~\"$target\""), std::string::npos) << p["title"];
    }
  }
  EXPECT_EQ(rows, (std::vector<std::string>{"Targets", "ECN / DCQCN", "PFC", "Drops"}));
}

// The checker itself must be able to fail: a bogus name, a foreign label, a
// raw counter and a grouping label the family lacks are all caught.
TEST(DashboardTest, CheckerRejectsBadQueries) {
  auto families = schemaFamilies();
  json bad = json::parse(R"J({"panels": [
    {"id": 1, "title": "bogus", "targets": [{"refId": "A", "expr": "rate(rdmagw_rdma_port_cnp_bogus_total{target=~\"$target\"}[$__rate_interval])"}]},
    {"id": 2, "title": "label", "targets": [{"refId": "A", "expr": "rate(rdmagw_rdma_port_np_cnp_sent_total{interface=\"eth0\"}[$__rate_interval])"}]},
    {"id": 3, "title": "raw", "targets": [{"refId": "A", "expr": "rdmagw_qos_queue_dropped_packets_total"}]},
    {"id": 4, "title": "by", "targets": [{"refId": "A", "expr": "sum by (target, priority) (rate(rdmagw_qos_queue_dropped_packets_total[$__rate_interval]))"}]},
    {"id": 5, "title": "legend", "targets": [{"refId": "A", "legendFormat": "{{nic}}", "expr": "rdmagw_target_up"}]},
    {"id": 6, "type": "row", "title": "nested", "panels": [
      {"id": 7, "title": "deep", "targets": [{"refId": "A", "expr": "rdmagw_renamed_metric"}]}]}
  ]})J");
  std::vector<std::string> problems = checkDashboard(bad, families);
  auto mentions = [&](const std::string& s) {
    for (const std::string& p : problems) if (p.find(s) != std::string::npos) return true;
    return false;
  };
  EXPECT_TRUE(mentions("unknown metric rdmagw_rdma_port_cnp_bogus_total")) << joined(problems);
  EXPECT_TRUE(mentions("label interface is not a label of rdmagw_rdma_port_np_cnp_sent_total")) << joined(problems);
  EXPECT_TRUE(mentions("counter rdmagw_qos_queue_dropped_packets_total needs a [$__rate_interval] range")) << joined(problems);
  EXPECT_TRUE(mentions("by label priority")) << joined(problems);
  EXPECT_TRUE(mentions("legendFormat label nic")) << joined(problems);
  EXPECT_TRUE(mentions("unknown metric rdmagw_renamed_metric")) << joined(problems);

  json good = json::parse(R"J({"panels": [{"id": 1, "title": "ok", "targets": [{"refId": "A", "legendFormat": "{{target}} {{admin_mode}}",
    "expr": "max by (target, interface, admin_mode) (rdmagw_interface_pfc_admin_mode_info{target=~\"$target\"})"}]}]})J");
  EXPECT_TRUE(checkDashboard(good, families).empty()) << joined(checkDashboard(good, families));
}

}  // namespace
}  // namespace rdmagw
