// The sysfs PCI reader on small trees: what it reads of a function, and
// what it says of a tree it cannot trust (junk attributes, a link loop, a
// path without a host bridge) instead of crashing or guessing.

#include "southbound/gpu/pci_tree.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <string>

#include "sim/gpu/pci_host.h"
#include "tests/support/test_support.h"

namespace rdmagw::testing {
namespace {

namespace fs = std::filesystem;
using southbound::gpu::PciDevice;
using southbound::gpu::PciTree;
using southbound::gpu::readPciTree;

// A GPU and a dual-port NIC under one root port, and a root-bus device.
sim::SimPciHost smallHost() {
  sim::SimPciHost host;
  auto add = [&host](const std::string& address, const std::string& parent, uint32_t cls, uint16_t vendor) {
    sim::SimPciFunction f;
    f.address = address;
    f.parent = parent;
    f.host_bridge = "pci0000:40";
    f.class_code = cls;
    f.vendor = vendor;
    f.device = 0x1234;
    f.numa_node = 1;
    f.link_speed = "16.0 GT/s PCIe";
    f.link_width = 8;
    host.functions.push_back(f);
  };
  add("0000:40:00.0", "", 0x060000, 0x1022);
  add("0000:40:01.1", "", sim::kClassPciBridge, 0x1022);
  add("0000:41:00.0", "0000:40:01.1", sim::kClassPciBridge, 0x1000);
  add("0000:42:00.0", "0000:41:00.0", sim::kClassPciBridge, 0x1000);
  add("0000:43:00.0", "0000:42:00.0", sim::kClass3d, sim::kVendorNvidia);
  add("0000:43:00.1", "0000:42:00.0", 0x040300, sim::kVendorNvidia);
  add("0000:44:00.0", "0000:40:01.1", sim::kClassInfiniband, sim::kVendorMellanox);
  add("0000:44:00.1", "0000:40:01.1", sim::kClassInfiniband, sim::kVendorMellanox);
  host.functions[6].rdma_devices = {"mlx5_0"};
  host.functions[7].rdma_devices = {"mlx5_1"};
  return host;
}

bool mentions(const PciTree& tree, const std::string& what) {
  for (const std::string& problem : tree.problems) {
    if (problem.find(what) != std::string::npos) return true;
  }
  return false;
}

TEST(PciTreeReader, ReadsChainAttributesAndRdmaDevices) {
  TempDir root("gpu-pci-tree");
  ASSERT_TRUE(sim::writePciHost(smallHost(), root.path()).isOk());
  Result<PciTree> tree = readPciTree(root.file("sys"));
  ASSERT_TRUE(tree.isOk()) << tree.status().toString();
  EXPECT_TRUE(tree->problems.empty()) << tree->problems.front();
  ASSERT_EQ(tree->devices.size(), 8u);
  const PciDevice* gpu = tree->find("0000:43:00.0");
  ASSERT_NE(gpu, nullptr);
  EXPECT_TRUE(gpu->isNvidiaGpu());
  EXPECT_EQ(gpu->host_bridge, "pci0000:40");
  EXPECT_EQ(gpu->bridges, (std::vector<std::string>{"0000:40:01.1", "0000:41:00.0", "0000:42:00.0"}));
  EXPECT_EQ(gpu->numa_node, 1);
  EXPECT_EQ(gpu->current_link_speed, "16.0 GT/s PCIe");
  EXPECT_EQ(gpu->max_link_width, 8u);
  EXPECT_FALSE(tree->find("0000:43:00.1")->isNvidiaGpu()) << "the GPU's audio function is no GPU";
  EXPECT_TRUE(tree->find("0000:42:00.0")->isBridge());
  EXPECT_EQ(tree->find("0000:44:00.1")->rdma_devices, std::vector<std::string>{"mlx5_1"});
  EXPECT_TRUE(tree->find("0000:40:00.0")->bridges.empty());
}

TEST(PciTreeReader, MissingOptionalFilesAreNoProblem) {
  TempDir root("gpu-pci-tree");
  sim::SimPciHost host = smallHost();
  for (sim::SimPciFunction& f : host.functions) f.link_speed.clear();
  ASSERT_TRUE(sim::writePciHost(host, root.path()).isOk());
  fs::remove(root.file("sys/devices/pci0000:40/0000:40:01.1/0000:44:00.0/numa_node"));
  Result<PciTree> tree = readPciTree(root.file("sys"));
  ASSERT_TRUE(tree.isOk());
  EXPECT_TRUE(tree->problems.empty()) << tree->problems.front();
  EXPECT_EQ(tree->find("0000:44:00.0")->numa_node, -1);
  EXPECT_FALSE(tree->find("0000:43:00.0")->current_link_speed.has_value());
}

TEST(PciTreeReader, JunkAttributesAreNamedProblemsNotValues) {
  TempDir root("gpu-pci-tree");
  ASSERT_TRUE(sim::writePciHost(smallHost(), root.path()).isOk());
  const std::string gpu_dir = root.file("sys/devices/pci0000:40/0000:40:01.1/0000:41:00.0/0000:42:00.0/0000:43:00.0");
  ASSERT_TRUE(writeFile(gpu_dir + "/class", "VGA please\n"));
  ASSERT_TRUE(writeFile(gpu_dir + "/numa_node", "one\n"));
  fs::remove(gpu_dir + "/vendor");
  fs::create_directory(gpu_dir + "/vendor");  // a file that is no attribute
  Result<PciTree> tree = readPciTree(root.file("sys"));
  ASSERT_TRUE(tree.isOk());
  EXPECT_TRUE(mentions(*tree, gpu_dir + "/class: \"VGA please\""));
  EXPECT_TRUE(mentions(*tree, gpu_dir + "/numa_node"));
  EXPECT_TRUE(mentions(*tree, gpu_dir + "/vendor"));
  const PciDevice* gpu = tree->find("0000:43:00.0");
  ASSERT_NE(gpu, nullptr);
  EXPECT_FALSE(gpu->class_code.has_value());
  EXPECT_FALSE(gpu->isNvidiaGpu());
}

TEST(PciTreeReader, LinkLoopAndPathsOutsideAHostBridgeAreLeftOutAndNamed) {
  TempDir root("gpu-pci-tree");
  ASSERT_TRUE(sim::writePciHost(smallHost(), root.path()).isOk());
  const fs::path bus = root.file("sys/bus/pci/devices");
  fs::create_symlink("0000:99:00.0", bus / "0000:99:00.0");  // points at itself
  fs::create_directories(root.file("sys/devices/platform/0000:98:00.0"));
  fs::create_directory_symlink("../../../devices/platform/0000:98:00.0", bus / "0000:98:00.0");
  fs::create_directories(root.file("sys/devices/pci0000:40/junk/0000:97:00.0"));
  fs::create_directory_symlink("../../../devices/pci0000:40/junk/0000:97:00.0", bus / "0000:97:00.0");
  fs::create_directory_symlink("../../../devices/pci0000:40/0000:40:00.0", bus / "0000:96:00.0");
  fs::create_directories(root.file("sys/class/infiniband/bnxt_re0"));
  fs::create_directory_symlink("../../../devices/platform", root.file("sys/class/infiniband/bnxt_re0/device"));
  Result<PciTree> tree = readPciTree(root.file("sys"));
  ASSERT_TRUE(tree.isOk());
  EXPECT_EQ(tree->devices.size(), 8u);
  EXPECT_TRUE(mentions(*tree, "cannot resolve " + (bus / "0000:99:00.0").string()));
  EXPECT_TRUE(mentions(*tree, "no PCI host bridge"));
  EXPECT_TRUE(mentions(*tree, "\"junk\" below the host bridge is no PCI address"));
  EXPECT_TRUE(mentions(*tree, "another address"));
  EXPECT_TRUE(mentions(*tree, "bnxt_re0/device resolves to"));
}

TEST(PciTreeReader, UnreadableLinkFilesAreAnUnknownLinkNotAProblem) {
  TempDir root("gpu-pci-tree");
  ASSERT_TRUE(sim::writePciHost(smallHost(), root.path()).isOk());
  const std::string dir = root.file("sys/devices/pci0000:40/0000:40:00.0");
  fs::remove(dir + "/current_link_speed");
  fs::create_directory(dir + "/current_link_speed");  // reads fail, as EINVAL does for a non-PCIe function
  ASSERT_TRUE(writeFile(dir + "/max_link_width", "Unknown\n"));
  Result<PciTree> tree = readPciTree(root.file("sys"));
  ASSERT_TRUE(tree.isOk());
  EXPECT_TRUE(tree->problems.empty()) << tree->problems.front();
  const PciDevice* device = tree->find("0000:40:00.0");
  ASSERT_NE(device, nullptr);
  EXPECT_FALSE(device->current_link_speed.has_value());
  EXPECT_FALSE(device->max_link_width.has_value());
  EXPECT_EQ(device->current_link_width, 8u);
}

TEST(PciTreeReader, NoPciDirectoryIsAnError) {
  TempDir root("gpu-pci-tree");
  Result<PciTree> tree = readPciTree(root.file("sys"));
  ASSERT_FALSE(tree.isOk());
  EXPECT_EQ(tree.status().code(), Status::Code::kIoError);
  EXPECT_NE(tree.status().message().find("bus/pci/devices"), std::string::npos);
}

TEST(PciTreeReader, SysfsHexAndAddresses) {
  using southbound::gpu::isPciAddress;
  using southbound::gpu::parseSysfsHex;
  EXPECT_EQ(parseSysfsHex("0x030200\n", 0xffffff), 0x030200u);
  EXPECT_EQ(parseSysfsHex("0x10DE", 0xffff), 0x10deu);
  EXPECT_FALSE(parseSysfsHex("0x1000000", 0xffffff).has_value());
  EXPECT_FALSE(parseSysfsHex("030000", 0xffffff).has_value());
  EXPECT_FALSE(parseSysfsHex("0x", 0xffffff).has_value());
  EXPECT_FALSE(parseSysfsHex("0x12g4", 0xffff).has_value());
  EXPECT_TRUE(isPciAddress("0000:21:00.1"));
  EXPECT_TRUE(isPciAddress("10000:e1:1f.7"));
  EXPECT_FALSE(isPciAddress("0000:21:00.8"));
  EXPECT_FALSE(isPciAddress("pci0000:21"));
  EXPECT_FALSE(isPciAddress("0000:21:00"));
}

}  // namespace
}  // namespace rdmagw::testing
