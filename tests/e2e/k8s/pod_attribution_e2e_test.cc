// Pod attribution through the real `rdmagw run` and all three northbounds:
// the fake kubelet (real v1 gRPC on a unix socket) assigns a VF to a
// hostNetwork pod and a shared plugin slot to another; the node's /proc,
// pinned netns, pod log directories and SR-IOV sysfs are trees shaped like
// the kernel's (tests/southbound/k8s/node_tree.h). Then:
//   - /metrics has one rdmagw_rdma_device_pod_info series per pod entry,
//     with the labels a join needs, and the attribution's health;
//   - gNMI Get (python3-grpcio) returns the entry's leaves under the device;
//   - snmpwalk (real snmpd, our AgentX subagent) finds rdmagwRdmaPodTable's
//     row under the device, UID and container;
//   - a deleted pod's series is gone within a few polls, and a kubelet that
//     goes away stops neither the host's collection nor the last entries.
// Real network namespaces and cgroups are entered by k8s_node_test.

#include <gtest/gtest.h>
#include <unistd.h>

#include <chrono>
#include <filesystem>
#include <map>
#include <regex>
#include <sstream>
#include <string>
#include <vector>

#include "sim/k8s/fake_kubelet.h"
#include "sim/snmpd_launcher.h"
#include "sim/tree_writer.h"
#include "tests/northbound/gnmi/python_client.h"
#include "tests/southbound/k8s/node_tree.h"
#include "tests/support/test_support.h"

namespace rdmagw::testing {
namespace {

constexpr char kHostPod[] = "11111111-2222-3333-4444-555555555555";
constexpr char kSharedPod[] = "22222222-3333-4444-5555-666666666666";
constexpr char kPodTable[] = ".1.3.6.1.4.1.32473.1.1.14.1.";

sim::FakePod pod(const std::string& name, const std::string& resource, const std::string& device) {
  return sim::FakePod{"ml", name, {sim::FakeContainer{"main", {sim::FakeDevices{resource, {device}, {0}}}}}};
}

class PodAttributionE2eTest : public ::testing::Test {
 protected:
  void SetUp() override {
    if (::geteuid() != 0) GTEST_SKIP() << "needs root: snmpd's AgentX socket and the gateway's state directory";
    ASSERT_TRUE(sim::writeOneHostTree(tmp_.file("sim")).isOk());
    sysfs_.device("0000:3b:00.0");
    sysfs_.entry("0000:3b:00.0", "infiniband", "mlx5_0");
    sysfs_.entry("0000:3b:00.0", "net", "ens1f0np0");
    sysfs_.vf("0000:3b:00.0", 1, "0000:3b:00.3");
    sysfs_.entry("0000:3b:00.3", "infiniband", "mlx5_3");
    sysfs_.entry("0000:3b:00.3", "net", "ens1f0v1");
    proc_.process(1, "host", "0::/init.scope\n");
    proc_.process(200, "host", podCgroup(kHostPod));  // a hostNetwork pod's process
    for (const auto& [name, uid] : {std::pair{"host-0", kHostPod}, {"shared-0", kSharedPod}}) {
      ASSERT_TRUE(std::filesystem::create_directories(tmp_.file(std::string("pods/ml_") + name + "_" + uid)));
    }
    kubelet_.setPods(
        {pod("host-0", "nvidia.com/sriov_rdma_vf", "0000:3b:00.3"), pod("shared-0", "rdma/hca_shared_devices_a", "3")});
    ASSERT_EQ(kubelet_.start(), "");

    sim::SnmpdOptions snmp;
    snmp.contexts = {"node01"};
    snmpd_ = std::make_unique<sim::SnmpdLauncher>(snmp);
    const Status st = snmpd_->start();
    if (!st.isOk()) GTEST_SKIP() << "no snmpd here: " << st.message();

    metrics_ = "http://127.0.0.1:" + std::to_string(freeLoopbackPort()) + "/metrics";
    gnmi_ = "127.0.0.1:" + std::to_string(freeLoopbackPort());
    const std::string host = tmp_.file("sim/host01");
    const std::string yaml =
        "admin_socket: off\n"
        "northbound:\n  prometheus: {listen: \"" +
        metrics_.substr(7, metrics_.find("/metrics") - 7) + "\"}\n" + "  gnmi: {listen: \"" + gnmi_ +
        "\", insecure: true}\n" + "  snmp: {agentx_socket: " + snmpd_->agentxSocket() +
        ", state_dir: " + tmp_.file("state") + ", refresh_period: 500ms}\n" +
        "targets:\n- name: node01\n  kind: rdma-host\n  interval: 500ms\n" + "  rdma: {sysfs_root: " + host +
        "/sys, ethtool: text, ethtool_dir: " + host + "/ethtool, lldp: off}\n" +
        "  kubernetes:\n    kubelet_socket: " + socket_ + "\n    kubelet_timeout: 2s\n    netns_dirs: [" +
        proc_.file("run/netns") + "]\n    pod_logs_dir: " + tmp_.file("pods") +
        "\n    proc_root: " + proc_.file("proc") + "\n    sysfs_root: " + sysfs_.sysRoot() + "\n";
    ASSERT_TRUE(writeFile(tmp_.file("gateway.yaml"), yaml));
    pid_ = spawnLogged({RDMAGW_BIN, "run", "--config", tmp_.file("gateway.yaml"), "--log-level", "warn"},
                       tmp_.file("gateway.log"));
    ASSERT_GT(pid_, 0);
  }
  void TearDown() override {
    if (pid_ > 0) stopChild(pid_, SIGTERM);
  }

