// Pod attribution as the gateway runs it (PodAttributionSource), end to end
// but for the kernel: the fake kubelet's real gRPC on a unix socket, a
// /proc-shaped tree with pods' processes and pinned netns, the pod log
// directories and an SR-IOV sysfs tree; the batch goes into a real Store.
// One pod of each mode: hostNetwork (its VF's netdev on the host), shared
// (a shared plugin slot) and a VF pod whose netns cannot be entered (these
// netns are plain files), which stays unconfirmed and counts netns-read
// errors. Real netns are entered by k8s_node_test.

#include "southbound/k8s/pod_attribution_source.h"

#include <gtest/gtest.h>

#include <optional>
#include <string>

#include "models/store.h"
#include "sim/k8s/fake_kubelet.h"
#include "southbound/k8s/attribution_leaves.h"
#include "tests/southbound/k8s/node_tree.h"
#include "tests/support/test_support.h"

namespace rdmagw::southbound::k8s {
namespace {

using rdmagw::testing::podCgroup;
using rdmagw::testing::ProcTree;
using rdmagw::testing::SysfsTree;
using rdmagw::testing::TempDir;

constexpr char kVfPod[] = "0e1f2a3b-4c5d-4e6f-8a9b-0c1d2e3f4a5b";
constexpr char kHostPod[] = "11111111-2222-3333-4444-555555555555";
constexpr char kSharedPod[] = "22222222-3333-4444-5555-666666666666";

std::string entry(const std::string& device, const std::string& uid) {
  return "/rdma/devices/device[name=" + device + "]/pods/pod[uid=" + uid + "]/state/";
}

sim::FakePod pod(const std::string& name, const std::string& resource, const std::string& device) {
  return sim::FakePod{"ml", name, {sim::FakeContainer{"main", {sim::FakeDevices{resource, {device}, {0}}}}}};
}

class PodAttributionSourceTest : public ::testing::Test {
 protected:
  void SetUp() override {
    sysfs_.device("0000:3b:00.0");
    sysfs_.entry("0000:3b:00.0", "infiniband", "mlx5_0");
    sysfs_.vf("0000:3b:00.0", 0, "0000:3b:00.2");  // moved into its pod: the host sees neither
    sysfs_.vf("0000:3b:00.0", 1, "0000:3b:00.3");  // the hostNetwork pod's
    sysfs_.entry("0000:3b:00.3", "infiniband", "mlx5_3");
    sysfs_.entry("0000:3b:00.3", "net", "ens1f0v1");

    proc_.process(1, "host", "0::/init.scope\n");
    proc_.namespaceFile("vf-pod");
    proc_.pin("vf-pod", "run/netns/cni-1111");
    proc_.process(100, "vf-pod", podCgroup(kVfPod));
    proc_.process(200, "host", podCgroup(kHostPod));  // hostNetwork
    for (const auto& [name, uid] : {std::pair{"vf-0", kVfPod}, {"host-0", kHostPod}, {"shared-0", kSharedPod}}) {
      ASSERT_TRUE(std::filesystem::create_directories(logs_.file(std::string("ml_") + name + "_" + uid)));
    }
    kubelet_.setPods({pod("vf-0", "nvidia.com/sriov_rdma_vf", "0000:3b:00.2"),
                      pod("host-0", "nvidia.com/sriov_rdma_vf", "0000:3b:00.3"),
                      pod("shared-0", "rdma/hca_shared_devices_a", "3")});
    ASSERT_EQ(kubelet_.start(), "");

    KubernetesConfig config;
    config.enabled = true;
    config.kubelet_socket = socket_;
    config.kubelet_timeout = std::chrono::milliseconds(2000);
    config.netns_dirs = {proc_.file("run/netns")};
    config.pod_logs_dir = logs_.path();
    config.proc_root = proc_.file("proc");
    ASSERT_TRUE(config.validate().isOk()) << config.validate().message();
    config_ = config;
    source_.emplace(nullptr, config, sysfs_.sysRoot());
  }

