// What each device plugin's device IDs are read as, and that anything else
// is kept as unknown with its text rather than guessed.

#include "southbound/k8s/device_id.h"

#include <gtest/gtest.h>

#include <optional>
#include <string>
#include <vector>

namespace rdmagw::southbound::k8s {
namespace {

struct Case {
  std::string resource;
  std::string id;
  DeviceKind kind;
  std::optional<uint32_t> index = std::nullopt;
};

TEST(DeviceIdTest, ClassifiesEachPluginsIds) {
  const std::vector<Case> cases = {
      // SR-IOV network device plugin: VF PCI addresses.
      {"nvidia.com/cx7_sriov_rdma", "0000:3b:02.1", DeviceKind::kPciFunction},
      {"intel.com/sriov_netdevice", "0000:af:1f.7", DeviceKind::kPciFunction},
      {"openshift.io/mlxnics", "10000:e1:00.0", DeviceKind::kPciFunction},  // a VMD domain
      {"nvidia.com/sf", "mlx5_core.sf.4", DeviceKind::kSubFunction, 4},
      {"nvidia.com/sf", "mlx5_core.sf.0", DeviceKind::kSubFunction, 0},
      // The shared RDMA device plugin: slot numbers under rdma/.
      {"rdma/hca_shared_devices_a", "0", DeviceKind::kSharedRdmaSlot, 0},
      {"rdma/hca_shared_devices_a", "999", DeviceKind::kSharedRdmaSlot, 999},
      // NVIDIA GPUs and MIG instances.
      {"nvidia.com/gpu", "GPU-5a0e6e0b-4a2c-7f37-1c55-3f8d0a1b2c3d", DeviceKind::kGpu},
      {"nvidia.com/mig-1g.10gb", "MIG-8c1f3b2a-0d4e-5f6a-9b8c-7d6e5f4a3b2c", DeviceKind::kMigDevice},
      {"nvidia.com/mig-1g.5gb", "MIG-GPU-5a0e6e0b-4a2c-7f37-1c55-3f8d0a1b2c3d/7/0", DeviceKind::kMigDevice},
      // The same shapes stay what they are under any resource name.
      {"example.com/anything", "0000:3b:02.1", DeviceKind::kPciFunction},
  };
  for (const Case& c : cases) {
    SCOPED_TRACE(c.resource + " " + c.id);
    const DeviceId id = classifyDeviceId(c.resource, c.id);
    EXPECT_EQ(id.kind, c.kind) << deviceKindName(id.kind);
    EXPECT_EQ(id.raw, c.id);
    EXPECT_EQ(id.index, c.index);
    EXPECT_EQ(id.pci.has_value(), c.kind == DeviceKind::kPciFunction);
  }
}

TEST(DeviceIdTest, MalformedIdsAreUnknownAndKeepTheirText) {
  const std::vector<Case> cases = {
      {"nvidia.com/sriov", "", DeviceKind::kUnknown},
      {"nvidia.com/sriov", "3b:02.1", DeviceKind::kUnknown},          // no domain
      {"nvidia.com/sriov", "000:3b:02.1", DeviceKind::kUnknown},      // short domain
      {"nvidia.com/sriov", "0000:3b:20.1", DeviceKind::kUnknown},     // device > 0x1f
      {"nvidia.com/sriov", "0000:3b:02.8", DeviceKind::kUnknown},     // function > 7
      {"nvidia.com/sriov", "0000:3g:02.1", DeviceKind::kUnknown},     // not hex
      {"nvidia.com/sriov", "0000:3b:2.1", DeviceKind::kUnknown},      // one-digit device
      {"nvidia.com/sriov", "0000:3b:02.1 ", DeviceKind::kUnknown},    // trailing space
      {"nvidia.com/sriov", "0000:3b.02:1", DeviceKind::kUnknown},     // separators swapped
      {"nvidia.com/sriov", "123456789:3b:02.1", DeviceKind::kUnknown},  // domain of 9 digits
      {"nvidia.com/sf", "mlx5_core.sf.", DeviceKind::kUnknown},
      {"nvidia.com/sf", "mlx5_core.sf.-1", DeviceKind::kUnknown},
      {"nvidia.com/sf", "mlx5_core.sf.4a", DeviceKind::kUnknown},
      {"nvidia.com/sf", "mlx5_core.sf.99999999999", DeviceKind::kUnknown},  // past 32 bits
      {"rdma/hca_shared_devices_a", "07", DeviceKind::kUnknown},   // the plugin never pads
      {"rdma/hca_shared_devices_a", "-1", DeviceKind::kUnknown},
      {"rdma/hca_shared_devices_a", "mlx5_0", DeviceKind::kUnknown},
      {"rdma/", "3", DeviceKind::kUnknown},                        // no resource after the prefix
      {"example.com/nic", "3", DeviceKind::kUnknown},              // a number under another plugin
      {"nvidia.com/gpu", "0", DeviceKind::kUnknown},               // index strategy: not an identity
      {"nvidia.com/gpu", "GPU-5a0e6e0b-4a2c-7f37-1c55", DeviceKind::kUnknown},
      {"nvidia.com/gpu", "GPU-5a0e6e0b-4a2c-7f37-1c55-3f8d0a1b2c3dx", DeviceKind::kUnknown},
      {"nvidia.com/gpu", "gpu-5a0e6e0b-4a2c-7f37-1c55-3f8d0a1b2c3d", DeviceKind::kUnknown},
      {"nvidia.com/mig", "MIG-GPU-5a0e6e0b-4a2c-7f37-1c55-3f8d0a1b2c3d/7", DeviceKind::kUnknown},
      {"nvidia.com/mig", "MIG-GPU-5a0e6e0b-4a2c-7f37-1c55-3f8d0a1b2c3d/x/0", DeviceKind::kUnknown},
  };
  for (const Case& c : cases) {
    SCOPED_TRACE(c.resource + " [" + c.id + "]");
    const DeviceId id = classifyDeviceId(c.resource, c.id);
    EXPECT_EQ(id.kind, DeviceKind::kUnknown) << deviceKindName(id.kind);
    EXPECT_EQ(id.raw, c.id);
    EXPECT_FALSE(id.pci.has_value());
    EXPECT_FALSE(id.index.has_value());
  }
}

TEST(DeviceIdTest, PciAddressFieldsAndCanonicalSpelling) {
  const auto address = parsePciAddress("0000:3B:02.1");
  ASSERT_TRUE(address.has_value());
  EXPECT_EQ(address->domain, 0u);
  EXPECT_EQ(address->bus, 0x3b);
  EXPECT_EQ(address->device, 0x02);
  EXPECT_EQ(address->function, 1);
  EXPECT_EQ(formatPciAddress(*address), "0000:3b:02.1");

  const auto vmd = parsePciAddress("10000:e1:1f.7");
  ASSERT_TRUE(vmd.has_value());
  EXPECT_EQ(*vmd, (PciAddress{0x10000, 0xe1, 0x1f, 7}));
  EXPECT_EQ(formatPciAddress(*vmd), "10000:e1:1f.7");
  EXPECT_EQ(parsePciAddress("ffffffff:ff:1f.7")->domain, 0xffffffffu);
}

TEST(DeviceIdTest, KindNamesAreDistinct) {
  EXPECT_EQ(deviceKindName(DeviceKind::kPciFunction), "pci-function");
  EXPECT_EQ(deviceKindName(DeviceKind::kSharedRdmaSlot), "shared-rdma-slot");
  EXPECT_EQ(deviceKindName(DeviceKind::kUnknown), "unknown");
  EXPECT_NE(deviceKindName(DeviceKind::kGpu), deviceKindName(DeviceKind::kMigDevice));
}

}  // namespace
}  // namespace rdmagw::southbound::k8s