  // Waits until /metrics satisfies `ok`; the last body in *body.
  bool scrapeUntil(const std::function<bool(const std::string&)>& ok, std::string* body) {
    return waitUntil([&] {
      *body = httpGet(metrics_);
      return ok(*body);
    });
  }
  std::string log() const {
    return "gateway.yaml:\n" + readFile(tmp_.file("gateway.yaml")) + "gateway log:\n" +
           readFile(tmp_.file("gateway.log"));
  }

  TempDir tmp_{"rdmagw-k8s-e2e"};
  SysfsTree sysfs_;
  ProcTree proc_;
  std::string socket_ = tmp_.file("kubelet.sock");
  sim::FakeKubelet kubelet_{socket_};
  std::unique_ptr<sim::SnmpdLauncher> snmpd_;
  std::string metrics_, gnmi_;
  int pid_ = -1;
};

TEST_F(PodAttributionE2eTest, EveryNorthboundNamesThePodsAndADeletedPodLeaves) {
  std::string body;
  ASSERT_TRUE(scrapeUntil(
      [](const std::string& b) { return metricsFamily(b, "rdmagw_rdma_device_pod_info").size() == 2; }, &body))
      << body.substr(0, 3000) << log();
  const std::string host_row =
      std::string("rdmagw_rdma_device_pod_info{target=\"node01\",device=\"mlx5_3\",uid=\"") + kHostPod +
      "\",container=\"main\",namespace=\"ml\",pod=\"host-0\",resource=\"nvidia.com/sriov_rdma_vf\","
      "device_id=\"0000:3b:00.3\",pci=\"0000:3b:00.3\",pf=\"0000:3b:00.0\",vf=\"1\",netdev=\"ens1f0v1\","
      "mode=\"host-network\",uplink=\"ens1f0np0\",pf_device=\"mlx5_0\"} 1";
  const std::vector<std::string> rows = metricsFamily(body, "rdmagw_rdma_device_pod_info");
  EXPECT_NE(std::find(rows.begin(), rows.end(), host_row), rows.end()) << body;
  EXPECT_NE(body.find(std::string("device=\"3\",uid=\"") + kSharedPod), std::string::npos) << body;
  EXPECT_NE(body.find("rdmagw_k8s_podresources_up{target=\"node01\"} 1"), std::string::npos) << body;
  EXPECT_NE(body.find("rdmagw_k8s_devices_attributed{target=\"node01\"} 2"), std::string::npos) << body;

  // gNMI: the entry's leaves under the device.
  std::string error;
  ASSERT_TRUE(preparePythonClient(&error)) << error;
  const std::vector<std::string> got = runPython(
      gnmi_, std::string(R"({"rpc": "get", "target": "node01", "paths": ["/rdma/devices/device[name=mlx5_3]/pods"]})"));
  std::string joined;
  for (const std::string& line : got) joined += line + "\n";
  EXPECT_NE(joined.find(std::string("pod[uid=") + kHostPod + "]/state/mode"), std::string::npos) << joined;
  EXPECT_NE(joined.find("host-network"), std::string::npos) << joined;
  EXPECT_NE(joined.find("STATUS OK"), std::string::npos) << joined;

  // SNMP: the row by device and UID; column 11 is the mode.
  const std::string row = snmpStringIndex("mlx5_3") + "." + snmpStringIndex(kHostPod);
  std::string walked;
  EXPECT_TRUE(waitUntil([&] {
    walked = runCommand(snmpd_->clientEnv() + " snmpget -On -Oq -t 2 " + snmpd_->v2cArgs("node01") + " " + kPodTable +
                        "11." + row)
                 .output;
    return walked.find("host-network") != std::string::npos;
  })) << walked;

  // The shared pod is deleted: its series goes, the other stays.
  kubelet_.setPods({pod("host-0", "nvidia.com/sriov_rdma_vf", "0000:3b:00.3")});
  EXPECT_TRUE(scrapeUntil(
      [](const std::string& b) { return metricsFamily(b, "rdmagw_rdma_device_pod_info").size() == 1; }, &body))
      << body.substr(0, 3000);
  EXPECT_EQ(body.find(kSharedPod), std::string::npos) << body;

  // The kubelet goes away: collection goes on, the last entries stay.
  kubelet_.stop();
  EXPECT_TRUE(scrapeUntil(
      [](const std::string& b) {
        return b.find("rdmagw_k8s_podresources_up{target=\"node01\"} 0") != std::string::npos;
      },
      &body))
      << body.substr(0, 3000);
  EXPECT_NE(body.find("rdmagw_target_up{target=\"node01\""), std::string::npos);
  EXPECT_EQ(metricsFamily(body, "rdmagw_rdma_device_pod_info").size(), 1u) << body;
  EXPECT_NE(body.find("rdmagw_k8s_attribution_errors_total{target=\"node01\",stage=\"podresources\"}"),
            std::string::npos)
      << body;
}

// The node's polls_total, from a /metrics body; -1 when absent.
long long pollsOf(const std::string& body) {
  const std::string key = "rdmagw_target_polls_total{target=\"node01\"";
  const size_t at = body.find(key);
  if (at == std::string::npos) return -1;
  return std::atoll(body.c_str() + body.find("} ", at) + 2);
}

// A kubelet without Get, one that stalls past the client's deadline, and
// one that restarts (its socket deleted and created again): the host's
// collection goes on through each, and attribution comes back with it.
TEST_F(PodAttributionE2eTest, KubeletWithoutGetThatStallsAndRestartsDoesNotStopCollection) {
  kubelet_.setGetMode(sim::FakeGetMode::kUnimplemented);
  std::string body;
  ASSERT_TRUE(scrapeUntil(
      [](const std::string& b) { return metricsFamily(b, "rdmagw_rdma_device_pod_info").size() == 2; }, &body))
      << body.substr(0, 3000) << log();

  kubelet_.setStall(std::chrono::seconds(30));  // past the 2 s kubelet_timeout
  ASSERT_TRUE(scrapeUntil(
      [](const std::string& b) {
        return b.find("rdmagw_k8s_podresources_up{target=\"node01\"} 0") != std::string::npos;
      },
      &body))
      << body.substr(0, 3000);
  const long long polls_stalled = pollsOf(body);
  EXPECT_TRUE(scrapeUntil([&](const std::string& b) { return pollsOf(b) >= polls_stalled + 2; }, &body))
      << "polls stopped while the kubelet stalled: " << body.substr(0, 3000);
  EXPECT_NE(body.find("rdmagw_target_up{target=\"node01\"} 1"), std::string::npos) << body.substr(0, 3000);
  kubelet_.setStall(std::chrono::milliseconds(0));
  EXPECT_TRUE(scrapeUntil(
      [](const std::string& b) {
        return b.find("rdmagw_k8s_podresources_up{target=\"node01\"} 1") != std::string::npos;
      },
      &body))
      << body.substr(0, 3000);

  // The kubelet restarts with one pod fewer.
  kubelet_.stop();
  ASSERT_TRUE(scrapeUntil(
      [](const std::string& b) {
        return b.find("rdmagw_k8s_podresources_up{target=\"node01\"} 0") != std::string::npos;
      },
      &body))
      << body.substr(0, 3000);
  kubelet_.setPods({pod("host-0", "nvidia.com/sriov_rdma_vf", "0000:3b:00.3")});
  ASSERT_EQ(kubelet_.start(), "");
  EXPECT_TRUE(scrapeUntil(
      [](const std::string& b) {
        return b.find("rdmagw_k8s_podresources_up{target=\"node01\"} 1") != std::string::npos &&
               metricsFamily(b, "rdmagw_rdma_device_pod_info").size() == 1;
      },
      &body))
      << body.substr(0, 3000) << log();
  EXPECT_EQ(body.find(kSharedPod), std::string::npos) << body.substr(0, 3000);
}

}  // namespace
}  // namespace rdmagw::testing
