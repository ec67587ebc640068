// Peer memory, IOMMU and ACS redirect as the collector reads them: ACS on
// configuration-space bytes (what root reads and what anyone else gets),
// the rest on the simulator's host trees.

#include "southbound/gpu/gpu_host_facts.h"

#include <gtest/gtest.h>

#include <string>

#include "sim/gpu/pci_host.h"
#include "tests/support/test_support.h"

namespace rdmagw::southbound::gpu {
namespace {

// 4 KiB of configuration space with one extended capability at 0x100.
std::string configWith(uint16_t id, uint16_t control, uint16_t next = 0) {
  std::string config(4096, '\0');
  const uint32_t header = id | (1u << 16) | (uint32_t(next) << 20);
  for (int i = 0; i < 4; ++i) config[0x100 + i] = char((header >> (8 * i)) & 0xff);
  config[0x106] = char(control & 0xff);
  config[0x107] = char(control >> 8);
  return config;
}

TEST(GpuHostFactsTest, AcsRedirectFromConfigurationSpace) {
  std::string why;
  EXPECT_EQ(acsRedirectOfConfig(configWith(0x000d, 0x0001), &why), "off");
  EXPECT_EQ(acsRedirectOfConfig(configWith(0x000d, 0x0005), &why), "on");  // request redirect
  EXPECT_EQ(acsRedirectOfConfig(configWith(0x000d, 0x0009), &why), "on");  // completion redirect
  // Another capability first, ACS after it.
  std::string chained = configWith(0x0001, 0, 0x200);
  const uint32_t acs = 0x000d | (1u << 16);
  for (int i = 0; i < 4; ++i) chained[0x200 + i] = char((acs >> (8 * i)) & 0xff);
  chained[0x206] = 0x0c;
  EXPECT_EQ(acsRedirectOfConfig(chained, &why), "on");
  // No ACS capability at all: nothing redirects.
  EXPECT_EQ(acsRedirectOfConfig(configWith(0x0001, 0), &why), "off");
  EXPECT_EQ(acsRedirectOfConfig(std::string(4096, '\0'), &why), "off");
  // What a non-root reader gets: 64 bytes. Unknown, never off.
  EXPECT_EQ(acsRedirectOfConfig(std::string(64, '\0'), &why), "unknown");
  EXPECT_NE(why.find("needs root"), std::string::npos) << why;
  // A list that points at itself: unknown, and the walk ends.
  EXPECT_EQ(acsRedirectOfConfig(configWith(0x0001, 0, 0x100), &why), "unknown");
  EXPECT_NE(why.find("damaged"), std::string::npos) << why;
}

TEST(GpuHostFactsTest, PeerMemoryAndIommuOfSimulatedHosts) {
  testing::TempDir tmp("rdmagw-gpu-facts");
  sim::SimPciHost host = sim::nodeBox4();
  ASSERT_TRUE(sim::writePciHost(host, tmp.file("a")).isOk());
  EXPECT_EQ(readPeerMemory(tmp.file("a/sys")), "nvidia-peermem");
  EXPECT_EQ(readIommu(tmp.file("a/sys"), tmp.file("a/proc")), "off");
  host.peer_memory = false;
  host.iommu = "translated";
  ASSERT_TRUE(sim::writePciHost(host, tmp.file("b")).isOk());
  EXPECT_EQ(readPeerMemory(tmp.file("b/sys")), "none");
  EXPECT_EQ(readIommu(tmp.file("b/sys"), tmp.file("b/proc")), "translated");
  host.iommu = "passthrough";
  host.nvidia_driver = false;
  ASSERT_TRUE(sim::writePciHost(host, tmp.file("c")).isOk());
  EXPECT_EQ(readPeerMemory(tmp.file("c/sys")), "unknown");
  EXPECT_EQ(readIommu(tmp.file("c/sys"), tmp.file("c/proc")), "passthrough");
  EXPECT_EQ(readIommu(tmp.file("nowhere/sys"), tmp.file("nowhere/proc")), "unknown");
}

TEST(GpuHostFactsTest, AcsOnThePathBetweenAGpuAndItsNic) {
  testing::TempDir tmp("rdmagw-gpu-acs");
  sim::SimPciHost host = sim::pixBox8();
  // GPU0 and NIC0 share a switch: its downstream port above NIC0 redirects.
  for (sim::SimPciFunction& f : host.functions) {
    if (f.address == "0000:02:01.0") f.acs_redirect = true;
  }
  ASSERT_TRUE(sim::writePciHost(host, tmp.path()).isOk());
  Result<PciTree> tree = readPciTree(tmp.file("sys"));
  ASSERT_TRUE(tree.isOk()) << tree.status().toString();
  const PciDevice* gpu0 = tree->find("0000:03:00.0");
  const PciDevice* nic0 = tree->find("0000:04:00.0");
  const PciDevice* gpu1 = tree->find("0000:23:00.0");
  const PciDevice* nic1 = tree->find("0000:24:00.0");
  ASSERT_TRUE(gpu0 && nic0 && gpu1 && nic1);
  std::string why;
  EXPECT_EQ(acsRedirectOnPath(tmp.file("sys"), *gpu0, *nic0, &why), "on");
  EXPECT_NE(why.find("0000:02:01.0"), std::string::npos) << why;
  EXPECT_EQ(acsRedirectOnPath(tmp.file("sys"), *gpu1, *nic1, &why), "off");
}

}  // namespace
}  // namespace rdmagw::southbound::gpu
