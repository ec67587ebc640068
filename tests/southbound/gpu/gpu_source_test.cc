// GpuSource as the gateway runs it on a host: the simulator's 4-GPU/4-NIC
// box written as sysfs (each GPU's nearest NICs are the two of its NUMA
// node: NODE, a tie), metrics from the fake libnvidia-ml.so.1 loaded by path
// or the fake nvidia-smi run through the gateway's process runner, and the
// batch applied to a real Store. Each metrics mode, a GPU NVML does not
// report, a host without the driver, and the retry pause.

#include "southbound/gpu/gpu_source.h"

#include <gtest/gtest.h>
#include <stdlib.h>

#include <optional>
#include <string>

#include "models/store.h"
#include "sim/gpu/pci_host.h"
#include "southbound/rdma/local_tool.h"
#include "tests/support/test_support.h"

namespace rdmagw::southbound::gpu {
namespace {

const std::string kFakeNvidiaSmi = std::string(RDMAGW_SOURCE_DIR) + "/tests/southbound/gpu/fake_nvidia_smi.sh";
constexpr char kUuid0[] = "GPU-11111111-2222-3333-4444-555555555555";
constexpr char kUuid1[] = "GPU-66666666-7777-8888-9999-000000000000";

// NVML reports the box's first two GPUs (node 0: 0000:01:00.0, 0000:21:00.0);
// the two of node 1 it does not (fallen off the bus, as far as it knows).
constexpr char kNvml[] =
    "count=2\n"
    "gpu.0.index=0\n"
    "gpu.0.uuid=GPU-11111111-2222-3333-4444-555555555555\n"
    "gpu.0.name=NVIDIA H100 80GB HBM3\n"
    "gpu.0.bus_id=00000000:01:00.0\n"
    "gpu.0.temperature=59\n"
    "gpu.0.util_gpu=97\n"
    "gpu.0.util_memory=40\n"
    "gpu.0.memory_total=85520809984\n"
    "gpu.0.memory_used=20780679168\n"
    "gpu.0.power=631950\n"
    "gpu.0.pcie_tx_kib=1200\n"
    "gpu.0.ecc.uncorrected.aggregate=2\n"
    "gpu.0.link_gen=5\n"
    "gpu.0.link_gen_max=5\n"
    "gpu.1.index=1\n"
    "gpu.1.uuid=GPU-66666666-7777-8888-9999-000000000000\n"
    "gpu.1.name=NVIDIA H100 80GB HBM3\n"
    "gpu.1.bus_id=00000000:21:00.0\n"
    "gpu.1.temperature=33\n";

constexpr char kSmiCsv[] =
    "0, GPU-11111111-2222-3333-4444-555555555555, 00000000:01:00.0, 61, 88, 11, 19818, 81559, 631.95, 700.00, 0, 0, "
    "3, 1, [N/A], [N/A], [N/A], 0, 0, No, No, 5, 5, 16, 16, Disabled, NVIDIA H100 80GB HBM3\n";

class GpuSourceTest : public ::testing::Test {
 protected:
  void SetUp() override {
    ASSERT_TRUE(sim::writePciHost(sim::nodeBox4(), tmp_.path()).isOk());
    ASSERT_TRUE(testing::writeFile(tmp_.file("nvml.conf"), kNvml));
    ASSERT_TRUE(testing::writeFile(tmp_.file("smi.csv"), kSmiCsv));
    ::setenv("FAKE_NVML_CONFIG", tmp_.file("nvml.conf").c_str(), 1);
    ::setenv("FAKE_NVIDIA_SMI_OUTPUT", tmp_.file("smi.csv").c_str(), 1);
    config_.enabled = true;
    config_.nvml_library = FAKE_NVML_LIBRARY;
    config_.nvidia_smi = kFakeNvidiaSmi;
    config_.proc_root = tmp_.file("proc");
  }
  void TearDown() override {
    ::unsetenv("FAKE_NVML_CONFIG");
    ::unsetenv("FAKE_NVIDIA_SMI_OUTPUT");
  }
  void start() {
    source_ = std::make_unique<GpuSource>(nullptr, config_, tmp_.file("sys"), [this](const std::string& command) {
      ++runs_;
      return rdma::runLocalTool({"/bin/sh", "-c", command}, "nvidia-smi");
    });
  }
  PollBatch poll() {
    PollBatch batch;
    EXPECT_TRUE(source_->poll(batch).isOk());
    const Store::ApplyResult applied = store_.apply("gpu01", batch);
    EXPECT_EQ(applied.rejected, 0u) << applied.first_error;
    return batch;
  }
  std::optional<Value> leaf(const std::string& path) const {
    std::optional<SeriesSnapshot> s = store_.get("gpu01", path);
    return s ? std::optional(s->value) : std::nullopt;
  }
  std::string text(const std::string& path) const {
    std::optional<Value> v = leaf(path);
    const std::string* s = v ? std::get_if<std::string>(&*v) : nullptr;
    return s != nullptr ? *s : "<none>";
  }
  uint64_t number(const std::string& path) const {
    std::optional<Value> v = leaf(path);
    const uint64_t* n = v ? std::get_if<uint64_t>(&*v) : nullptr;
    return n != nullptr ? *n : UINT64_MAX;
  }
  static std::string gpu(const std::string& uuid, const std::string& leaf) {
    return "/gpus/gpu[uuid=" + uuid + "]/state/" + leaf;
  }
  static std::string nic(const std::string& uuid, const std::string& name, const std::string& leaf) {
    return "/gpus/gpu[uuid=" + uuid + "]/nics/nic[name=" + name + "]/state/" + leaf;
  }

