// The counters of devices moved into pods' netns, read through one handle
// per netns: here the handles are made over in-memory sysfs trees shaped
// like a netns's (no RDMA core on this machine), so what is tested is the
// choice of the pod's device, the paths its counters take (the host
// collector's), the netdev's node-unique name, and the handles' lifetime.
// Real netns, mounts and sockets: pod_netns_handle_test.cc.

#include "southbound/k8s/pod_netns_counters.h"

#include <gtest/gtest.h>
#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <map>
#include <string>

#include "southbound/rdma/ib_updates.h"
#include "southbound/rdma/memory_sysfs_reader.h"
#include "tests/support/test_support.h"

namespace rdmagw::southbound::k8s {
namespace {

using rdmagw::testing::TempDir;
using rdmagw::testing::writeFile;

// ethtool -S of a netns: a table per netdev name.
class TableEthtool : public rdma::EthtoolSource {
 public:
  explicit TableEthtool(std::map<std::string, rdma::EthtoolStats> stats) : stats_(std::move(stats)) {}
  Result<rdma::EthtoolStats> stats(const std::string& netdev) override {
    auto it = stats_.find(netdev);
    if (it == stats_.end()) return Status::notFound("no netdev " + netdev);
    return it->second;
  }

 private:
  std::map<std::string, rdma::EthtoolStats> stats_;
};

// A pod's netns as its sysfs shows it: "net1", and when `rdma_device` is
// set, that VF's RDMA device with a RoCE port whose GID names net1.
std::unique_ptr<rdma::MemorySysfsReader> podSysfs(const std::string& pci, const std::string& rdma_device,
                                                  uint64_t rx_octets) {
  auto sysfs = std::make_unique<rdma::MemorySysfsReader>();
  sysfs->addFile("class/net/net1/mtu", "9000\n");
  sysfs->addFile("class/net/net1/operstate", "up\n");
  sysfs->addFile("class/net/net1/flags", "0x1003\n");
  sysfs->addFile("class/net/net1/speed", "100000\n");
  if (!rdma_device.empty()) {
    const std::string dev = "class/infiniband/" + rdma_device;
    sysfs->addFile(dev + "/device/uevent", "DRIVER=mlx5_core\nPCI_SLOT_NAME=" + pci + "\n");
    sysfs->addFile(dev + "/fw_ver", "28.39.1002\n");
    sysfs->addFile(dev + "/ports/1/state", "4: ACTIVE\n");
    sysfs->addFile(dev + "/ports/1/link_layer", "Ethernet\n");
    sysfs->addFile(dev + "/ports/1/gid_attrs/ndevs/0", "net1\n");
    sysfs->addFile(dev + "/ports/1/counters/port_rcv_data", std::to_string(rx_octets / 4) + "\n");
    sysfs->addFile(dev + "/hw_counters/out_of_buffer", "7\n");
    // Another function's device in the same netns is not this row's.
    sysfs->addFile("class/infiniband/mlx5_9/device/uevent", "PCI_SLOT_NAME=0000:af:00.7\n");
  }
  return sysfs;
}

AttributionRow exclusiveRow(const std::string& netns, const std::string& pci, const std::string& pod) {
  AttributionRow row;
  row.pod_namespace = "ml";
  row.pod_name = pod;
  row.container = "main";
  row.pod_uid = pod + "-uid";
  row.device_kind = DeviceKind::kPciFunction;
  row.device_id = pci;
  row.pci = pci;
  row.netdev = "net1";
  row.netns = netns;
  row.mode = AttributionMode::kExclusive;
  return row;
}

bool has(const PollBatch& batch, const std::string& path) {
  return std::any_of(batch.updates.begin(), batch.updates.end(), [&](const Update& u) { return u.path == path; });
}
std::string stringAt(const PollBatch& batch, const std::string& path) {
  for (const Update& u : batch.updates) {
    if (u.path == path) {
      const std::string* s = std::get_if<std::string>(&u.value);
      return s ? *s : "<not a string>";
    }
  }
  return "<absent>";
}
bool anyUnder(const PollBatch& batch, const std::string& prefix) {
  return std::any_of(batch.updates.begin(), batch.updates.end(),
                     [&](const Update& u) { return u.path.starts_with(prefix); });
}

class PodNetnsCountersTest : public ::testing::Test {
 protected:
  void SetUp() override {
    // Netns files: only their inodes matter to the source.
    ASSERT_TRUE(writeFile(netnsA_, ""));
    ASSERT_TRUE(writeFile(netnsB_, ""));
  }
  PodNetnsOpener opener() {
    return [this](const std::string& path) -> Result<std::unique_ptr<PodNetnsHandle>> {
      ++opens_[path];
      Result<NetnsId> id = netnsIdOf(path);
      if (!id.isOk()) return id.status();
      const bool a = path == netnsA_;
      auto sysfs = podSysfs(a ? kPciA : kPciB, a ? "mlx5_5" : "", 4000 * opens_[path]);
      auto ethtool = std::make_unique<TableEthtool>(
          std::map<std::string, rdma::EthtoolStats>{{"net1", {{"rx_bytes", a ? 111u : 222u}}}});
      return std::make_unique<PodNetnsHandle>(id.value(), std::move(sysfs), std::move(ethtool));
    };
  }

