// The topo -m relations on PCIe shapes whose answer is known by
// construction: switches (one level each, as NCCL folds them), root ports,
// root complexes and NUMA nodes; and the simulator's GPU boxes read back
// from the sysfs trees it writes.

#include "southbound/gpu/gpu_nic_topology.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "sim/gpu/pci_host.h"
#include "tests/support/test_support.h"

namespace rdmagw::testing {
namespace {

using southbound::gpu::classifyPath;
using southbound::gpu::deviceFromPath;
using southbound::gpu::GpuNicTopology;
using southbound::gpu::NearestNics;
using southbound::gpu::PathType;
using southbound::gpu::pathTypeName;
using southbound::gpu::PciDevice;

PciDevice at(const std::string& path, int numa = 0) {
  Result<PciDevice> device = deviceFromPath(path);
  EXPECT_TRUE(device.isOk()) << device.status().toString();
  PciDevice out = device.isOk() ? *device : PciDevice{};
  out.numa_node = numa;
  return out;
}

std::string between(const std::string& a, const std::string& b, int numa_a = 0, int numa_b = 0) {
  return std::string(pathTypeName(classifyPath(at(a, numa_a), at(b, numa_b))));
}

// Root port 0000:00:01.1, switch 01:00.0 (upstream) with downstream ports
// 02:00.0 and 02:01.0, a second switch 03:00.0/04:00.0 below 02:01.0.
const std::string kRp = "/sys/devices/pci0000:00/0000:00:01.1";
const std::string kDsp0 = kRp + "/0000:01:00.0/0000:02:00.0";
const std::string kDsp1 = kRp + "/0000:01:00.0/0000:02:01.0";
const std::string kDeepDsp = kDsp1 + "/0000:03:00.0/0000:04:00.0";

TEST(PathClassifier, OneSwitchIsOneLevel) {
  EXPECT_EQ(between(kDsp0 + "/0000:05:00.0", kDsp0 + "/0000:05:00.1"), "PIX") << "same downstream port";
  EXPECT_EQ(between(kDsp0 + "/0000:05:00.0", kDsp1 + "/0000:06:00.0"), "PIX") << "two ports of one switch";
  EXPECT_EQ(between(kRp + "/0000:01:00.0", kRp + "/0000:01:00.1"), "PIX") << "two functions under one root port";
  EXPECT_EQ(between(kDsp0 + "/0000:05:00.0", kDeepDsp + "/0000:07:00.0"), "PXB") << "a switch below a switch";
  EXPECT_EQ(between(kRp + "/0000:01:00.1", kDsp0 + "/0000:05:00.0"), "PXB") << "switch plus root port";
  EXPECT_EQ(between(kDsp0 + "/0000:05:00.0", kDsp0 + "/0000:05:00.0"), "X");
}

TEST(PathClassifier, HostBridgesAndNumaNodes) {
  const std::string other_port = "/sys/devices/pci0000:00/0000:00:03.1/0000:08:00.0";
  const std::string other_complex = "/sys/devices/pci0000:20/0000:20:01.1/0000:21:00.0";
  EXPECT_EQ(between(kDsp0 + "/0000:05:00.0", other_port), "PHB");
  EXPECT_EQ(between("/sys/devices/pci0000:00/0000:00:05.0", "/sys/devices/pci0000:00/0000:00:06.0"), "PHB")
      << "root-bus devices share only the host bridge";
  EXPECT_EQ(between(kDsp0 + "/0000:05:00.0", other_complex), "NODE");
  EXPECT_EQ(between(kDsp0 + "/0000:05:00.0", other_complex, 0, 1), "SYS");
  EXPECT_EQ(between(kDsp0 + "/0000:05:00.0", other_complex, -1, -1), "NODE") << "unknown node on both: one node";
  EXPECT_EQ(between(kDsp0 + "/0000:05:00.0", other_complex, -1, 0), "SYS");
}

TEST(PathClassifier, PathsAboveTheHostBridgeAreIgnored) {
  // Hyper-V puts each passed-through device's root bus under VMBUS.
  const PciDevice device =
      at("/sys/devices/LNXSYSTM:00/LNXSYBUS:00/ACPI0004:00/VMBUS:00/abc-def/pci0001:00/0001:00:00.0");
  EXPECT_EQ(device.host_bridge, "pci0001:00");
  EXPECT_TRUE(device.bridges.empty());
  EXPECT_EQ(device.address, "0001:00:00.0");
  EXPECT_FALSE(deviceFromPath("/sys/devices/pci0000:00").isOk());
  EXPECT_FALSE(deviceFromPath("/sys/devices/platform/serial8250").isOk());
}

GpuNicTopology readBox(const sim::SimPciHost& host, const TempDir& root) {
  EXPECT_TRUE(sim::writePciHost(host, root.path()).isOk());
  Result<southbound::gpu::PciTree> tree = southbound::gpu::readPciTree(root.file("sys"));
  EXPECT_TRUE(tree.isOk());
  EXPECT_TRUE(tree.isOk() && tree->problems.empty());
  return tree.isOk() ? southbound::gpu::buildTopology(*tree) : GpuNicTopology{};
}

TEST(SimulatedBoxes, PixBoxPairsEveryGpuWithItsSwitchNic) {
  TempDir root("gpu-box");
  const GpuNicTopology topology = readBox(sim::pixBox8(), root);
  ASSERT_EQ(topology.gpus.size(), 8u);
  ASSERT_EQ(topology.nics.size(), 8u);
  const std::vector<NearestNics> nearest = southbound::gpu::nearestNics(topology);
  ASSERT_EQ(nearest.size(), 8u);
  for (size_t g = 0; g < 8; ++g) {
    EXPECT_EQ(nearest[g].path, PathType::kPix) << g;
    EXPECT_EQ(nearest[g].nics, std::vector<size_t>{g});
    EXPECT_TRUE(nearest[g].gdr_by_default);
    EXPECT_EQ(topology.nics[g].rdma_device, "mlx5_" + std::to_string(g));
    for (size_t other = 0; other < 8; ++other) {
      const PathType expected = other == g ? PathType::kSelf : (other / 4 == g / 4 ? PathType::kNode : PathType::kSys);
      EXPECT_EQ(topology.gpuToGpu(g, other), expected) << g << " x " << other;
      if (other != g) {
        EXPECT_EQ(topology.gpuToNic(g, other), other / 4 == g / 4 ? PathType::kNode : PathType::kSys);
      }
    }
  }
}

TEST(SimulatedBoxes, NodeBoxTiesTheTwoNicsOfEachNode) {
  TempDir root("gpu-box");
  const GpuNicTopology topology = readBox(sim::nodeBox4(), root);
  ASSERT_EQ(topology.gpus.size(), 4u);
  ASSERT_EQ(topology.nics.size(), 4u);
  const std::vector<NearestNics> nearest = southbound::gpu::nearestNics(topology);
  ASSERT_EQ(nearest.size(), 4u);
  for (size_t g = 0; g < 4; ++g) {
    EXPECT_EQ(nearest[g].path, PathType::kNode) << g;
    const std::vector<size_t> expected = g < 2 ? std::vector<size_t>{0, 1} : std::vector<size_t>{2, 3};
    EXPECT_EQ(nearest[g].nics, expected) << g;
    EXPECT_FALSE(nearest[g].gdr_by_default);
    EXPECT_EQ(topology.gpus[g].numa_node, static_cast<int>(g / 2));
  }
  EXPECT_EQ(topology.nicToNic(0, 1), PathType::kNode);
  EXPECT_EQ(topology.nicToNic(0, 2), PathType::kSys);
}

TEST(SimulatedBoxes, VirtualMachineLooksAllPhbUnlessMarkedUnknown) {
  TempDir root("gpu-box");
  sim::SimPciHost host = sim::virtualMachine2();
  ASSERT_TRUE(sim::writePciHost(host, root.path()).isOk());
  Result<southbound::gpu::PciTree> tree = southbound::gpu::readPciTree(root.file("sys"));
  ASSERT_TRUE(tree.isOk());
  // The flat emulated bus is what a naive reader would report: PHB everywhere.
  const GpuNicTopology naive = southbound::gpu::buildTopology(*tree);
  ASSERT_EQ(naive.gpus.size(), 2u);
  ASSERT_EQ(naive.nics.size(), 2u);
  EXPECT_EQ(naive.gpuToNic(0, 1), PathType::kPhb);
  const GpuNicTopology marked = southbound::gpu::buildTopology(*tree, true, "hypervisor flag");
  EXPECT_TRUE(marked.distances_unknown);
  EXPECT_EQ(marked.gpuToNic(0, 0), PathType::kUnknown);
  EXPECT_EQ(marked.gpuToGpu(1, 1), PathType::kSelf);
  EXPECT_TRUE(southbound::gpu::nearestNics(marked).empty());
}

TEST(SimulatedBoxes, NicsOrderByIbdevNumberNotText) {
  TempDir root("gpu-box");
  sim::SimPciHost host = sim::pixBox8();
  host.functions[5].rdma_devices = {"mlx5_10"};  // the first NIC
  const GpuNicTopology topology = readBox(host, root);
  ASSERT_EQ(topology.nics.size(), 8u);
  EXPECT_EQ(topology.nics.back().rdma_device, "mlx5_10");
  EXPECT_EQ(topology.nics.front().rdma_device, "mlx5_1");
  EXPECT_EQ(topology.nics.back().card, "0000:04:00");
}

}  // namespace
}  // namespace rdmagw::testing
