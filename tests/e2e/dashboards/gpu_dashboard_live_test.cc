// The GPU dashboard's queries in a real Prometheus, with the shipped GPU
// recording rules loaded: a GPU host's series as the gateway spells them
// (the labels tests/e2e/gpu/ reads off a live gateway), served with
// counters that grow. Every panel query must answer with data, not merely
// parse: a join that is many-to-many on real label sets, or a label
// matcher no series carries, is an error or an empty panel only a live
// server shows. The estimate is given to the one GPU alone with its NIC,
// and the findings table lists the gpu group's finding only.

#include <gtest/gtest.h>

#include <csignal>
#include <filesystem>
#include <nlohmann/json.hpp>
#include <regex>
#include <set>
#include <string>
#include <vector>

#include "tests/gateway/prometheus_process.h"
#include "tests/support/test_support.h"

namespace rdmagw::testing {
namespace {

using nlohmann::json;

// gpu01: GPU-a alone with mlx5_0 (PIX); GPU-b with mlx5_1 and mlx5_2 tied;
// GPU-c and GPU-d both nearest mlx5_3 (SYS, no GPUDirect). COUNTER is
// replaced by the milliseconds since the epoch at each scrape.
constexpr char kExposition[] = R"(rdmagw_target_info{target="gpu01",kind="rdma-host",transport="sysfs"} 1
rdmagw_target_up{target="gpu01"} 1
rdmagw_gpu_metrics_up{target="gpu01"} 1
rdmagw_gpu_devices{target="gpu01"} 4
rdmagw_gpu_topology_virtual{target="gpu01"} 0
rdmagw_gpu_peer_memory_info{target="gpu01",peer_memory="nvidia-peermem"} 1
rdmagw_gpu_iommu_info{target="gpu01",iommu="passthrough"} 1
rdmagw_gpu_errors_total{target="gpu01",stage="nvml"} 0
rdmagw_gpu_info{target="gpu01",UUID="GPU-a",gpu="0",modelName="NVIDIA H100 80GB HBM3",pci_bus_id="00000000:01:00.0",source="nvml",nearest_nic="mlx5_0",nearest_path="PIX"} 1
rdmagw_gpu_info{target="gpu01",UUID="GPU-b",gpu="1",modelName="NVIDIA H100 80GB HBM3",pci_bus_id="00000000:21:00.0",source="nvml",nearest_nic="mlx5_1 mlx5_2",nearest_path="PXB"} 1
rdmagw_gpu_info{target="gpu01",UUID="GPU-c",gpu="2",modelName="NVIDIA H100 80GB HBM3",pci_bus_id="00000000:81:00.0",source="nvml",nearest_nic="mlx5_3",nearest_path="SYS"} 1
rdmagw_gpu_info{target="gpu01",UUID="GPU-d",gpu="3",modelName="NVIDIA H100 80GB HBM3",pci_bus_id="00000000:A1:00.0",source="nvml",nearest_nic="mlx5_3",nearest_path="SYS"} 1
rdmagw_gpu_nic_info{target="gpu01",UUID="GPU-a",nic="mlx5_0",path="PIX",rank="nearest",nic_numa_node="0",gpu_numa_node="0",acs_redirect="off"} 1
rdmagw_gpu_nic_info{target="gpu01",UUID="GPU-a",nic="mlx5_3",path="SYS",rank="farther",nic_numa_node="1",gpu_numa_node="0",acs_redirect="off"} 1
rdmagw_gpu_nic_info{target="gpu01",UUID="GPU-b",nic="mlx5_1",path="PXB",rank="nearest-tied",nic_numa_node="0",gpu_numa_node="0",acs_redirect="off"} 1
rdmagw_gpu_nic_info{target="gpu01",UUID="GPU-b",nic="mlx5_2",path="PXB",rank="nearest-tied",nic_numa_node="0",gpu_numa_node="0",acs_redirect="off"} 1
rdmagw_gpu_nic_info{target="gpu01",UUID="GPU-c",nic="mlx5_3",path="SYS",rank="nearest",nic_numa_node="1",gpu_numa_node="0",acs_redirect="off"} 1
rdmagw_gpu_nic_info{target="gpu01",UUID="GPU-d",nic="mlx5_3",path="SYS",rank="nearest",nic_numa_node="1",gpu_numa_node="0",acs_redirect="off"} 1
rdmagw_gpu_nic_distance{target="gpu01",UUID="GPU-a",nic="mlx5_0"} 1
rdmagw_gpu_nic_distance{target="gpu01",UUID="GPU-a",nic="mlx5_3"} 5
rdmagw_gpu_nic_distance{target="gpu01",UUID="GPU-b",nic="mlx5_1"} 2
rdmagw_gpu_nic_distance{target="gpu01",UUID="GPU-b",nic="mlx5_2"} 2
rdmagw_gpu_nic_distance{target="gpu01",UUID="GPU-c",nic="mlx5_3"} 5
rdmagw_gpu_nic_distance{target="gpu01",UUID="GPU-d",nic="mlx5_3"} 5
)";

// Per-GPU gauges and counters, each GPU's line made from this with UUID
// substituted.
constexpr char kPerGpu[] = R"(rdmagw_gpu_gpudirect_rdma_eligible{target="gpu01",UUID="U"} E
rdmagw_gpu_temperature_celsius{target="gpu01",UUID="U"} 59
rdmagw_gpu_utilization_ratio{target="gpu01",UUID="U"} 0.8
rdmagw_gpu_memory_utilization_ratio{target="gpu01",UUID="U"} 0.4
rdmagw_gpu_memory_used_bytes{target="gpu01",UUID="U"} 20780679168
rdmagw_gpu_memory_total_bytes{target="gpu01",UUID="U"} 85520809984
rdmagw_gpu_power_draw_watts{target="gpu01",UUID="U"} 631.95
rdmagw_gpu_power_limit_watts{target="gpu01",UUID="U"} 700
rdmagw_gpu_pcie_tx_bytes_per_second{target="gpu01",UUID="U"} 1048576
rdmagw_gpu_pcie_rx_bytes_per_second{target="gpu01",UUID="U"} 2097152
rdmagw_gpu_pcie_link_gen{target="gpu01",UUID="U"} 5
rdmagw_gpu_pcie_link_gen_max{target="gpu01",UUID="U"} 5
rdmagw_gpu_pcie_link_width{target="gpu01",UUID="U"} 16
rdmagw_gpu_pcie_link_width_max{target="gpu01",UUID="U"} 16
rdmagw_gpu_ecc_corrected_errors_total{target="gpu01",UUID="U"} 3
rdmagw_gpu_ecc_uncorrected_errors_total{target="gpu01",UUID="U"} 0
)";