  static constexpr char kPciA[] = "0000:3b:00.2";
  static constexpr char kPciB[] = "0000:3b:00.3";
  TempDir dir_{"k8s-pod-netns-counters"};
  std::string netnsA_ = dir_.file("cni-a");
  std::string netnsB_ = dir_.file("cni-b");
  std::map<std::string, int> opens_;
};

TEST_F(PodNetnsCountersTest, ThePodsDeviceIsReadWhereTheHostReadsItsOwnAndTwoNet1sStayApart) {
  const int handles_before = PodNetnsHandle::openCount();
  PodNetnsCounters counters(opener(), [] { return TimestampNs(42); });
  std::vector<AttributionRow> rows = {exclusiveRow(netnsA_, kPciA, "a"), exclusiveRow(netnsB_, kPciB, "b")};
  PollBatch batch;
  EXPECT_TRUE(counters.poll(rows, batch).empty());
  EXPECT_EQ(counters.openHandles(), 2u);
  EXPECT_EQ(PodNetnsHandle::openCount(), handles_before + 2);

  // Pod a's VF: its RDMA device found by PCI address, not mlx5_9.
  EXPECT_EQ(rows[0].rdma_device, "mlx5_5");
  EXPECT_EQ(rows[1].rdma_device, "") << "no RDMA device in b's netns";
  const std::string port = "/rdma/devices/device[name=mlx5_5]/ports/port[port-num=1]/";
  EXPECT_TRUE(anyUnder(batch, port)) << "no port leaves";
  EXPECT_FALSE(anyUnder(batch, "/rdma/devices/device[name=mlx5_9]"));
  EXPECT_EQ(stringAt(batch, rdma::portPath("mlx5_5", 1, "netdev")), "net1@0000:3b:00.2");
  EXPECT_EQ(stringAt(batch, rdma::devicePath("mlx5_5", "fw-version")), "28.39.1002");
  // Each pod's net1 under its own name, read through its own netns.
  const std::string a = "/interfaces/interface[name=net1@0000:3b:00.2]/";
  const std::string b = "/interfaces/interface[name=net1@0000:3b:00.3]/";
  EXPECT_TRUE(has(batch, a + "state/counters/in-octets"));
  EXPECT_TRUE(has(batch, b + "state/counters/in-octets"));
  EXPECT_TRUE(has(batch, a + "state/mtu"));
  EXPECT_TRUE(has(batch, b + "state/oper-status"));
  EXPECT_FALSE(anyUnder(batch, "/interfaces/interface[name=net1]")) << "a bare net1 would collide";
  for (const Update& u : batch.updates) {
    if (u.path == a + "state/counters/in-octets") EXPECT_EQ(std::get<uint64_t>(u.value), 111u);
    if (u.path == b + "state/counters/in-octets") EXPECT_EQ(std::get<uint64_t>(u.value), 222u);
  }
  EXPECT_TRUE(batch.replaced.empty());
}

TEST_F(PodNetnsCountersTest, AHandleIsOpenedOnceClosedWithItsPodAndReopenedForANewNetnsAtTheSamePath) {
  const int handles_before = PodNetnsHandle::openCount();
  {
    PodNetnsCounters counters(opener());
    std::vector<AttributionRow> both = {exclusiveRow(netnsA_, kPciA, "a"), exclusiveRow(netnsB_, kPciB, "b")};
    for (int i = 0; i < 3; ++i) {
      std::vector<AttributionRow> rows = both;
      PollBatch batch;
      counters.poll(rows, batch);
    }
    EXPECT_EQ(opens_[netnsA_], 1);
    EXPECT_EQ(opens_[netnsB_], 1);

    // Pod a goes: its handle closes with this poll, what it wrote goes too.
    std::vector<AttributionRow> rows = {both[1]};
    PollBatch gone;
    counters.poll(rows, gone);
    EXPECT_EQ(counters.openHandles(), 1u);
    EXPECT_EQ(PodNetnsHandle::openCount(), handles_before + 1);
    const auto replaced = [&](const std::string& root) {
      return std::find(gone.replaced.begin(), gone.replaced.end(), root) != gone.replaced.end();
    };
    EXPECT_TRUE(replaced("/rdma/devices/device[name=mlx5_5]"));
    EXPECT_TRUE(replaced("/interfaces/interface[name=net1@0000:3b:00.2]"));
    EXPECT_FALSE(replaced("/interfaces/interface[name=net1@0000:3b:00.3]"));

    // b's pod re-created: a new netns (another inode) at the same path.
    // (Made before the old one goes, or the old inode number may be reused.)
    ASSERT_TRUE(writeFile(netnsB_ + ".new", ""));
    ASSERT_EQ(::rename((netnsB_ + ".new").c_str(), netnsB_.c_str()), 0);
    rows = {both[1]};
    PollBatch again;
    counters.poll(rows, again);
    EXPECT_EQ(opens_[netnsB_], 2);
    EXPECT_EQ(counters.openHandles(), 1u);

    // A netns that vanished: an error, no handle.
    ASSERT_EQ(::unlink(netnsB_.c_str()), 0);
    rows = {both[1]};
    PollBatch missing;
    const std::vector<Status> failures = counters.poll(rows, missing);
    ASSERT_EQ(failures.size(), 1u);
    EXPECT_EQ(failures[0].code(), Status::Code::kNotFound) << failures[0].toString();
    EXPECT_EQ(counters.openHandles(), 0u);
  }
  EXPECT_EQ(PodNetnsHandle::openCount(), handles_before);
}

TEST_F(PodNetnsCountersTest, RowsNotExclusiveOrWithoutANetnsOpenNothing) {
  PodNetnsCounters counters(opener());
  AttributionRow host = exclusiveRow("", kPciA, "h");
  host.mode = AttributionMode::kHostNetwork;
  AttributionRow unconfirmed = exclusiveRow(netnsA_, kPciA, "u");
  unconfirmed.mode = AttributionMode::kUnconfirmed;
  std::vector<AttributionRow> rows = {host, unconfirmed, exclusiveRow("", kPciB, "x")};
  PollBatch batch;
  EXPECT_TRUE(counters.poll(rows, batch).empty());
  EXPECT_TRUE(batch.updates.empty());
  EXPECT_TRUE(opens_.empty());
}

}  // namespace
}  // namespace rdmagw::southbound::k8s
