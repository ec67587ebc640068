// The RoCE check's gpu group (analytics/gpu_checks.h) on the small fabric:
// host01 gets two GPUs as the GPU collector writes them. GPU0's nearest NIC
// mlx5_0 is PIX on its NUMA node, GPU1's nearest is mlx5_1 at SYS. Each
// test changes one fact and reads which items pass, warn or fail; a host
// without GPU leaves (host02) and the switch get no gpu group.

#include <gtest/gtest.h>

#include <string>

#include "tests/analytics/small_fabric.h"

namespace rdmagw::analytics {
namespace {

using testing::SmallFabric;
using Leaves = std::map<std::string, std::string>;

constexpr char kGpu0[] = "GPU-00000000-0000-4000-8000-000000000000";
constexpr char kGpu1[] = "GPU-11111111-1111-4111-8111-111111111111";

std::string gpu(const std::string& uuid, const std::string& leaf) {
  return "/gpus/gpu[uuid=" + uuid + "]/state/" + leaf;
}
std::string nic(const std::string& uuid, const std::string& name, const std::string& leaf) {
  return "/gpus/gpu[uuid=" + uuid + "]/nics/nic[name=" + name + "]/state/" + leaf;
}

class GpuChecksTest : public ::testing::Test {
 protected:
  GpuChecksTest() : f_({}, true, /*static_links=*/false) {}
  void SetUp() override {
    f_.setText("host01", "/gpus/state/peer-memory", "nvidia-peermem");
    f_.setText("host01", "/gpus/state/iommu", "passthrough");
    f_.set("host01", "/gpus/state/topology-virtual", 0);
    addGpu(kGpu0, 0, {{"mlx5_0", 1, "0", "0"}, {"mlx5_1", 5, "1", "0"}});
    addGpu(kGpu1, 1, {{"mlx5_0", 4, "0", "1"}, {"mlx5_1", 5, "1", "1"}});
    f_.set("host01", "/rdma/devices/device[name=mlx5_0]/ports/port[port-num=1]/state/state-id", 4);
    f_.set("host01", "/rdma/devices/device[name=mlx5_1]/ports/port[port-num=1]/state/state-id", 4);
    f_.set("host01", nic(kGpu1, "mlx5_1", "distance"), 2);  // GPU1: mlx5_1 at PXB, its own node
    f_.setText("host01", nic(kGpu1, "mlx5_1", "path"), "PXB");
    f_.setText("host01", nic(kGpu1, "mlx5_1", "nic-numa-node"), "1");
  }
  struct NicFacts {
    std::string name;
    uint64_t distance;
    std::string nic_node, gpu_node;
  };
  void addGpu(const std::string& uuid, uint64_t index, const std::vector<NicFacts>& nics) {
    f_.set("host01", gpu(uuid, "index"), index);
    for (const NicFacts& n : nics) {
      static const char* const kPaths[] = {"X", "PIX", "PXB", "PHB", "NODE", "SYS"};
      f_.set("host01", nic(uuid, n.name, "distance"), n.distance);
      f_.setText("host01", nic(uuid, n.name, "path"), kPaths[n.distance]);
      f_.setText("host01", nic(uuid, n.name, "nic-numa-node"), n.nic_node);
      f_.setText("host01", nic(uuid, n.name, "gpu-numa-node"), n.gpu_node);
      f_.setText("host01", nic(uuid, n.name, "acs-redirect"), "off");
    }
  }
  void settle() { f_.ticks(3); }
  // Findings of the gpu group, "target:group/check/port" -> severity.
  Leaves gpuFindings() const {
    Leaves out;
    for (const auto& [key, value] : f_.derived("severity")) {
      if (key.find(":gpu/") != std::string::npos) out[key] = value;
    }
    return out;
  }