constexpr char kFindings[] = R"(rdmagw_fabric_roce_check_status_code{target="gpu01",group="gpu"} 2
rdmagw_fabric_roce_check_failed_items{target="gpu01",group="gpu"} 1
rdmagw_fabric_roce_check_status_code{target="gpu01",group="lossless"} 1
rdmagw_fabric_roce_finding_group_info{target="gpu01",finding="gpu/gdr-path/GPU-c",group="gpu"} 1
rdmagw_fabric_roce_finding_check_info{target="gpu01",finding="gpu/gdr-path/GPU-c",check="gdr-path"} 1
rdmagw_fabric_roce_finding_port_info{target="gpu01",finding="gpu/gdr-path/GPU-c",port="GPU-c"} 1
rdmagw_fabric_roce_finding_severity_info{target="gpu01",finding="gpu/gdr-path/GPU-c",severity="FAIL"} 1
rdmagw_fabric_roce_finding_expected_info{target="gpu01",finding="gpu/gdr-path/GPU-c",expected="PXB or nearer"} 1
rdmagw_fabric_roce_finding_found_info{target="gpu01",finding="gpu/gdr-path/GPU-c",found="SYS"} 1
rdmagw_fabric_roce_finding_group_info{target="gpu01",finding="lossless/pfc-not-on-roce-priority/eth0",group="lossless"} 1
rdmagw_fabric_roce_finding_check_info{target="gpu01",finding="lossless/pfc-not-on-roce-priority/eth0",check="pfc-not-on-roce-priority"} 1
rdmagw_fabric_roce_finding_port_info{target="gpu01",finding="lossless/pfc-not-on-roce-priority/eth0",port="eth0"} 1
rdmagw_fabric_roce_finding_severity_info{target="gpu01",finding="lossless/pfc-not-on-roce-priority/eth0",severity="WARN"} 1
rdmagw_fabric_roce_finding_expected_info{target="gpu01",finding="lossless/pfc-not-on-roce-priority/eth0",expected="3"} 1
rdmagw_fabric_roce_finding_found_info{target="gpu01",finding="lossless/pfc-not-on-roce-priority/eth0",found="none"} 1
)";

