// A host's GPUs through the real `rdmagw run` and every northbound: the
// simulator's 4-GPU/4-NIC box as sysfs, the fake libnvidia-ml.so.1 loaded by
// the gateway at run time (dlopen, by path). Then:
//   - /metrics has rdmagw_gpu_info with dcgm-exporter's label spellings,
//     each GPU's metrics keyed by UUID, and the GPU x NIC paths;
//   - a real Prometheus scraping the gateway and a dcgm-exporter-shaped
//     endpoint joins them `on(UUID)`;
//   - gNMI Get (python3-grpcio) returns /gpus, snmpget (real snmpd, our
//     AgentX subagent) a column of rdmagwGpuTable;
//   - a library whose NVML init fails leaves the gateway up and says why;
//   - over a real sshd (the simulated host's shell behind it): the host's
//     PCI tree in one round trip and its nvidia-smi, on the SSH session
//     that reads its RDMA devices.

#include <gtest/gtest.h>
#include <stdlib.h>
#include <unistd.h>

#include <csignal>
#include <filesystem>
#include <memory>
#include <sstream>
#include <string>
#include <vector>

#include "sim/device_shell.h"
#include "sim/fabric.h"
#include "sim/gpu/pci_host.h"
#include "sim/gpu/sim_gpu_host.h"
#include "sim/linux_host_shell.h"
#include "sim/snmpd_launcher.h"
#include "sim/sshd_launcher.h"
#include "sim/tree_writer.h"
#include "tests/gateway/prometheus_process.h"
#include "tests/northbound/gnmi/python_client.h"
#include "tests/support/test_support.h"

namespace rdmagw::testing {
namespace {

constexpr char kUuid0[] = "GPU-11111111-2222-3333-4444-555555555555";
constexpr char kGpuTable[] = ".1.3.6.1.4.1.32473.1.1.16.1.";

constexpr char kNvml[] =
    "count=2\n"
    "gpu.0.index=0\n"
    "gpu.0.uuid=GPU-11111111-2222-3333-4444-555555555555\n"
    "gpu.0.name=NVIDIA H100 80GB HBM3\n"
    "gpu.0.bus_id=00000000:01:00.0\n"
    "gpu.0.temperature=59\n"
    "gpu.0.util_gpu=80\n"
    "gpu.0.util_memory=40\n"
    "gpu.0.memory_total=85520809984\n"
    "gpu.0.memory_used=20780679168\n"
    "gpu.0.power=631950\n"
    "gpu.1.index=1\n"
    "gpu.1.uuid=GPU-66666666-7777-8888-9999-000000000000\n"
    "gpu.1.name=NVIDIA H100 80GB HBM3\n"
    "gpu.1.bus_id=00000000:21:00.0\n"
    "gpu.1.temperature=33\n";

class GpuE2eTest : public ::testing::Test {
 protected:
  void SetUp() override {
    if (::geteuid() != 0) GTEST_SKIP() << "needs root: snmpd's AgentX socket and the gateway's state directory";
    ASSERT_TRUE(sim::writeOneHostTree(tmp_.file("sim")).isOk());
    ASSERT_TRUE(sim::writePciHost(sim::nodeBox4(), tmp_.file("gpuhost")).isOk());
    ASSERT_TRUE(writeFile(tmp_.file("nvml.conf"), kNvml));
    sim::SnmpdOptions snmp;
    snmp.contexts = {"gpu01"};
    snmpd_ = std::make_unique<sim::SnmpdLauncher>(snmp);
    const Status st = snmpd_->start();
    if (!st.isOk()) GTEST_SKIP() << "no snmpd here: " << st.message();
    metrics_port_ = freeLoopbackPort();
    gnmi_ = "127.0.0.1:" + std::to_string(freeLoopbackPort());
  }
  void TearDown() override {
    if (pid_ > 0) stopChild(pid_, SIGTERM);
    ::unsetenv("FAKE_NVML_CONFIG");
  }
  // The gateway with the fake NVML answering from `nvml_conf`.
  void startGateway(const std::string& nvml_conf) {
    const std::string host = tmp_.file("sim/host01");
    const std::string yaml =
        "admin_socket: off\n"
        "northbound:\n  prometheus: {listen: \"127.0.0.1:" +
        std::to_string(metrics_port_) + "\"}\n  gnmi: {listen: \"" + gnmi_ + "\", insecure: true}\n" +
        "  snmp: {agentx_socket: " + snmpd_->agentxSocket() + ", state_dir: " + tmp_.file("state") +
        ", refresh_period: 500ms}\n" + "targets:\n- name: gpu01\n  kind: rdma-host\n  interval: 500ms\n" +
        "  rdma: {sysfs_root: " + host + "/sys, ethtool: text, ethtool_dir: " + host + "/ethtool, lldp: off}\n" +
        "  gpu:\n    nvml_library: " + FAKE_NVML_LIBRARY + "\n    sysfs_root: " + tmp_.file("gpuhost/sys") +
        "\n    proc_root: " + tmp_.file("gpuhost/proc") + "\n";
    ASSERT_TRUE(writeFile(tmp_.file("gateway.yaml"), yaml));
    // The gateway inherits the environment: the fake library reads it.
    ::setenv("FAKE_NVML_CONFIG", nvml_conf.c_str(), 1);
    pid_ = spawnLogged({RDMAGW_BIN, "run", "--config", tmp_.file("gateway.yaml"), "--log-level", "warn"},
                       tmp_.file("gateway.log"));
    ASSERT_GT(pid_, 0);
  }
  bool scrapeUntil(const std::function<bool(const std::string&)>& ok, std::string* body) {
    return waitUntil([&] {
      *body = httpGet("http://127.0.0.1:" + std::to_string(metrics_port_) + "/metrics");
      return ok(*body);
    });
  }
  std::string log() const { return "gateway log:\n" + readFile(tmp_.file("gateway.log")); }

