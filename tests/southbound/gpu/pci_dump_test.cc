// The one-round-trip form: the dump command run by a shell on a temp tree
// must parse to the very tree the local reader reads there, problems and
// VM evidence included.

#include "southbound/gpu/pci_dump.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <string>

#include "sim/gpu/pci_host.h"
#include "southbound/gpu/virtualization.h"
#include "tests/support/test_support.h"

namespace rdmagw::testing {
namespace {

namespace fs = std::filesystem;
using southbound::gpu::PciDump;
using southbound::gpu::PciTree;

Result<PciDump> dumpOf(const TempDir& root) {
  const CommandResult run = runCommand(southbound::gpu::pciDumpCommand(root.file("sys"), root.file("proc")));
  EXPECT_EQ(run.exit_code, 0) << run.output;
  return southbound::gpu::parsePciDump(run.output);
}

void expectSameTree(const PciTree& dumped, const PciTree& read) {
  ASSERT_EQ(dumped.devices.size(), read.devices.size());
  for (size_t i = 0; i < read.devices.size(); ++i) {
    EXPECT_TRUE(dumped.devices[i] == read.devices[i]) << read.devices[i].address;
  }
  EXPECT_EQ(dumped.problems.size(), read.problems.size());
}

TEST(PciDump, ParsesToTheTreeTheLocalReaderReads) {
  TempDir root("gpu-dump");
  ASSERT_TRUE(sim::writePciHost(sim::pixBox8(), root.path()).isOk());
  Result<PciDump> dump = dumpOf(root);
  ASSERT_TRUE(dump.isOk()) << dump.status().toString();
  Result<PciTree> read = southbound::gpu::readPciTree(root.file("sys"));
  ASSERT_TRUE(read.isOk());
  ASSERT_EQ(read->devices.size(), 48u);
  expectSameTree(dump->tree, *read);
  EXPECT_TRUE(dump->tree.problems.empty()) << dump->tree.problems.front();
  EXPECT_FALSE(dump->hypervisor_flag);
  EXPECT_EQ(dump->tree.find("0000:04:00.0")->rdma_devices, std::vector<std::string>{"mlx5_0"});
}

TEST(PciDump, BrokenTreeGivesTheSameProblems) {
  TempDir root("gpu-dump");
  ASSERT_TRUE(sim::writePciHost(sim::pixBox8(), root.path()).isOk());
  const fs::path bus = root.file("sys/bus/pci/devices");
  fs::create_symlink("0000:99:00.0", bus / "0000:99:00.0");
  const std::string gpu_dir = fs::canonical(bus / "0000:03:00.0").string();
  ASSERT_TRUE(writeFile(gpu_dir + "/class", "junk\n"));
  fs::remove(gpu_dir + "/vendor");
  fs::create_directory(gpu_dir + "/vendor");
  fs::remove(gpu_dir + "/max_link_speed");
  fs::create_directory(gpu_dir + "/max_link_speed");
  Result<PciDump> dump = dumpOf(root);
  ASSERT_TRUE(dump.isOk()) << dump.status().toString();
  Result<PciTree> read = southbound::gpu::readPciTree(root.file("sys"));
  ASSERT_TRUE(read.isOk());
  expectSameTree(dump->tree, *read);
  EXPECT_EQ(dump->tree.problems.size(), 3u) << "the loop, the junk class, the unreadable vendor";
  EXPECT_FALSE(dump->tree.find("0000:03:00.0")->class_code.has_value());
  EXPECT_FALSE(dump->tree.find("0000:03:00.0")->max_link_speed.has_value());
}

TEST(PciDump, CarriesTheVmEvidence) {
  TempDir root("gpu-dump");
  ASSERT_TRUE(sim::writePciHost(sim::virtualMachine2(), root.path()).isOk());
  Result<PciDump> dump = dumpOf(root);
  ASSERT_TRUE(dump.isOk()) << dump.status().toString();
  EXPECT_TRUE(dump->hypervisor_flag);
  EXPECT_EQ(dump->sys_vendor, "QEMU");
  EXPECT_EQ(dump->product_name, "Standard PC (Q35 + ICH9, 2009)");
  const southbound::gpu::VirtualizationEvidence evidence =
      southbound::gpu::judgeVirtualization(dump->hypervisor_flag, dump->sys_vendor, dump->product_name, dump->tree);
  EXPECT_TRUE(evidence.virtual_machine);
  EXPECT_TRUE(evidence.flat_root_bus);
}

TEST(PciDump, TextThatIsNoDumpIsRejected) {
  EXPECT_EQ(southbound::gpu::parsePciDump("").status().code(), Status::Code::kCorrupt);
  EXPECT_EQ(southbound::gpu::parsePciDump("sh: readlink: not found\n").status().code(), Status::Code::kCorrupt);
  EXPECT_EQ(southbound::gpu::parsePciDump("rdmagw-pci-dump 1\nZ what\n").status().code(), Status::Code::kCorrupt);
  Result<PciDump> odd = southbound::gpu::parsePciDump(
      "rdmagw-pci-dump 1\nD 0000:01:00.0 /sys/devices/platform/x\nA 0000:01:00.0 class 0x030000\n"
      "I mlx5_0 /nowhere\n");
  ASSERT_TRUE(odd.isOk());
  EXPECT_TRUE(odd->tree.devices.empty());
  EXPECT_EQ(odd->tree.problems.size(), 2u);
}

}  // namespace
}  // namespace rdmagw::testing