std::string exposition() {
  std::string out = kExposition;
  for (const auto& [uuid, eligible] : std::vector<std::pair<std::string, std::string>>{
           {"GPU-a", "1"}, {"GPU-b", "1"}, {"GPU-c", "0"}, {"GPU-d", "0"}}) {
    std::string lines = kPerGpu;
    lines = std::regex_replace(lines, std::regex("UUID=\"U\""), "UUID=\"" + uuid + "\"");
    lines = std::regex_replace(lines, std::regex(" E\n"), " " + eligible + "\n");
    out += lines;
  }
  // Every NIC's counters grow by a byte a millisecond: mlx5_1 has two ports.
  for (const char* port : {"mlx5_0\",port=\"1", "mlx5_1\",port=\"1", "mlx5_1\",port=\"2", "mlx5_2\",port=\"1",
                           "mlx5_3\",port=\"1"}) {
    for (const char* family : {"rcv", "xmit"}) {
      out += std::string("rdmagw_rdma_port_") + family + "_bytes_total{target=\"gpu01\",device=\"" + port +
             "\"} COUNTER\n";
    }
  }
  return out + kFindings;
}

// A scrape endpoint answering the exposition with COUNTER as the time in ms.
constexpr char kServer[] = R"(import http.server, sys, time
body = open(sys.argv[2]).read()
class H(http.server.BaseHTTPRequestHandler):
    def do_GET(self):
        out = body.replace("COUNTER", str(int(time.time() * 1000))).encode()
        self.send_response(200)
        self.send_header("Content-Type", "text/plain; version=0.0.4")
        self.send_header("Content-Length", str(len(out)))
        self.end_headers()
        self.wfile.write(out)
    def log_message(self, *args):
        pass
http.server.HTTPServer(("127.0.0.1", int(sys.argv[1])), H).serve_forever()
)";

// Every "expr" of the dashboard (panels at any depth), as Grafana would
// send it for host gpu01.
void collect(const json& node, const std::string& where, std::vector<std::pair<std::string, std::string>>* out) {
  if (node.is_object()) {
    std::string here = where;
    if (node.contains("title") && node["title"].is_string()) here = node["title"];
    if (node.contains("expr") && node["expr"].is_string()) {
      std::string expr = node["expr"];
      expr = std::regex_replace(expr, std::regex(R"(\$__rate_interval)"), "1m");
      expr = std::regex_replace(expr, std::regex(R"(\$target)"), "gpu01");
      out->push_back({here + " / " + node.value("refId", std::string()), expr});
    }
    for (const auto& [key, child] : node.items()) collect(child, here, out);
  } else if (node.is_array()) {
    for (const json& child : node) collect(child, where, out);
  }
}

// The result array of an instant query; null when Prometheus said error.
json result(PrometheusProcess& prometheus, const std::string& promql) {
  const std::string body = prometheus.queryJson(promql);
  const json doc = json::parse(body, nullptr, false);
  if (doc.is_discarded() || doc.value("status", std::string()) != "success") return nullptr;
  return doc["data"]["result"];
}

