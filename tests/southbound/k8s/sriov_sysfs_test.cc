// PCI function -> PF, VF index, RDMA devices and netdevs, read from a tree
// shaped like the kernel's sysfs: /sys/bus/pci/devices/<addr> are symlinks
// into /sys/devices/pci<root>/..., physfn and virtfn<N> are relative
// symlinks between siblings, as the kernel makes them (drivers/pci/iov.c).
// No recorded SR-IOV sysfs tree exists in /work/shared/fixtures; the shape
// follows the kernel's sysfs-bus-pci ABI document.

#include "southbound/k8s/sriov_sysfs.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <string>
#include <vector>

#include "tests/southbound/k8s/node_tree.h"
#include "tests/support/test_support.h"

namespace rdmagw::southbound::k8s {
namespace {

namespace fs = std::filesystem;
using rdmagw::testing::SysfsTree;
using rdmagw::testing::TempDir;

PciAddress pci(const std::string& text) { return parsePciAddress(text).value(); }

// A ConnectX PF with four VFs in their usual states on a Kubernetes node.
void buildNode(SysfsTree& t) {
  t.device("0000:3b:00.0");
  t.entry("0000:3b:00.0", "infiniband", "mlx5_0");
  t.entry("0000:3b:00.0", "net", "ens1f0np0");
  t.vf("0000:3b:00.0", 0, "0000:3b:00.2");
  t.vf("0000:3b:00.0", 1, "0000:3b:00.3");
  t.vf("0000:3b:00.0", 2, "0000:3b:00.4");
  t.vf("0000:3b:00.0", 3, "0000:3b:00.5");
  t.entry("0000:3b:00.2", "infiniband", "mlx5_2");  // not in a pod yet
  t.entry("0000:3b:00.2", "net", "ens1f0v0");
  // 00.3: netdev and RDMA device moved into a pod netns (RDMA exclusive
  // mode): no infiniband/ and no net/ left here.
  t.entry("0000:3b:00.4", "infiniband", "mlx5_4");  // RDMA shared mode
  std::filesystem::create_directories(t.deviceDir("0000:3b:00.4") / "net");
  t.entry("0000:3b:00.5", "infiniband", "mlx5_5");
  t.entry("0000:3b:00.5", "net", "ens1f0v3");
  t.device("0000:3b:00.1");  // the second port, SR-IOV off
  t.entry("0000:3b:00.1", "net", "ens1f1np1");
  t.device("0000:00:1f.6");  // an onboard NIC
}

TEST(SriovSysfsTest, AVfNamesItsPfIndexAndDevices) {
  SysfsTree t;
  buildNode(t);
  SriovSysfs sysfs(t.sysRoot());
  Result<PciFunction> vf = sysfs.function(pci("0000:3b:00.2"));
  ASSERT_TRUE(vf.isOk()) << vf.status().toString();
  EXPECT_EQ(vf->physfn, pci("0000:3b:00.0"));
  EXPECT_EQ(vf->vf_index, 0u);
  EXPECT_EQ(vf->rdma_devices, std::vector<std::string>{"mlx5_2"});
  EXPECT_EQ(vf->netdevs, std::vector<std::string>{"ens1f0v0"});
  EXPECT_TRUE(vf->problem.empty());

  Result<PciFunction> moved = sysfs.function(pci("0000:3b:00.3"));
  ASSERT_TRUE(moved.isOk());
  EXPECT_EQ(moved->vf_index, 1u);
  EXPECT_TRUE(moved->rdma_devices.empty());
  EXPECT_TRUE(moved->netdevs.empty());

  Result<PciFunction> shared = sysfs.function(pci("0000:3b:00.4"));
  ASSERT_TRUE(shared.isOk());
  EXPECT_EQ(shared->vf_index, 2u);
  EXPECT_EQ(shared->rdma_devices, std::vector<std::string>{"mlx5_4"});
  EXPECT_TRUE(shared->netdevs.empty());
}

TEST(SriovSysfsTest, APfIsNoVf) {
  SysfsTree t;
  buildNode(t);
  Result<PciFunction> pf = SriovSysfs(t.sysRoot()).function(pci("0000:3b:00.0"));
  ASSERT_TRUE(pf.isOk());
  EXPECT_FALSE(pf->physfn.has_value());
  EXPECT_FALSE(pf->vf_index.has_value());
  EXPECT_EQ(pf->netdevs, std::vector<std::string>{"ens1f0np0"});
}

TEST(SriovSysfsTest, ListsEveryPfWithItsVfsInIndexOrder) {
  SysfsTree t;
  buildNode(t);
  Result<std::vector<PhysicalFunction>> pfs = SriovSysfs(t.sysRoot()).physicalFunctions();
  ASSERT_TRUE(pfs.isOk()) << pfs.status().toString();
  ASSERT_EQ(pfs->size(), 1u);  // 00.1 and the onboard NIC have no VFs
  const PhysicalFunction& pf = pfs->front();
  EXPECT_EQ(pf.function.address, pci("0000:3b:00.0"));
  EXPECT_EQ(pf.function.rdma_devices, std::vector<std::string>{"mlx5_0"});
  ASSERT_EQ(pf.vfs.size(), 4u);
  for (uint32_t i = 0; i < 4; ++i) {
    EXPECT_EQ(pf.vfs[i].vf_index, i);
    EXPECT_EQ(pf.vfs[i].address.function, 2 + i);
    EXPECT_EQ(pf.vfs[i].physfn, pci("0000:3b:00.0"));
  }
  EXPECT_EQ(pf.vfs[3].netdevs, std::vector<std::string>{"ens1f0v3"});
}

TEST(SriovSysfsTest, ABrokenLinkIsReportedNotGuessed) {
  SysfsTree t;
  t.device("0000:5e:00.0");
  t.device("0000:5e:00.1");
  std::filesystem::create_directory_symlink("../0000:5e:00.0", t.deviceDir("0000:5e:00.1") / "physfn");
  t.device("0000:5e:00.7");
  std::filesystem::create_directory_symlink("../not-a-pci-address", t.deviceDir("0000:5e:00.7") / "physfn");
  SriovSysfs sysfs(t.sysRoot());

  Result<PciFunction> orphan = sysfs.function(pci("0000:5e:00.1"));
  ASSERT_TRUE(orphan.isOk());
  EXPECT_EQ(orphan->physfn, pci("0000:5e:00.0"));
  EXPECT_FALSE(orphan->vf_index.has_value());
  EXPECT_NE(orphan->problem.find("no virtfn link"), std::string::npos);

  Result<PciFunction> corrupt = sysfs.function(pci("0000:5e:00.7"));
  ASSERT_FALSE(corrupt.isOk());
  EXPECT_EQ(corrupt.status().code(), Status::Code::kCorrupt);
  EXPECT_NE(corrupt.status().message().find("not a PCI address"), std::string::npos);

  Result<PciFunction> absent = sysfs.function(pci("0000:99:00.0"));
  EXPECT_EQ(absent.status().code(), Status::Code::kNotFound);
}

TEST(SriovSysfsTest, AMissingSysfsIsAnError) {
  Result<std::vector<PhysicalFunction>> pfs = SriovSysfs("/nonexistent-sys").physicalFunctions();
  ASSERT_FALSE(pfs.isOk());
  EXPECT_NE(pfs.status().message().find("/nonexistent-sys/bus/pci/devices"), std::string::npos);
}

}  // namespace
}  // namespace rdmagw::southbound::k8s
