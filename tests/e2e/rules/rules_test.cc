// The alerting and recording rules shipped in rules/: the real
// `promtool check rules` accepts every file, `promtool test rules` passes
// every unit test in tests/rules/ (each alert with cases where it fires and
// where it must not), and every metric and label a rule names is in the
// schema table (the checker the dashboards use). A rule broken on purpose
// must fail, or none of this proves anything.

#include <gtest/gtest.h>
#include <unistd.h>
#include <yaml-cpp/yaml.h>

#include <algorithm>
#include <filesystem>
#include <map>
#include <regex>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "tests/dashboards/promql_schema_check.h"
#include "tests/support/test_support.h"

namespace rdmagw::testing {
namespace {

namespace fs = std::filesystem;

constexpr const char* kPromtool = "/usr/bin/promtool";
const fs::path kRulesDir = RDMAGW_SOURCE_DIR "/rules";
const fs::path kTestsDir = RDMAGW_SOURCE_DIR "/tests/rules";

// *.yml of a directory whose name ends with `suffix`, sorted.
std::vector<fs::path> yamlFiles(const fs::path& dir, const std::string& suffix) {
  std::vector<fs::path> out;
  for (const auto& e : fs::directory_iterator(dir)) {
    const std::string name = e.path().filename().string();
    if (name.ends_with(suffix)) out.push_back(e.path());
  }
  std::sort(out.begin(), out.end());
  return out;
}

std::vector<fs::path> rulesFiles() { return yamlFiles(kRulesDir, ".yml"); }
std::vector<fs::path> unitTestFiles() { return yamlFiles(kTestsDir, "_test.yml"); }

testing::CommandResult promtool(const std::string& args) {
  return testing::runCommand(std::string(kPromtool) + " " + args);
}

// Every rule of every shipped file, keyed by alert or record name.
std::map<std::string, YAML::Node> rulesByName(bool alerts) {
  std::map<std::string, YAML::Node> out;
  for (const fs::path& file : rulesFiles()) {
    YAML::Node doc = YAML::LoadFile(file.string());
    for (const YAML::Node& group : doc["groups"]) {
      for (const YAML::Node& rule : group["rules"]) {
        const char* key = alerts ? "alert" : "record";
        if (rule[key]) out[rule[key].as<std::string>()] = rule;
      }
    }
  }
  return out;
}

std::string joined(const std::vector<std::string>& v) {
  std::string out;
  for (const std::string& s : v) out += s + "\n";
  return out;
}

class RulesTest : public ::testing::Test {
 protected:
  void SetUp() override {
    // Not a skip: the rules are a deliverable, and scripts/install-deps.sh
    // installs promtool (Debian package prometheus).
    ASSERT_EQ(access(kPromtool, X_OK), 0) << kPromtool << " missing: apt-get install prometheus";
  }
};

TEST_F(RulesTest, ShipsAlertAndRecordingRules) {
  std::set<std::string> names;
  for (const fs::path& f : rulesFiles()) names.insert(f.filename().string());
  EXPECT_EQ(names, (std::set<std::string>{"rdmagw-alerts.yml", "rdmagw-gpu.yml", "rdmagw-kubernetes.yml",
                                          "rdmagw-recording.yml"}));
  EXPECT_EQ(unitTestFiles().size(), 4u);
}

TEST_F(RulesTest, PromtoolCheckRulesAcceptsEveryFile) {
  for (const fs::path& file : rulesFiles()) {
    testing::CommandResult r = promtool("check rules " + file.string());
    EXPECT_EQ(r.exit_code, 0) << file << "\n" << r.output;
    EXPECT_NE(r.output.find("SUCCESS"), std::string::npos) << r.output;
  }
}

TEST_F(RulesTest, PromtoolUnitTestsPass) {
  for (const fs::path& file : unitTestFiles()) {
    testing::CommandResult r = promtool("test rules " + file.string());
    EXPECT_EQ(r.exit_code, 0) << file << "\n" << r.output;
    EXPECT_NE(r.output.find("SUCCESS"), std::string::npos) << r.output;
  }
}

// Each alert is tested where it fires and where it must stay quiet; each
// recording rule is evaluated by a promql_expr_test; each rules file is
// loaded by some unit test.
TEST_F(RulesTest, EveryRuleHasUnitTests) {
  std::map<std::string, int> fires, quiet;
  std::set<std::string> exprs, loaded;
  for (const fs::path& file : unitTestFiles()) {
    YAML::Node doc = YAML::LoadFile(file.string());
    for (const YAML::Node& rf : doc["rule_files"]) {
      loaded.insert((file.parent_path() / rf.as<std::string>()).lexically_normal().filename().string());
    }
    for (const YAML::Node& test : doc["tests"]) {
      for (const YAML::Node& a : test["alert_rule_test"]) {
        const std::string name = a["alertname"].as<std::string>();
        if (a["exp_alerts"] && a["exp_alerts"].size() > 0) {
          ++fires[name];
        } else {
          ++quiet[name];
        }
      }
      for (const YAML::Node& e : test["promql_expr_test"]) exprs.insert(e["expr"].as<std::string>());
    }
  }
  for (const auto& [name, rule] : rulesByName(true)) {
    EXPECT_GT(fires[name], 0) << name << " has no case where it fires";
    EXPECT_GT(quiet[name], 0) << name << " has no case where it must not fire";
  }
  for (const auto& [name, rule] : rulesByName(false)) EXPECT_TRUE(exprs.count(name)) << name << " never evaluated";
  for (const fs::path& file : rulesFiles()) EXPECT_TRUE(loaded.count(file.filename().string())) << file;
}

// The PromQL of every rule, and the $labels its annotations print, against
// the schema table.
TEST_F(RulesTest, EveryMetricAndLabelIsInTheSchema) {
  const auto families = schemaFamilies();
  QueryPolicy policy;  // counters: rate()/increase() over any range
  addRecordingRules(kRulesDir.string(), &policy);
  EXPECT_EQ(policy.recorded.size(), rulesByName(false).size());
  static const std::regex kLabelRef(R"(\$labels\.([a-zA-Z_][a-zA-Z0-9_]*))");
  std::vector<std::string> problems;
  size_t checked = 0;
  for (bool alerts : {true, false}) {
    for (const auto& [name, rule] : rulesByName(alerts)) {
      PromQuery q{name, rule["expr"].as<std::string>(), "", {}};
      for (const auto& a : rule["annotations"]) {
        const std::string text = a.second.as<std::string>();
        for (auto it = std::sregex_iterator(text.begin(), text.end(), kLabelRef); it != std::sregex_iterator(); ++it) {
          q.annotation_labels.push_back((*it)[1]);
        }
      }
      if (alerts) {
        const std::string severity = rule["labels"]["severity"].as<std::string>("");
        if (severity != "critical" && severity != "warning" && severity != "info") {
          problems.push_back(name + ": severity '" + severity + "' is not critical, warning or info");
        }
      }
      for (std::string& p : checkPromQuery(q, families, policy)) problems.push_back(std::move(p));
      ++checked;
    }
  }
  EXPECT_GE(checked, 15u) << "the rules parser lost rules";
  EXPECT_TRUE(problems.empty()) << joined(problems);
}

// The tests above are only worth something if they can fail.
TEST_F(RulesTest, BrokenRulesFail) {
  testing::TempDir tmp("rdmagw-rules");
  ASSERT_FALSE(tmp.path().empty());

  // A syntax error: promtool check rules refuses the file.
  const std::string broken = tmp.file("broken.yml");
  ASSERT_TRUE(testing::writeFile(broken, "groups:\n  - name: x\n    rules:\n      - alert: X\n"
                                             "        expr: rate(rdmagw_target_up[5m]\n"));
  testing::CommandResult syntax = promtool("check rules " + broken);
  EXPECT_NE(syntax.exit_code, 0) << syntax.output;

  // A wrong threshold in a copy of the shipped alerts: the shipped unit
  // tests, run on the copy from the same relative place, catch it.
  fs::create_directories(tmp.file("rules"));
  fs::create_directories(tmp.file("tests/rules"));
  std::string alerts = testing::readFile((kRulesDir / "rdmagw-alerts.yml").string());
  const std::string good = "expr: rdmagw_target_up == 0";
  ASSERT_NE(alerts.find(good), std::string::npos);
  alerts.replace(alerts.find(good), good.size(), "expr: rdmagw_target_up == 2");
  ASSERT_TRUE(testing::writeFile(tmp.file("rules/rdmagw-alerts.yml"), alerts));
  fs::copy_file(kTestsDir / "rdmagw-alerts_test.yml", tmp.file("tests/rules/rdmagw-alerts_test.yml"));
  testing::CommandResult wrong = promtool("test rules " + tmp.file("tests/rules/rdmagw-alerts_test.yml"));
  EXPECT_NE(wrong.exit_code, 0) << wrong.output;
  EXPECT_NE(wrong.output.find("RdmagwTargetDown"), std::string::npos) << wrong.output;

  // The Kubernetes rules' join written the obvious way round, counters on
  // the many side: the shared HCA's two pods make Prometheus refuse it. And
  // a join by device alone: node2's mlx5_2 would take node1's pod.
  const std::string k8s = testing::readFile((kRulesDir / "rdmagw-kubernetes.yml").string());
  fs::copy_file(kTestsDir / "rdmagw-kubernetes_test.yml", tmp.file("tests/rules/rdmagw-kubernetes_test.yml"));
  const std::string join =
      "            rdmagw_rdma_device_pod_info\n"
      "            * on(target, device) group_left()\n"
      "            sum by (target, device) (rate(rdmagw_rdma_port_rcv_bytes_total[5m]))";
  ASSERT_NE(k8s.find(join), std::string::npos);
  for (const std::string& replacement :
       {std::string("            rate(rdmagw_rdma_port_rcv_bytes_total[5m])\n"
                    "            * on(target, device) group_left(namespace, pod, container)\n"
                    "            rdmagw_rdma_device_pod_info"),
        std::string("            rdmagw_rdma_device_pod_info\n"
                    "            * on(device) group_left()\n"
                    "            sum by (device) (rate(rdmagw_rdma_port_rcv_bytes_total[5m]))")}) {
    std::string copy = k8s;
    copy.replace(copy.find(join), join.size(), replacement);
    ASSERT_TRUE(testing::writeFile(tmp.file("rules/rdmagw-kubernetes.yml"), copy));
    testing::CommandResult r = promtool("test rules " + tmp.file("tests/rules/rdmagw-kubernetes_test.yml"));
    EXPECT_NE(r.exit_code, 0) << replacement << "\n" << r.output;
    EXPECT_NE(r.output.find("pod:rdmagw_rdma_port_rcv_bytes:rate5m"), std::string::npos) << r.output;
  }

  // The GPU estimate without its one-to-one filters: the NIC two GPUs share
  // given to both, or a tied GPU given each of its NICs. And the pairing
  // matched or counted by NIC name alone, across hosts: host1's shared
  // mlx5_4 would pass because host2's is not shared, and the two hosts'
  // mlx5_0 would look like one shared NIC. The shipped unit tests must
  // refuse each.
  const std::string gpu = testing::readFile((kRulesDir / "rdmagw-gpu.yml").string());
  fs::copy_file(kTestsDir / "rdmagw-gpu_test.yml", tmp.file("tests/rules/rdmagw-gpu_test.yml"));
  using Edits = std::vector<std::pair<std::string, std::string>>;
  const std::vector<Edits> gpu_breaks = {
      {{"nearest-tied\"}) == 1)", "nearest-tied\"}) > 0)"}},
      {{"rdmagw_gpu_nic_info{rank=\"nearest\"}", "rdmagw_gpu_nic_info{rank=~\"nearest.*\"}"}},
      {{"and on(target, nic)", "and on(nic)"}},
      {{"and on(target, nic)", "and on(nic)"}, {"count by (target, nic)", "count by (nic)"}},
  };
  for (const Edits& edits : gpu_breaks) {
    std::string copy = gpu;
    for (const auto& [good_text, bad_text] : edits) {
      size_t at = copy.find(good_text);
      ASSERT_NE(at, std::string::npos) << good_text;
      for (; at != std::string::npos; at = copy.find(good_text, at + bad_text.size())) {
        copy.replace(at, good_text.size(), bad_text);
      }
    }
    ASSERT_TRUE(testing::writeFile(tmp.file("rules/rdmagw-gpu.yml"), copy));
    testing::CommandResult r = promtool("test rules " + tmp.file("tests/rules/rdmagw-gpu_test.yml"));
    EXPECT_NE(r.exit_code, 0) << edits.front().second << "\n" << r.output;
    EXPECT_NE(r.output.find("gpu:rdmagw_rdma_port_"), std::string::npos) << r.output;
  }

  // A renamed metric and a label its family lacks: the schema check.
  const auto families = schemaFamilies();
  std::vector<std::string> problems =
      checkPromQuery({"X", "rdmagw_fabric_dcb_mismatch == 1 or rdmagw_target_up{interface=\"e\"} == 0", "", {"nic"}},
                     families, QueryPolicy{});
  EXPECT_NE(joined(problems).find("unknown metric rdmagw_fabric_dcb_mismatch"), std::string::npos) << joined(problems);
  EXPECT_NE(joined(problems).find("label interface is not a label of rdmagw_target_up"), std::string::npos);
  EXPECT_NE(joined(problems).find("annotation label nic"), std::string::npos);

  // A join: a label copied from no family, a kube-state-metrics label
  // misspelt, a recorded series' label it does not have.
  QueryPolicy policy;
  addRecordingRules(kRulesDir.string(), &policy);
  problems = checkPromQuery({"J",
                             "max by (target, namespace) (rdmagw_rdma_device_pod_info * on(target, device) "
                             "group_left(owner) sum by (target, device) (rate(rdmagw_rdma_port_rcv_bytes_total[5m])))"
                             " or kube_pod_owner{owner=\"x\"} or pod:rdmagw_rdma_port_rcv_bytes:rate5m{workload=\"w\"}",
                             "",
                             {}},
                            families, policy);
  EXPECT_NE(joined(problems).find("group_left label owner is carried by no metric"), std::string::npos)
      << joined(problems);
  EXPECT_NE(joined(problems).find("label owner is not a label of kube_pod_owner"), std::string::npos);
  EXPECT_NE(joined(problems).find("label workload is not a label of pod:rdmagw_rdma_port_rcv_bytes:rate5m"),
            std::string::npos);
}

}  // namespace
}  // namespace rdmagw::testing