TEST(GpuDashboardLiveTest, EveryPanelQueryAnswersWithTheRecordingRulesLoaded) {
  if (!PrometheusProcess::installed()) GTEST_SKIP() << PrometheusProcess::kBinary << " missing (Debian prometheus)";
  TempDir tmp("rdmagw-gpu-dash-live");
  ASSERT_TRUE(writeFile(tmp.file("exposition.txt"), exposition()));
  ASSERT_TRUE(writeFile(tmp.file("server.py"), kServer));
  const int port = freeLoopbackPort();
  const int server = spawnLogged({"/usr/bin/python3", tmp.file("server.py"), std::to_string(port),
                                  tmp.file("exposition.txt")},
                                 tmp.file("server.log"));
  ASSERT_GT(server, 0);

  // The shipped rules, evaluated every second instead of Prometheus's
  // default minute so the test need not wait for them.
  std::string rules = readFile(RDMAGW_SOURCE_DIR "/rules/rdmagw-gpu.yml");
  ASSERT_FALSE(rules.empty());
  rules = std::regex_replace(rules, std::regex(R"((\n  - name: [^\n]+\n))"), "$1    interval: 1s\n");
  ASSERT_NE(rules.find("interval: 1s"), std::string::npos);
  ASSERT_TRUE(writeFile(tmp.file("rdmagw-gpu.yml"), rules));
  PrometheusProcess prometheus("  - job_name: rdmagw\n    static_configs:\n      - targets: ['127.0.0.1:" +
                               std::to_string(port) + "']\nrule_files:\n  - " + tmp.file("rdmagw-gpu.yml") + "\n");
  ASSERT_TRUE(prometheus.started());

  std::vector<std::pair<std::string, std::string>> queries;
  collect(json::parse(readFile(RDMAGW_SOURCE_DIR "/dashboards/rdmagw-gpu.json")), "dashboard", &queries);
  ASSERT_GE(queries.size(), 30u);
  // The host variable's series, then every panel query: an answer with data.
  queries.insert(queries.begin(), {"variable target", "rdmagw_target_info{kind=\"rdma-host\"}"});
  for (const auto& query : queries) {
    // Plain copies, not a structured binding: clang 14 cannot capture one in a lambda.
    const std::string& where = query.first;
    const std::string& expr = query.second;
    json got;
    EXPECT_TRUE(waitUntil(
        [&] {
          got = result(prometheus, expr);
          return got.is_array() && !got.empty();
        },
        std::chrono::seconds(30), std::chrono::milliseconds(500)))
        << where << ": " << expr << "\n" << prometheus.lastResponse() << prometheus.log();
  }

  // The estimate: GPU-a alone with mlx5_0 gets its bytes; GPU-b (tied) and
  // GPU-c, GPU-d (sharing mlx5_3) get none.
  for (const char* name :
       {"gpu:rdmagw_rdma_port_rcv_bytes:rate5m_estimate", "gpu:rdmagw_rdma_port_xmit_bytes:rate5m_estimate"}) {
    const json got = result(prometheus, name);
    ASSERT_TRUE(got.is_array()) << prometheus.lastResponse();
    ASSERT_EQ(got.size(), 1u) << got.dump();
    EXPECT_EQ(got[0]["metric"]["UUID"], "GPU-a") << got.dump();
    EXPECT_EQ(got[0]["metric"]["nic"], "mlx5_0") << got.dump();
    // Growing counters give a rate above 0 (its size, a 5-minute rate over
    // the few seconds scraped so far, is the promtool tests' to check).
    EXPECT_GT(std::stod(got[0]["value"][1].get<std::string>()), 0.0) << got.dump();
  }

  // The panels that list: the findings table holds the gpu group's finding,
  // not the lossless one; the GPUs without an estimate are b, c and d.
  for (const auto& [where, expr] : queries) {
    if (where.rfind("GPU readiness findings", 0) == 0) {
      const json got = result(prometheus, expr);
      ASSERT_TRUE(got.is_array());
      ASSERT_EQ(got.size(), 1u) << got.dump();
      EXPECT_EQ(got[0]["metric"]["check"], "gdr-path") << got.dump();
      EXPECT_EQ(got[0]["metric"]["found"], "SYS") << got.dump();
    }
    if (where.rfind("GPUs without an RDMA estimate", 0) == 0) {
      const json got = result(prometheus, expr);
      ASSERT_TRUE(got.is_array());
      std::set<std::string> uuids;
      for (const json& s : got) uuids.insert(s["metric"]["UUID"].get<std::string>());
      EXPECT_EQ(uuids, (std::set<std::string>{"GPU-b", "GPU-c", "GPU-d"})) << got.dump();
    }
  }

  // The waiting above can fail: a host with no series answers nothing.
  const json none = result(prometheus, "rdmagw_gpu_info{target=\"gpu02\"}");
  EXPECT_TRUE(none.is_array() && none.empty()) << prometheus.lastResponse();
  stopChild(server, SIGTERM);
}

}  // namespace
}  // namespace rdmagw::testing
