// Keeps every dashboards/*.json honest against the one schema table: every
// metric a query names must be a family rdmagw exports, every label it groups
// or filters by must be one that family carries, and counters must go through
// rate(...[$__rate_interval]). A renamed metric or label fails here, not on an
// operator's screen. The checker is tests/dashboards/promql_schema_check.h,
// shared with the alert rules' test.

#include <gtest/gtest.h>
#include <unistd.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <map>
#include <nlohmann/json.hpp>
#include <regex>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "tests/dashboards/promql_schema_check.h"
#include "tests/support/test_support.h"

namespace rdmagw::testing {
namespace {

using nlohmann::json;

constexpr const char* kDashboardDir = RDMAGW_SOURCE_DIR "/dashboards";

// Counters through rate(...[$__rate_interval]); the names the shipped
// recording rules define (the Kubernetes dashboards read them), with their
// labels.
const QueryPolicy& dashboardPolicy() {
  static const QueryPolicy policy = [] {
    QueryPolicy p{"$__rate_interval", {}, {}};
    addRecordingRules(RDMAGW_SOURCE_DIR "/rules", &p);
    return p;
  }();
  return policy;
}

// Every "expr" in the document (panels, nested rows, any depth) and every
// templating query (string or {"query": ...} object).
void collectQueries(const json& node, const std::string& where, std::vector<PromQuery>* out) {
  if (node.is_object()) {
    std::string here = where;
    if (node.contains("title") && node["title"].is_string()) here = node["title"].get<std::string>();
    if (node.contains("name") && node["name"].is_string()) here = "variable " + node["name"].get<std::string>();
    if (node.contains("expr") && node["expr"].is_string()) {
      PromQuery q{here, node["expr"].get<std::string>(), "", {}};
      if (node.contains("refId") && node["refId"].is_string()) q.where += " / " + node["refId"].get<std::string>();
      if (node.contains("legendFormat") && node["legendFormat"].is_string()) q.legend = node["legendFormat"];
      out->push_back(q);
    }
    if (node.contains("type") && node["type"] == "query" && node.contains("query")) {
      const json& q = node["query"];
      if (q.is_string()) out->push_back({here, q.get<std::string>(), "", {}});
      if (q.is_object() && q.contains("query") && q["query"].is_string()) out->push_back({here, q["query"], "", {}});
    }
    for (const auto& [key, child] : node.items()) collectQueries(child, here, out);
  } else if (node.is_array()) {
    for (const json& child : node) collectQueries(child, where, out);
  }
}

std::vector<std::string> checkDashboard(const json& doc, const std::map<std::string, PromFamily>& families) {
  std::vector<PromQuery> queries;
  collectQueries(doc, "dashboard", &queries);
  std::vector<std::string> problems;
  for (const PromQuery& q : queries) {
    for (std::string& p : checkPromQuery(q, families, dashboardPolicy())) problems.push_back(std::move(p));
  }
  return problems;
}

// File name -> parsed dashboard, for every *.json of dashboards/.
std::map<std::string, json> loadDashboards() {
  std::map<std::string, json> out;
  for (const auto& entry : std::filesystem::directory_iterator(kDashboardDir)) {
    if (entry.path().extension() != ".json") continue;
    std::ifstream in(entry.path());
    EXPECT_TRUE(in) << "cannot open " << entry.path();
    std::stringstream buf;
    buf << in.rdbuf();
    out[entry.path().filename().string()] = json::parse(buf.str());  // throws (fails the test) on invalid JSON
  }
  return out;
}

std::string allExprs(const json& doc) {
  std::vector<PromQuery> queries;
  collectQueries(doc, "dashboard", &queries);
  std::string all;
  for (const PromQuery& q : queries) all += q.expr + "\n";
  return all;
}

// Panels at any depth of rows, rows included.
void collectPanels(const json& panels, std::vector<const json*>* out) {
  for (const json& p : panels) {
    out->push_back(&p);
    if (p.contains("panels")) collectPanels(p["panels"], out);
  }
}

std::string joined(const std::vector<std::string>& v) {
  std::string out;
  for (const std::string& s : v) out += s + "\n";
  return out;
}

TEST(DashboardTest, ShipsTheFabricSwitchHostAndDcqcnDashboards) {
  std::set<std::string> names;
  for (const auto& [name, doc] : loadDashboards()) names.insert(name);
  EXPECT_EQ(names, (std::set<std::string>{"rdmagw-roce-congestion.json", "rdmagw-fabric.json", "rdmagw-switch.json",
                                          "rdmagw-host.json", "rdmagw-dcqcn-chain.json", "rdmagw-k8s-cluster.json",
                                          "rdmagw-k8s-node.json", "rdmagw-k8s-pod.json", "rdmagw-k8s-workload.json",
                                          "rdmagw-gpu.json"}));
}

TEST(DashboardTest, EveryMetricAndLabelIsInTheSchema) {
  const auto families = schemaFamilies();
  for (const auto& [name, doc] : loadDashboards()) {
    std::vector<PromQuery> queries;
    collectQueries(doc, "dashboard", &queries);
    EXPECT_GE(queries.size(), 8u) << name << ": the extractor lost the queries";
    std::vector<std::string> problems = checkDashboard(doc, families);
    EXPECT_TRUE(problems.empty()) << name << ":\n" << joined(problems);
  }
}

// Every panel query is PromQL Prometheus parses: promtool reads them all as
// recording rules, with Grafana's variables replaced by what Grafana would
// send ($__rate_interval a duration, a variable a regex).
TEST(DashboardTest, EveryQueryParsesAsPromQL) {
  constexpr const char* kPromtool = "/usr/bin/promtool";
  ASSERT_EQ(access(kPromtool, X_OK), 0) << kPromtool << " missing: apt-get install prometheus";
  testing::TempDir tmp("rdmagw-dashboards");
  for (const auto& [name, doc] : loadDashboards()) {
    std::vector<PromQuery> queries;
    collectQueries(doc, "dashboard", &queries);
    std::string rules = "groups:\n  - name: dashboard\n    rules:\n";
    size_t n = 0;
    for (PromQuery& q : queries) {
      if (q.expr.rfind("label_values(", 0) == 0) continue;  // Grafana's, not PromQL
      std::string expr = std::regex_replace(q.expr, std::regex(R"(\$__rate_interval)"), "5m");
      expr = std::regex_replace(expr, std::regex(R"(\$[a-zA-Z_]+)"), ".*");
      rules += "      - record: dashboard_query_" + std::to_string(++n) + "\n        expr: " + json(expr).dump() + "\n";
    }
    const std::string file = tmp.file(name + ".rules.yml");
    ASSERT_TRUE(testing::writeFile(file, rules));
    testing::CommandResult r = testing::runCommand(std::string(kPromtool) + " check rules " + file);
    EXPECT_EQ(r.exit_code, 0) << name << "\n" << r.output << "\n" << rules;
    EXPECT_NE(r.output.find("SUCCESS: " + std::to_string(n) + " rules found"), std::string::npos) << r.output;
  }
}

// What each dashboard is for: the families it must show.
TEST(DashboardTest, EachDashboardCoversItsFamilies) {
  const std::map<std::string, std::vector<std::string>> wanted = {
      {"rdmagw-roce-congestion.json",
       {"rdmagw_target_up", "rdmagw_target_info", "rdmagw_target_poll_duration_seconds",
        "rdmagw_target_read_errors_total", "rdmagw_rdma_port_np_ecn_marked_roce_packets_total",
        "rdmagw_rdma_port_np_cnp_sent_total", "rdmagw_rdma_port_rp_cnp_handled_total",
        "rdmagw_qos_queue_ecn_marked_packets_total", "rdmagw_interface_pfc_in_pause_frames_total",
        "rdmagw_interface_pfc_out_pause_frames_total", "rdmagw_interface_pfc_in_pause_duration_seconds_total",
        "rdmagw_interface_pfc_in_frames_total", "rdmagw_hypervisor_nic_pfc_rx_pause_frames_total",
        "rdmagw_qos_queue_dropped_packets_total", "rdmagw_rdma_port_out_of_buffer_total",
        "rdmagw_interface_in_discards_total"}},
      {"rdmagw-fabric.json",
       {"rdmagw_fabric_dcqcn_verdict_code", "rdmagw_fabric_pfc_pause_balance_code",
        "rdmagw_fabric_pfc_lossless_drop_alarm", "rdmagw_fabric_pfc_lossless_drop_packets_per_second",
        "rdmagw_fabric_pause_tree_state_code", "rdmagw_fabric_pause_tree_size_ports",
        "rdmagw_fabric_pause_tree_roots_info", "rdmagw_fabric_pfc_paused_ratio", "rdmagw_target_up",
        "rdmagw_fabric_pfc_pause_storm_alarm", "rdmagw_fabric_pfc_peer_paused_ratio",
        "rdmagw_fabric_roce_check_status_code", "rdmagw_fabric_roce_check_failed_items"}},
      {"rdmagw-switch.json",
       {"rdmagw_interface_pfc_in_frames_total", "rdmagw_interface_pfc_out_frames_total",
        "rdmagw_qos_queue_ecn_marked_packets_total", "rdmagw_qos_queue_dropped_packets_total",
        "rdmagw_interface_in_bytes_total", "rdmagw_fabric_pause_tree_state_code",
        "rdmagw_fabric_pfc_pause_balance_code", "rdmagw_target_info"}},
      {"rdmagw-host.json",
       {"rdmagw_rdma_port_np_ecn_marked_roce_packets_total", "rdmagw_rdma_port_np_cnp_sent_total",
        "rdmagw_rdma_port_rp_cnp_handled_total", "rdmagw_interface_pfc_in_pause_frames_total",
        "rdmagw_interface_pfc_out_pause_frames_total", "rdmagw_rdma_port_out_of_buffer_total",
        "rdmagw_fabric_dcqcn_verdict_code", "rdmagw_hypervisor_nic_pfc_rx_pause_frames_total"}},
      {"rdmagw-dcqcn-chain.json",
       {"rdmagw_qos_queue_ecn_marked_packets_total", "rdmagw_rdma_port_np_ecn_marked_roce_packets_total",
        "rdmagw_rdma_port_np_cnp_sent_total", "rdmagw_rdma_port_rp_cnp_handled_total",
        "rdmagw_rdma_port_rp_cnp_ignored_total", "rdmagw_fabric_dcqcn_verdict_code"}},
      {"rdmagw-k8s-cluster.json",
       {"rdmagw_k8s_podresources_up", "rdmagw_k8s_pods", "rdmagw_k8s_devices_attributed", "rdmagw_k8s_unattributed",
        "rdmagw_k8s_attribution_errors_total", "pod:rdmagw_rdma_port_rcv_bytes:rate5m",
        "pod:rdmagw_rdma_port_xmit_bytes:rate5m", "pod:rdmagw_rdma_port_np_cnp_sent:rate5m",
        "pod:rdmagw_rdma_port_rp_cnp_handled:rate5m"}},
      {"rdmagw-k8s-node.json",
       {"rdmagw_k8s_podresources_up", "rdmagw_rdma_device_pod_info", "rdmagw_k8s_unattributed",
        "pod:rdmagw_rdma_port_rcv_bytes:rate5m", "pod:rdmagw_rdma_port_np_ecn_marked_roce_packets:rate5m",
        "pod:rdmagw_rdma_port_out_of_sequence:rate5m", "rdmagw_rdma_port_rcv_bytes_total"}},
      {"rdmagw-k8s-pod.json",
       {"rdmagw_rdma_device_pod_info", "rdmagw_k8s_podresources_up", "pod:rdmagw_rdma_port_rcv_bytes:rate5m",
        "pod:rdmagw_rdma_port_xmit_bytes:rate5m", "pod:rdmagw_rdma_port_np_ecn_marked_roce_packets:rate5m",
        "pod:rdmagw_rdma_port_np_cnp_sent:rate5m", "pod:rdmagw_rdma_port_rp_cnp_handled:rate5m",
        "pod:rdmagw_rdma_port_out_of_buffer:rate5m"}},
      {"rdmagw-k8s-workload.json",
       {"workload:rdmagw_rdma_port_rcv_bytes:rate5m", "workload:rdmagw_rdma_port_xmit_bytes:rate5m",
        "workload:rdmagw_rdma_port_np_cnp_sent:rate5m", "workload:rdmagw_rdma_port_rp_cnp_handled:rate5m",
        "pod:kube_pod_owner:workload"}},
      {"rdmagw-gpu.json",
       {"rdmagw_gpu_info", "rdmagw_gpu_metrics_up", "rdmagw_gpu_temperature_celsius", "rdmagw_gpu_utilization_ratio",
        "rdmagw_gpu_memory_utilization_ratio", "rdmagw_gpu_memory_used_bytes", "rdmagw_gpu_memory_total_bytes",
        "rdmagw_gpu_power_draw_watts", "rdmagw_gpu_power_limit_watts", "rdmagw_gpu_gpudirect_rdma_eligible",
        "rdmagw_gpu_nic_info", "rdmagw_gpu_nic_distance", "rdmagw_gpu_topology_virtual", "rdmagw_gpu_errors_total",
        "rdmagw_gpu_pcie_tx_bytes_per_second", "rdmagw_gpu_pcie_link_width", "rdmagw_gpu_ecc_uncorrected_errors_total",
        "gpu:rdmagw_rdma_port_rcv_bytes:rate5m_estimate", "gpu:rdmagw_rdma_port_xmit_bytes:rate5m_estimate",
        "rdmagw_rdma_port_rcv_bytes_total", "rdmagw_rdma_port_xmit_bytes_total",
        "rdmagw_fabric_roce_finding_group_info", "rdmagw_fabric_roce_finding_found_info",
        "rdmagw_fabric_roce_check_status_code", "rdmagw_gpu_peer_memory_info", "rdmagw_gpu_iommu_info"}},
  };
  const auto docs = loadDashboards();
  for (const auto& [file, names] : wanted) {
    auto doc = docs.find(file);
    ASSERT_NE(doc, docs.end()) << file;
    const std::string all = allExprs(doc->second);
    for (const std::string& name : names) {
      EXPECT_NE(all.find(name + "{"), std::string::npos) << name << " missing from " << file;
    }
  }
}

// Importable by Grafana 9+, one data source variable, and every query scoped
// by the dashboard's target variable (the fabric-wide ones with All, the
// switch and host ones by one device) or, on a Kubernetes dashboard without
// one (a workload's pods run on any node), by its namespace variable.
TEST(DashboardTest, StructureGrafanaImports) {
  static const std::regex kTargetVariable(R"(^label_values\(rdmagw_target_[a-z_]+(\{[^}]*\})?, target\)$)");
  std::set<std::string> uids;
  for (const auto& [name, doc] : loadDashboards()) {
    SCOPED_TRACE(name);
    EXPECT_GE(doc.value("schemaVersion", 0), 36);
    const std::string uid = doc.value("uid", std::string());
    EXPECT_FALSE(uid.empty());
    EXPECT_TRUE(uids.insert(uid).second) << "duplicate uid " << uid;
    EXPECT_TRUE(doc.contains("tags") && std::find(doc["tags"].begin(), doc["tags"].end(), "rdmagw") != doc["tags"].end());
    std::string datasource, target_var, namespace_var;
    for (const json& v : doc["templating"]["list"]) {
      if (v["type"] == "datasource") {
        EXPECT_EQ(v["query"], "prometheus");
        datasource = v["name"];
      }
      if (v["type"] == "query" && std::regex_match(v["query"]["query"].get<std::string>(), kTargetVariable)) {
        EXPECT_EQ(v["datasource"]["uid"], "${datasource}");
        target_var = v["name"];
      }
      if (v["type"] == "query" && v["name"] == "namespace") namespace_var = v["name"];
    }
    EXPECT_EQ(datasource, "datasource");
    ASSERT_FALSE(target_var.empty() && namespace_var.empty())
        << "no variable of label_values(rdmagw_target_..., target), nor a namespace variable";
    const std::string scope = target_var.empty() ? "namespace=~\"$namespace\"" : "target=~\"$" + target_var + "\"";
    std::vector<const json*> panels;
    collectPanels(doc["panels"], &panels);
    std::set<int> ids;
    for (const json* p : panels) {
      int id = (*p)["id"].get<int>();
      EXPECT_GT(id, 0);
      EXPECT_TRUE(ids.insert(id).second) << "duplicate panel id " << id;
      if ((*p)["type"] == "row") continue;
      EXPECT_EQ((*p)["datasource"]["uid"], "${datasource}") << (*p)["title"];
      EXPECT_FALSE((*p)["targets"].empty()) << (*p)["title"];
      for (const json& t : (*p)["targets"]) {
        EXPECT_EQ(t["datasource"]["uid"], "${datasource}") << (*p)["title"];
        EXPECT_NE(t["expr"].get<std::string>().find(scope), std::string::npos) << (*p)["title"] << ": " << t["expr"];
      }
    }
  }
}

TEST(DashboardTest, CongestionDashboardRows) {
  const auto docs = loadDashboards();
  std::vector<std::string> rows;
  for (const json& p : docs.at("rdmagw-roce-congestion.json")["panels"]) {
    if (p["type"] == "row") rows.push_back(p["title"]);
  }
  EXPECT_EQ(rows, (std::vector<std::string>{"Targets", "ECN / DCQCN", "PFC", "Drops"}));
}

// The GPU dashboard: a per-GPU RDMA line is an estimate, so each panel
// drawing one says so in its title and draws the host's total beside it for
// scale; the readiness findings are the RoCE check's gpu group only (the
// fabric dashboard shows the others).
TEST(DashboardTest, GpuDashboardLabelsTheEstimateAndShowsOnlyGpuFindings) {
  const auto docs = loadDashboards();
  ASSERT_TRUE(docs.count("rdmagw-gpu.json"));
  std::vector<const json*> panels;
  collectPanels(docs.at("rdmagw-gpu.json")["panels"], &panels);
  size_t estimates = 0, findings = 0;
  for (const json* p : panels) {
    if ((*p)["type"] == "row") continue;
    const std::string title = (*p)["title"];
    bool estimate = false, total = false;
    for (const json& t : (*p)["targets"]) {
      const std::string expr = t["expr"];
      if (expr.find(":rate5m_estimate{") != std::string::npos && expr.find("unless") == std::string::npos) {
        estimate = true;
      }
      if (expr.rfind("sum by (target) (rate(rdmagw_rdma_port_", 0) == 0) total = true;
      if (expr.find("rdmagw_fabric_roce_") != std::string::npos) {
        ++findings;
        EXPECT_NE(expr.find("group=\"gpu\""), std::string::npos) << title << ": " << expr;
      }
    }
    if (!estimate) continue;
    ++estimates;
    EXPECT_NE(title.find("(estimate)"), std::string::npos) << title;
    EXPECT_TRUE(total) << title << ": no host total beside the estimate";
  }
  EXPECT_EQ(estimates, 2u) << "receive and transmit";
  EXPECT_GE(findings, 3u) << "the readiness status, its history and the findings table";
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
      {"id": 7, "title": "deep", "targets": [{"refId": "A", "expr": "rdmagw_renamed_metric"}]}]},
    {"id": 8, "title": "fixed", "targets": [{"refId": "A", "expr": "rate(rdmagw_rdma_port_np_cnp_sent_total[5m])"}]},
    {"id": 9, "title": "gauge", "targets": [{"refId": "A", "expr": "rate(rdmagw_fabric_pfc_paused_ratio[$__rate_interval])"}]},
    {"id": 10, "title": "recorded", "targets": [{"refId": "A", "expr": "fabric:rdmagw_nothing:rate5m"}]},
    {"id": 11, "title": "pod label", "targets": [{"refId": "A", "legendFormat": "{{owner_name}}", "expr": "pod:rdmagw_rdma_port_rcv_bytes:rate5m{workload=\"w\"}"}]},
    {"id": 12, "title": "pod rate", "targets": [{"refId": "A", "expr": "rate(workload:rdmagw_rdma_port_rcv_bytes:rate5m[$__rate_interval])"}]}
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
  EXPECT_TRUE(mentions("fixed / A: counter rdmagw_rdma_port_np_cnp_sent_total needs a [$__rate_interval]")) << joined(problems);
  EXPECT_TRUE(mentions("gauge rdmagw_fabric_pfc_paused_ratio used with a range")) << joined(problems);
  EXPECT_TRUE(mentions("unknown recorded metric fabric:rdmagw_nothing:rate5m")) << joined(problems);
  EXPECT_TRUE(mentions("label workload is not a label of pod:rdmagw_rdma_port_rcv_bytes:rate5m")) << joined(problems);
  EXPECT_TRUE(mentions("pod label / A: legendFormat label owner_name")) << joined(problems);
  EXPECT_TRUE(mentions("recorded workload:rdmagw_rdma_port_rcv_bytes:rate5m used with a range")) << joined(problems);

  json good = json::parse(R"J({"panels": [{"id": 1, "title": "ok", "targets": [{"refId": "A", "legendFormat": "{{target}} {{admin_mode}}",
    "expr": "max by (target, interface, admin_mode) (rdmagw_interface_pfc_admin_mode_info{target=~\"$target\"})"}]}]})J");
  EXPECT_TRUE(checkDashboard(good, families).empty()) << joined(checkDashboard(good, families));
}

}  // namespace
}  // namespace rdmagw::testing