  testing::TempDir tmp_{"rdmagw-gpu-source"};
  GpuConfig config_;
  std::unique_ptr<GpuSource> source_;
  Store store_;
  int runs_ = 0;
};

TEST_F(GpuSourceTest, NvmlSamplesJoinTheTreeAndTheTreesOtherGpusAreListed) {
  start();
  const PollBatch batch = poll();
  EXPECT_TRUE(batch.errors.empty()) << batch.errors.front();
  EXPECT_EQ(number("/gpus/state/metrics-up"), 1u);
  EXPECT_EQ(number("/gpus/state/gpus"), 4u);
  EXPECT_EQ(number("/gpus/state/topology-virtual"), 0u);
  EXPECT_EQ(text(gpu(kUuid0, "source")), "nvml");
  EXPECT_EQ(text(gpu(kUuid0, "pci-bus-id")), "00000000:01:00.0");
  EXPECT_EQ(text(gpu(kUuid0, "model-name")), "NVIDIA H100 80GB HBM3");
  EXPECT_EQ(number(gpu(kUuid0, "index")), 0u);
  EXPECT_EQ(std::get<int64_t>(*leaf(gpu(kUuid0, "temperature"))), 59);
  EXPECT_EQ(number(gpu(kUuid0, "utilization")), 97u);
  EXPECT_EQ(number(gpu(kUuid0, "memory-used")), 20780679168u);
  EXPECT_EQ(number(gpu(kUuid0, "power-draw")), 631950u);
  EXPECT_DOUBLE_EQ(std::get<double>(*leaf(gpu(kUuid0, "pcie-tx-throughput"))), 1200.0 * 1024);
  EXPECT_EQ(number(gpu(kUuid0, "ecc-uncorrected-errors")), 2u);
  EXPECT_EQ(number(gpu(kUuid0, "pcie-link-gen-max")), 5u);
  // Not supported by this GPU: absent, not zero.
  EXPECT_FALSE(leaf(gpu(kUuid1, "utilization")).has_value());
  // Node 0's GPUs: its two NICs at NODE, a tie; node 1's at SYS.
  EXPECT_EQ(text(gpu(kUuid0, "nearest-nics")), "mlx5_0 mlx5_1");
  EXPECT_EQ(text(gpu(kUuid0, "nearest-path")), "NODE");
  EXPECT_EQ(number(gpu(kUuid0, "gpudirect-rdma")), 0u);
  EXPECT_EQ(text(nic(kUuid0, "mlx5_1", "path")), "NODE");
  EXPECT_EQ(text(nic(kUuid0, "mlx5_1", "rank")), "nearest-tied");
  EXPECT_EQ(text(nic(kUuid0, "mlx5_2", "path")), "SYS");
  EXPECT_EQ(text(nic(kUuid0, "mlx5_2", "rank")), "farther");
  EXPECT_EQ(number(nic(kUuid0, "mlx5_2", "distance")), 5u);
  EXPECT_EQ(text(nic(kUuid0, "mlx5_2", "nic-numa-node")), "1");
  EXPECT_EQ(text(nic(kUuid0, "mlx5_2", "gpu-numa-node")), "0");
  // The tree's GPUs NVML did not report: listed by bus id, no metrics.
  const std::string lost = "PCI-00000000:81:00.0";
  EXPECT_EQ(text(gpu(lost, "source")), "pci");
  EXPECT_EQ(text(gpu(lost, "nearest-nics")), "mlx5_2 mlx5_3");
  EXPECT_FALSE(leaf(gpu(lost, "temperature")).has_value());
  EXPECT_EQ(runs_, 0) << "NVML answered: nvidia-smi is not run";
}

TEST_F(GpuSourceTest, NvidiaSmiWhenNvmlCannotBeLoaded) {
  config_.nvml_library = tmp_.file("no-such/libnvidia-ml.so.1");
  start();
  const PollBatch batch = poll();
  EXPECT_TRUE(batch.errors.empty()) << batch.errors.front();  // auto mode: a missing library is no error
  EXPECT_EQ(number("/gpus/state/metrics-up"), 1u);
  EXPECT_EQ(text(gpu(kUuid0, "source")), "nvidia-smi");
  EXPECT_EQ(number(gpu(kUuid0, "utilization")), 88u);
  EXPECT_EQ(text(gpu(kUuid0, "nearest-path")), "NODE");
  EXPECT_EQ(runs_, 1);
  EXPECT_NE(source_->metricsState().find("nvidia-smi: ready"), std::string::npos) << source_->metricsState();
}

TEST_F(GpuSourceTest, WithoutDriverTheTreeAloneAndNoRetryBeforeItsTime) {
  config_.nvml_library = tmp_.file("no-such/libnvidia-ml.so.1");
  config_.nvidia_smi = tmp_.file("no-such/nvidia-smi");
  start();
  for (int i = 0; i < 3; ++i) {
    const PollBatch batch = poll();
    EXPECT_TRUE(batch.errors.empty()) << batch.errors.front();
  }
  EXPECT_EQ(number("/gpus/state/metrics-up"), 0u);
  EXPECT_EQ(number("/gpus/state/gpus"), 4u);
  EXPECT_EQ(text(gpu("PCI-00000000:01:00.0", "source")), "pci");
  EXPECT_EQ(text(gpu("PCI-00000000:01:00.0", "nearest-path")), "NODE");
  EXPECT_EQ(runs_, 1) << "a failed nvidia-smi waits retry_after (60 s) before it runs again";
  EXPECT_EQ(number("/gpus/errors/stage[name=nvidia-smi]/state/count"), 0u);
}

TEST_F(GpuSourceTest, AnExplicitSourceThatFailsIsCountedAndSaysWhy) {
  config_.metrics = GpuMetricsMode::kNvml;
  config_.nvml_library = tmp_.file("no-such/libnvidia-ml.so.1");
  start();
  const PollBatch batch = poll();
  ASSERT_EQ(batch.errors.size(), 1u);
  EXPECT_NE(batch.errors[0].find("gpu nvml: library missing"), std::string::npos) << batch.errors[0];
  EXPECT_EQ(number("/gpus/errors/stage[name=nvml]/state/count"), 1u);
  EXPECT_EQ(number("/gpus/state/metrics-up"), 0u);
  EXPECT_EQ(runs_, 0) << "metrics: nvml never falls back";
}

TEST_F(GpuSourceTest, MetricsNoneAndAGpuThatGoesLeavesTheStore) {
  start();
  poll();
  ASSERT_TRUE(leaf(gpu(kUuid1, "source")).has_value());
  // NVML now counts one GPU: the other's entry goes with the next poll, and
  // the tree's GPU at its address comes back keyed by its bus id.
  ASSERT_TRUE(testing::writeFile(tmp_.file("nvml.conf"), std::string(kNvml).replace(0, 7, "count=1")));
  poll();
  EXPECT_FALSE(leaf(gpu(kUuid1, "source")).has_value());
  EXPECT_FALSE(leaf(nic(kUuid1, "mlx5_0", "path")).has_value());
  EXPECT_EQ(text(gpu("PCI-00000000:21:00.0", "source")), "pci");
  EXPECT_EQ(number("/gpus/state/gpus"), 4u);

  config_.metrics = GpuMetricsMode::kNone;
  start();
  poll();
  EXPECT_EQ(number("/gpus/state/metrics-up"), 0u);
  EXPECT_FALSE(leaf(gpu(kUuid0, "source")).has_value());
  EXPECT_EQ(text(gpu("PCI-00000000:01:00.0", "source")), "pci");
}

TEST_F(GpuSourceTest, AVirtualMachinesPathsAreUnknownNotGuessed) {
  testing::TempDir vm("rdmagw-gpu-vm");
  ASSERT_TRUE(sim::writePciHost(sim::virtualMachine2(), vm.path()).isOk());
  config_.metrics = GpuMetricsMode::kNone;
  config_.proc_root = vm.file("proc");
  source_ = std::make_unique<GpuSource>(nullptr, config_, vm.file("sys"), nullptr);
  poll();
  EXPECT_EQ(number("/gpus/state/topology-virtual"), 1u);
  EXPECT_EQ(number("/gpus/state/gpus"), 2u);
  EXPECT_EQ(text(gpu("PCI-00000000:00:05.0", "nearest-path")), "unknown");
  EXPECT_EQ(text(gpu("PCI-00000000:00:05.0", "nearest-nics")), "");
}

}  // namespace
}  // namespace rdmagw::southbound::gpu
