// The join of metrics samples and the PCI tree, on hand-made topologies:
// by bus address (NVML's upper-case form against sysfs's lower case), the
// key each entry gets, and each NIC's rank.

#include "southbound/gpu/gpu_inventory.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

namespace rdmagw::southbound::gpu {
namespace {

// Two GPUs and three NICs: GPU0 has mlx5_0 alone at PIX; GPU1 has mlx5_1
// and mlx5_2 tied at PXB.
GpuNicTopology topology() {
  GpuNicTopology t;
  t.gpus = {{"GPU0", "0000:3b:00.0", "", "", 0}, {"GPU1", "0000:8d:00.0", "", "", 1}};
  t.nics = {{"NIC0", "0000:3c:00.0", "mlx5_0", "0000:3c:00", 0},
            {"NIC1", "0000:8e:00.0", "mlx5_1", "0000:8e:00", 1},
            {"NIC2", "0000:8e:00.1", "mlx5_2", "0000:8e:00", 1}};
  const PathType X = PathType::kSelf, PIX = PathType::kPix, PXB = PathType::kPxb, SYS = PathType::kSys;
  t.cells = {{X, SYS, PIX, SYS, SYS},
             {SYS, X, SYS, PXB, PXB},
             {PIX, SYS, X, SYS, SYS},
             {SYS, PXB, SYS, X, PIX},
             {SYS, PXB, SYS, PIX, X}};
  return t;
}

GpuSample sample(uint32_t index, const std::string& uuid, const std::string& bus) {
  GpuSample s;
  s.index = index;
  if (!uuid.empty()) s.uuid = uuid;
  if (!bus.empty()) s.pci_bus_id = bus;
  s.model_name = "NVIDIA H100";
  s.temperature_c = 40 + int32_t(index);
  return s;
}

TEST(GpuInventoryTest, SamplesJoinTheTreeByBusAddressAndNicsAreRanked) {
  const GpuNicTopology t = topology();
  const std::vector<GpuEntry> gpus =
      buildGpuInventory(&t, {sample(1, "GPU-b", "00000000:8D:00.0"), sample(0, "GPU-a", "00000000:3B:00.0")}, "nvml");
  ASSERT_EQ(gpus.size(), 2u);
  EXPECT_EQ(gpus[0].uuid, "GPU-a");  // by index
  EXPECT_EQ(gpus[0].nearest_nics, std::vector<std::string>{"mlx5_0"});
  EXPECT_EQ(gpus[0].nearest_path, PathType::kPix);
  EXPECT_TRUE(gpus[0].gpudirect_rdma);
  ASSERT_EQ(gpus[0].nics.size(), 3u);
  EXPECT_EQ(gpus[0].nics[0].rank, "nearest");
  EXPECT_EQ(gpus[0].nics[1].rank, "farther");
  EXPECT_EQ(gpus[0].nics[1].path, PathType::kSys);
  EXPECT_EQ(gpus[0].nics[1].nic_numa_node, 1);
  EXPECT_EQ(gpus[0].nics[1].gpu_numa_node, 0);
  EXPECT_EQ(gpus[1].nearest_nics, (std::vector<std::string>{"mlx5_1", "mlx5_2"}));
  EXPECT_EQ(gpus[1].nics[1].rank, "nearest-tied");
  EXPECT_EQ(gpus[1].nearest_path, PathType::kPxb);
  EXPECT_TRUE(gpus[1].gpudirect_rdma);
  EXPECT_EQ(gpus[1].source, "nvml");
  ASSERT_TRUE(gpus[1].sample.has_value());
  EXPECT_EQ(gpus[1].sample->temperature_c, 41);
}

TEST(GpuInventoryTest, TreeGpusWithoutSampleAndSamplesWithoutTreeAreBothKept) {
  const GpuNicTopology t = topology();
  const std::vector<GpuEntry> gpus =
      buildGpuInventory(&t, {sample(0, "GPU-a", "00000000:3B:00.0"), sample(5, "", "00000000:AF:00.0")}, "nvidia-smi");
  ASSERT_EQ(gpus.size(), 3u);
  EXPECT_EQ(gpus[0].uuid, "GPU-a");
  // No UUID from the source: keyed by its bus id, metrics kept, no paths.
  EXPECT_EQ(gpus[1].uuid, "PCI-00000000:AF:00.0");
  EXPECT_TRUE(gpus[1].sample.has_value());
  EXPECT_TRUE(gpus[1].nics.empty());
  // The tree's other GPU: listed without metrics, in NVML's bus-id form.
  EXPECT_EQ(gpus[2].uuid, "PCI-00000000:8D:00.0");
  EXPECT_EQ(gpus[2].source, "pci");
  EXPECT_FALSE(gpus[2].sample.has_value());
  EXPECT_EQ(gpus[2].nics.size(), 3u);
}

TEST(GpuInventoryTest, UnknownDistancesRankNothing) {
  GpuNicTopology t = topology();
  t.distances_unknown = true;
  for (auto& row : t.cells) {
    for (PathType& cell : row) cell = cell == PathType::kSelf ? cell : PathType::kUnknown;
  }
  const std::vector<GpuEntry> gpus = buildGpuInventory(&t, {}, "nvml");
  ASSERT_EQ(gpus.size(), 2u);
  EXPECT_TRUE(gpus[0].nearest_nics.empty());
  EXPECT_EQ(gpus[0].nearest_path, PathType::kUnknown);
  EXPECT_FALSE(gpus[0].gpudirect_rdma);
  for (const GpuNicEntry& nic : gpus[0].nics) EXPECT_EQ(nic.rank, "unknown");
}

TEST(GpuInventoryTest, WithoutTreeTheSamplesAloneAndNcclDistances) {
  const std::vector<GpuEntry> gpus = buildGpuInventory(nullptr, {sample(0, "GPU-a", "00000000:3B:00.0")}, "nvml");
  ASSERT_EQ(gpus.size(), 1u);
  EXPECT_TRUE(gpus[0].nics.empty());
  EXPECT_EQ(ncclDistance(PathType::kPix), 1u);
  EXPECT_EQ(ncclDistance(PathType::kSys), 5u);
  EXPECT_FALSE(ncclDistance(PathType::kUnknown).has_value());
  EXPECT_FALSE(ncclDistance(PathType::kSelf).has_value());
}

}  // namespace
}  // namespace rdmagw::southbound::gpu