  PollBatch poll() {
    PollBatch batch;
    EXPECT_TRUE(source_->poll(batch).isOk());
    const Store::ApplyResult applied = store_.apply("node01", batch);
    EXPECT_EQ(applied.rejected, 0u) << applied.first_error;
    return batch;
  }
  std::optional<Value> leaf(const std::string& path) const {
    std::optional<SeriesSnapshot> s = store_.get("node01", path);
    return s ? std::optional(s->value) : std::nullopt;
  }
  std::string text(const std::string& path) const {
    std::optional<Value> v = leaf(path);
    const std::string* s = v ? std::get_if<std::string>(&*v) : nullptr;
    return s != nullptr ? *s : "<absent>";
  }
  uint64_t number(const std::string& path) const {
    std::optional<Value> v = leaf(path);
    const uint64_t* n = v ? std::get_if<uint64_t>(&*v) : nullptr;
    return n != nullptr ? *n : UINT64_MAX;
  }

  SysfsTree sysfs_;
  ProcTree proc_;
  TempDir logs_{"k8s-pod-logs"};
  TempDir sock_dir_{"k8s-kubelet"};
  std::string socket_ = sock_dir_.file("kubelet.sock");
  sim::FakeKubelet kubelet_{socket_};
  KubernetesConfig config_;
  std::optional<PodAttributionSource> source_;
  Store store_;
};

TEST_F(PodAttributionSourceTest, EachModeLandsUnderItsDeviceWithItsPod) {
  const PollBatch batch = poll();
  const std::string host = entry("mlx5_3", kHostPod);
  EXPECT_EQ(text(host + "mode"), "host-network");
  EXPECT_EQ(text(host + "container"), "main");
  EXPECT_EQ(text(host + "pod"), "host-0");
  EXPECT_EQ(text(host + "namespace"), "ml");
  EXPECT_EQ(text(host + "netdev"), "ens1f0v1");
  EXPECT_EQ(text(host + "pci"), "0000:3b:00.3");
  EXPECT_EQ(text(host + "pf"), "0000:3b:00.0");
  EXPECT_EQ(text(host + "vf"), "1");
  // A shared slot names no HCA: the entry is named by the slot.
  const std::string shared = entry("3", kSharedPod);
  EXPECT_EQ(text(shared + "mode"), "shared");
  EXPECT_EQ(text(shared + "resource"), "rdma/hca_shared_devices_a");
  // The host cannot see the moved VF's RDMA device: named by its PCI
  // address; its netns is no netns here, so it stays unconfirmed.
  const std::string vf = entry("0000:3b:00.2", kVfPod);
  EXPECT_EQ(text(vf + "mode"), "unconfirmed");
  EXPECT_EQ(text(vf + "pod"), "vf-0");
  EXPECT_EQ(text(vf + "netdev"), "");

  EXPECT_EQ(number("/rdma/kubernetes/state/podresources-up"), 1u);
  EXPECT_EQ(number("/rdma/kubernetes/state/pods"), 3u);
  EXPECT_EQ(number("/rdma/kubernetes/state/devices-attributed"), 2u);
  EXPECT_EQ(number("/rdma/kubernetes/unattributed/reason[name=device-unconfirmed]/state/count"), 1u);
  EXPECT_EQ(number("/rdma/kubernetes/unattributed/reason[name=netns-unreadable]/state/count"), 1u);
  EXPECT_EQ(number("/rdma/kubernetes/errors/stage[name=netns-read]/state/count"), 1u);
  EXPECT_EQ(number("/rdma/kubernetes/errors/stage[name=podresources]/state/count"), 0u);
  ASSERT_FALSE(batch.errors.empty());
  EXPECT_NE(batch.errors.front().find("netns-read"), std::string::npos) << batch.errors.front();
}

TEST_F(PodAttributionSourceTest, AGonePodLeavesWithTheNextPollAndAKubeletDownKeepsTheLast) {
  poll();
  ASSERT_EQ(text(entry("3", kSharedPod) + "pod"), "shared-0");
  kubelet_.setPods({pod("host-0", "nvidia.com/sriov_rdma_vf", "0000:3b:00.3")});
  poll();
  EXPECT_EQ(text(entry("3", kSharedPod) + "pod"), "<absent>");
  EXPECT_EQ(text(entry("0000:3b:00.2", kVfPod) + "pod"), "<absent>");
  EXPECT_EQ(text(entry("mlx5_3", kHostPod) + "pod"), "host-0");
  EXPECT_EQ(number("/rdma/kubernetes/state/pods"), 1u);

  kubelet_.stop();  // deletes the socket, as a restarting kubelet does
  const PollBatch down = poll();
  EXPECT_EQ(number("/rdma/kubernetes/state/podresources-up"), 0u);
  EXPECT_EQ(number("/rdma/kubernetes/errors/stage[name=podresources]/state/count"), 1u);
  EXPECT_EQ(text(entry("mlx5_3", kHostPod) + "pod"), "host-0") << "kept while the kubelet is away";
  ASSERT_FALSE(down.errors.empty());
  EXPECT_NE(down.errors.front().find("kubernetes podresources"), std::string::npos) << down.errors.front();

  kubelet_.setPods({});
  ASSERT_EQ(kubelet_.start(), "");
  poll();
  EXPECT_EQ(number("/rdma/kubernetes/state/podresources-up"), 1u);
  EXPECT_EQ(text(entry("mlx5_3", kHostPod) + "pod"), "<absent>");
}

// The PF's VF statistics: off by default on a tree that is not /sys (its
// netdevs are not this kernel's); on, a PF netdev the kernel does not have
// is a vf-stats error and writes no VF.
TEST_F(PodAttributionSourceTest, VfStatsAreAskedOfThePfsNetdevWhenOn) {
  sysfs_.entry("0000:3b:00.0", "net", "rdmagw-none0");
  poll();
  EXPECT_EQ(number("/rdma/kubernetes/errors/stage[name=vf-stats]/state/count"), 0u);
  EXPECT_EQ(text(entry("mlx5_3", kHostPod) + "pf-device"), "mlx5_0");

  config_.vf_stats = "on";
  source_.emplace(nullptr, config_, sysfs_.sysRoot());
  const PollBatch batch = poll();
  EXPECT_EQ(number("/rdma/kubernetes/errors/stage[name=vf-stats]/state/count"), 1u);
  bool named = false;
  for (const std::string& e : batch.errors) named |= e.find("vf-stats: PF 0000:3b:00.0") != std::string::npos;
  EXPECT_TRUE(named) << ::testing::PrintToString(batch.errors);
  EXPECT_EQ(number("/rdma/devices/device[name=mlx5_0]/vfs/vf[index=0]/state/rx-bytes"), UINT64_MAX);
}

TEST(KubernetesConfigTest, RelativePathsAndShortTimeoutsAreRefusedByName) {
  KubernetesConfig c;
  EXPECT_TRUE(c.validate().isOk()) << "off: nothing to check";
  c.enabled = true;
  EXPECT_TRUE(c.validate().isOk()) << c.validate().message();
  c.pod_logs_dir = "var/log/pods";
  EXPECT_NE(c.validate().message().find("kubernetes.pod_logs_dir"), std::string::npos) << c.validate().message();
  c.pod_logs_dir = "/var/log/pods";
  c.vf_stats = "yes";
  EXPECT_NE(c.validate().message().find("kubernetes.vf_stats"), std::string::npos) << c.validate().message();
  c.vf_stats = "auto";
  c.netns_dirs = {};
  EXPECT_NE(c.validate().message().find("netns_dirs"), std::string::npos) << c.validate().message();
  c.netns_dirs = {"/var/run/netns"};
  c.kubelet_timeout = std::chrono::milliseconds(10);
  EXPECT_NE(c.validate().message().find("kubelet_timeout"), std::string::npos) << c.validate().message();
}

}  // namespace
}  // namespace rdmagw::southbound::k8s