  SmallFabric f_;
};

TEST_F(GpuChecksTest, AHealthyHostPassesAndOnlyItHasAGpuGroup) {
  settle();
  EXPECT_EQ(gpuFindings(), Leaves{});
  EXPECT_EQ(f_.derived("status")["host01:gpu"], "PASS");
  // peer-memory, iommu; per GPU gpudirect-rdma, numa, acs-redirect.
  EXPECT_EQ(f_.derived("checked")["host01:gpu"], "8");
  EXPECT_EQ(f_.derived("status").count("host02:gpu"), 0u);
  EXPECT_EQ(f_.derived("status").count("leaf01:gpu"), 0u);
}

TEST_F(GpuChecksTest, ANearNicWhoseLinkIsDownFailsGpudirectForItsGpu) {
  f_.set("host01", "/rdma/devices/device[name=mlx5_0]/ports/port[port-num=1]/state/state-id", 1);
  settle();
  // GPU0 falls back to mlx5_1 at SYS, on another node; GPU1 still has mlx5_1.
  EXPECT_EQ(gpuFindings(), (Leaves{{"host01:gpu/gpudirect-rdma/GPU0", "FAIL"}, {"host01:gpu/numa/GPU0", "WARN"}}));
  EXPECT_EQ(f_.derived("found")["host01:gpu/gpudirect-rdma/GPU0"],
            "nearest NIC with its link up: mlx5_1 at SYS; mlx5_0 at PIX is down");
  EXPECT_EQ(f_.derived("status")["host01:gpu"], "FAIL");
  f_.set("host01", "/rdma/devices/device[name=mlx5_0]/ports/port[port-num=1]/state/state-id", 4);
  settle();
  EXPECT_EQ(gpuFindings(), Leaves{});
}

TEST_F(GpuChecksTest, AcsRedirectFailsAndUnknownWarnsNeverPasses) {
  f_.setText("host01", nic(kGpu0, "mlx5_0", "acs-redirect"), "on");
  f_.setText("host01", nic(kGpu1, "mlx5_1", "acs-redirect"), "unknown");
  settle();
  EXPECT_EQ(gpuFindings(),
            (Leaves{{"host01:gpu/acs-redirect/GPU0", "FAIL"}, {"host01:gpu/acs-redirect/GPU1", "WARN"}}));
  EXPECT_EQ(f_.derived("found")["host01:gpu/acs-redirect/GPU1"],
            "unknown: a bridge's ACS control is readable by root only");
}

TEST_F(GpuChecksTest, PeerMemoryIommuAndAVirtualMachine) {
  f_.setText("host01", "/gpus/state/peer-memory", "none");
  f_.setText("host01", "/gpus/state/iommu", "translated");
  settle();
  EXPECT_EQ(gpuFindings(), (Leaves{{"host01:gpu/iommu/host", "WARN"}, {"host01:gpu/peer-memory/host", "WARN"}}));
  // Unknown facts are not judged at all.
  f_.setText("host01", "/gpus/state/peer-memory", "unknown");
  f_.setText("host01", "/gpus/state/iommu", "unknown");
  f_.set("host01", "/gpus/state/topology-virtual", 1);
  settle();
  EXPECT_EQ(gpuFindings(),
            (Leaves{{"host01:gpu/gpudirect-rdma/GPU0", "WARN"}, {"host01:gpu/gpudirect-rdma/GPU1", "WARN"}}));
  EXPECT_NE(f_.derived("found")["host01:gpu/gpudirect-rdma/GPU0"].find("virtual machine"), std::string::npos);
}

TEST_F(GpuChecksTest, ALinkBelowItsMaximumWarnsOnlyUnderLoad) {
  f_.set("host01", gpu(kGpu0, "pcie-link-gen"), 1);  // idle: GPUs lower it on purpose
  f_.set("host01", gpu(kGpu0, "pcie-link-gen-max"), 5);
  f_.set("host01", gpu(kGpu0, "pcie-link-width"), 16);
  f_.set("host01", gpu(kGpu0, "pcie-link-width-max"), 16);
  f_.set("host01", gpu(kGpu0, "utilization"), 3);
  settle();
  EXPECT_EQ(gpuFindings(), Leaves{});
  f_.set("host01", gpu(kGpu0, "utilization"), 97);
  settle();
  EXPECT_EQ(gpuFindings(), (Leaves{{"host01:gpu/pcie-link/GPU0", "WARN"}}));
  EXPECT_EQ(f_.derived("found")["host01:gpu/pcie-link/GPU0"], "gen 1 x16 at 97 % utilization");
  f_.set("host01", gpu(kGpu0, "pcie-link-gen"), 5);
  settle();
  EXPECT_EQ(gpuFindings(), Leaves{});
}

}  // namespace
}  // namespace rdmagw::analytics