  TempDir tmp_{"rdmagw-gpu-e2e"};
  std::unique_ptr<sim::SnmpdLauncher> snmpd_;
  int metrics_port_ = 0;
  std::string gnmi_;
  int pid_ = -1;
};

TEST_F(GpuE2eTest, EveryNorthboundServesTheGpusAndPrometheusJoinsDcgmOnUuid) {
  startGateway(tmp_.file("nvml.conf"));
  std::string body;
  ASSERT_TRUE(scrapeUntil([](const std::string& b) { return metricsFamily(b, "rdmagw_gpu_info").size() == 4; }, &body))
      << body.substr(0, 3000) << log();
  const std::vector<std::string> info = metricsFamily(body, "rdmagw_gpu_info");
  const std::string gpu0 = std::string("rdmagw_gpu_info{target=\"gpu01\",UUID=\"") + kUuid0 +
                           "\",gpu=\"0\",modelName=\"NVIDIA H100 80GB HBM3\",pci_bus_id=\"00000000:01:00.0\","
                           "source=\"nvml\",nearest_nic=\"mlx5_0 mlx5_1\",nearest_path=\"NODE\"} 1";
  EXPECT_NE(std::find(info.begin(), info.end(), gpu0), info.end()) << body;
  EXPECT_NE(body.find(std::string("rdmagw_gpu_temperature_celsius{target=\"gpu01\",UUID=\"") + kUuid0 + "\"} 59"),
            std::string::npos)
      << body;
  EXPECT_NE(body.find(std::string("rdmagw_gpu_utilization_ratio{target=\"gpu01\",UUID=\"") + kUuid0 + "\"} 0.8"),
            std::string::npos)
      << body;
  EXPECT_NE(body.find(std::string("rdmagw_gpu_power_draw_watts{target=\"gpu01\",UUID=\"") + kUuid0 + "\"} 631.95"),
            std::string::npos)
      << body;
  EXPECT_NE(body.find(std::string("rdmagw_gpu_nic_info{target=\"gpu01\",UUID=\"") + kUuid0 +
                      "\",nic=\"mlx5_2\",path=\"SYS\",rank=\"farther\",nic_numa_node=\"1\",gpu_numa_node=\"0\",acs_"
                      "redirect=\"off\"} 1"),
            std::string::npos)
      << body;
  EXPECT_NE(body.find("rdmagw_gpu_metrics_up{target=\"gpu01\"} 1"), std::string::npos) << body;
  // The host's RDMA collection goes on beside it.
  EXPECT_NE(body.find("rdmagw_rdma_port_rcv_bytes_total{target=\"gpu01\""), std::string::npos) << body;

  // A real Prometheus: the gateway and a dcgm-exporter-shaped endpoint
  // (its names and label spellings), joined on UUID.
  if (PrometheusProcess::installed()) {
    ASSERT_TRUE(std::filesystem::create_directories(tmp_.file("dcgm")));
    ASSERT_TRUE(writeFile(tmp_.file("dcgm/metrics"),
                          std::string("# TYPE DCGM_FI_DEV_GPU_UTIL gauge\nDCGM_FI_DEV_GPU_UTIL{gpu=\"0\",UUID=\"") +
                              kUuid0 +
                              "\",pci_bus_id=\"00000000:01:00.0\",device=\"nvidia0\",modelName=\"NVIDIA H100 80GB "
                              "HBM3\",Hostname=\"gpu01\"} 80\n"));
    const int dcgm_port = freeLoopbackPort();
    const int server = spawnLogged({"/usr/bin/python3", "-m", "http.server", std::to_string(dcgm_port), "--bind",
                                    "127.0.0.1", "--directory", tmp_.file("dcgm")},
                                   tmp_.file("http.log"));
    ASSERT_GT(server, 0);
    PrometheusProcess prometheus("  - job_name: rdmagw\n    static_configs:\n      - targets: ['127.0.0.1:" +
                                 std::to_string(metrics_port_) + "']\n  - job_name: dcgm\n    static_configs:\n" +
                                 "      - targets: ['127.0.0.1:" + std::to_string(dcgm_port) + "']\n");
    ASSERT_TRUE(prometheus.started());
    EXPECT_TRUE(
        prometheus.waitFor("rdmagw_gpu_utilization_ratio * on(UUID) group_left(modelName) DCGM_FI_DEV_GPU_UTIL", "64"))
        << prometheus.lastResponse() << prometheus.log();
    stopChild(server, SIGTERM);
  }

  // gNMI: the GPU's leaves and its paths.
  std::string error;
  ASSERT_TRUE(preparePythonClient(&error)) << error;
  const std::vector<std::string> got = runPython(
      gnmi_, R"({"rpc": "get", "target": "gpu01", "paths": ["/gpus/gpu[uuid=)" + std::string(kUuid0) + R"(]"]})");
  std::string joined;
  for (const std::string& line : got) joined += line + "\n";
  EXPECT_NE(joined.find("state/temperature"), std::string::npos) << joined;
  EXPECT_NE(joined.find("nics/nic[name=mlx5_0]/state/path"), std::string::npos) << joined;
  EXPECT_NE(joined.find("STATUS OK"), std::string::npos) << joined;

  // SNMP: rdmagwGpuTable column 9 (temperature) of the GPU's row.
  std::string walked;
  EXPECT_TRUE(waitUntil([&] {
    walked = runCommand(snmpd_->clientEnv() + " snmpget -On -Oq -t 2 " + snmpd_->v2cArgs("gpu01") + " " + kGpuTable +
                        "9." + snmpStringIndex(kUuid0))
                 .output;
    return walked.find(" 59") != std::string::npos;
  })) << walked;
}

TEST_F(GpuE2eTest, AnNvmlThatCannotInitialiseLeavesTheGatewayUpAndSaysWhy) {
  ASSERT_TRUE(writeFile(tmp_.file("broken.conf"), "init_error=9\n"));
  startGateway(tmp_.file("broken.conf"));
  std::string body;
  ASSERT_TRUE(scrapeUntil(
      [](const std::string& b) {
        return b.find("rdmagw_gpu_errors_total{target=\"gpu01\",stage=\"nvml\"} ") != std::string::npos &&
               b.find("rdmagw_gpu_errors_total{target=\"gpu01\",stage=\"nvml\"} 0") == std::string::npos;
      },
      &body))
      << body.substr(0, 3000) << log();
  EXPECT_NE(body.find("rdmagw_gpu_metrics_up{target=\"gpu01\"} 0"), std::string::npos) << body;
  // The GPUs are still listed, from the PCI tree.
  EXPECT_EQ(metricsFamily(body, "rdmagw_gpu_info").size(), 4u) << body;
  EXPECT_NE(body.find("rdmagw_target_up{target=\"gpu01\""), std::string::npos) << body;
  EXPECT_TRUE(waitUntil([&] {
    return readFile(tmp_.file("gateway.log")).find("Driver Not Loaded") != std::string::npos;
  })) << log();
}

// The host's GPUs over SSH: its tree dumped in one round trip and its
// nvidia-smi (the simulator's stand-in, by path) run on the same session
// as the RDMA dump, through a real sshd and the simulated host's shell.
TEST_F(GpuE2eTest, OverARealSshdTheTreeAndNvidiaSmiComeFromTheHost) {
  sim::FabricConfig shape;
  shape.hosts = 1;
  shape.devices_per_host = 2;
  shape.switches = 0;
  shape.esxi_hosts = 0;
  const sim::Host host = sim::Fabric(shape).hosts().front();
  const std::string host_dir = tmp_.file("sim/host01");
  const sim::SimGpuHost gpus(host_dir, host);
  ASSERT_TRUE(gpus.write().isOk());
  sim::SshdLauncher sshd;
  if (Status st = sshd.start(); !st.isOk()) GTEST_SKIP() << "no sshd here: " << st.message();
  const std::string shell = sim::defaultShellPath();
  ASSERT_TRUE(sim::installLinuxHostShims(host_dir, shell).isOk());
  Result<sim::ClientKey> key = sshd.addDevice("host01", shell + " --dir " + tmp_.file("sim") + " --device host01");
  ASSERT_TRUE(key.isOk()) << key.status().message();
  ASSERT_TRUE(writeFile(tmp_.file("known_hosts"), sshd.knownHostsLine() + "\n"));
  const std::string yaml =
      "admin_socket: off\nnorthbound:\n  prometheus: {listen: \"127.0.0.1:" + std::to_string(metrics_port_) +
      "\"}\ntargets:\n- name: gpu01\n  kind: rdma-host\n  interval: 500ms\n  transport: ssh\n"
      "  address: 127.0.0.1\n  credentials: {username: root, key_file: " +
      key->private_key_file + "}\n  ssh: {port: " + std::to_string(sshd.port()) +
      ", known_hosts: " + tmp_.file("known_hosts") + "}\n  rdma: {sysfs_root: " + host_dir +
      "/sys, lldp: off}\n  gpu:\n    sysfs_root: " + gpus.sysRoot() + "\n    proc_root: " + gpus.procRoot() +
      "\n    nvidia_smi: " + gpus.nvidiaSmi() + "\n";
  ASSERT_TRUE(writeFile(tmp_.file("gateway.yaml"), yaml));
  pid_ = spawnLogged({RDMAGW_BIN, "run", "--config", tmp_.file("gateway.yaml"), "--log-level", "warn"},
                     tmp_.file("gateway.log"));
  ASSERT_GT(pid_, 0);
  std::string body;
  ASSERT_TRUE(scrapeUntil([](const std::string& b) { return metricsFamily(b, "rdmagw_gpu_info").size() == 2; }, &body))
      << body.substr(0, 3000) << log();
  const std::string gpu0 = std::string("rdmagw_gpu_info{target=\"gpu01\",UUID=\"") + gpus.uuid(0) +
                           "\",gpu=\"0\",modelName=\"NVIDIA H100 80GB HBM3\",pci_bus_id=\"00000000:03:00.0\","
                           "source=\"nvidia-smi\",nearest_nic=\"mlx5_0\",nearest_path=\"PIX\"} 1";
  const std::vector<std::string> info = metricsFamily(body, "rdmagw_gpu_info");
  EXPECT_NE(std::find(info.begin(), info.end(), gpu0), info.end()) << body;
  EXPECT_NE(body.find(std::string("rdmagw_gpu_temperature_celsius{target=\"gpu01\",UUID=\"") + gpus.uuid(1) + "\"} 58"),
            std::string::npos)
      << body;
  // The bridges' ACS is not read over SSH: unknown, never off.
  EXPECT_NE(body.find("nic=\"mlx5_0\",path=\"PIX\",rank=\"nearest\",nic_numa_node=\"0\",gpu_numa_node=\"0\","
                      "acs_redirect=\"unknown\"} 1"),
            std::string::npos)
      << body;
  EXPECT_NE(body.find("rdmagw_rdma_port_rcv_bytes_total{target=\"gpu01\",device=\"mlx5_0\""), std::string::npos)
      << body;
  // One session carries both readers.
  EXPECT_EQ(sshd.connectionCount("host01"), 1u);
}

}  // namespace
}  // namespace rdmagw::testing
