// The simulated node's pod churn as an operator meets it, through the
// gateway's attribution into a real Store: a pod deleted and re-created
// with the same name on another VF, and a VF handed from one pod to
// another. After one poll, no entry names the old pod or UID.

#include <gtest/gtest.h>

#include <memory>
#include <string>

#include "models/store.h"
#include "sim/fabric.h"
#include "sim/k8s/sim_node.h"
#include "southbound/k8s/pod_attribution_source.h"
#include "tests/support/test_support.h"

namespace rdmagw::southbound::k8s {
namespace {

using rdmagw::testing::TempDir;

constexpr char kFirstUid[] = "aaaaaaaa-0000-4000-8000-000000000001";
constexpr char kSecondUid[] = "aaaaaaaa-0000-4000-8000-000000000002";
constexpr char kOtherUid[] = "bbbbbbbb-0000-4000-8000-000000000003";

class SimNodeScenariosTest : public ::testing::Test {
 protected:
  void SetUp() override {
    sim::FabricConfig cfg;
    cfg.hosts = 1;
    cfg.devices_per_host = 2;
    cfg.switches = 0;
    cfg.esxi_hosts = 0;
    host_ = sim::Fabric(cfg).hosts().front();
    node_ = std::make_unique<sim::SimKubernetesNode>(tmp_.path(), host_);
    ASSERT_TRUE(node_->start().isOk());
    const sim::SimNodePaths p = node_->paths();
    KubernetesConfig config;
    config.enabled = true;
    config.kubelet_socket = p.kubelet_socket;
    config.pod_logs_dir = p.pod_logs_dir;
    config.proc_root = p.proc_root;
    config.netns_dirs = {p.netns_dir};
    config.host_netns_file = p.host_netns_file;
    source_ = std::make_unique<PodAttributionSource>(nullptr, config, p.sysfs_root);
  }

  sim::SimPod pod(const std::string& name, const std::string& uid, int vf) const {
    return {"training", name, uid, "nvidia.com/sriov_rdma_vf", {sim::SimKubernetesNode::vfAddress(0, vf)}, 0};
  }

  void poll() {
    PollBatch batch;
    ASSERT_TRUE(source_->poll(batch).isOk());
    const Store::ApplyResult applied = store_.apply("node01", batch);
    ASSERT_EQ(applied.rejected, 0u) << applied.first_error;
    ASSERT_TRUE(batch.errors.empty()) << batch.errors.front();
  }

  // "device uid pod" of every pod entry in the store.
  std::vector<std::string> entries() const {
    std::vector<std::string> out;
    const std::string marker = "/pods/pod[uid=";
    for (const SeriesSnapshot& s : store_.snapshot("node01")) {
      if (s.path.find(marker) == std::string::npos || s.path.find("/state/pod") == std::string::npos) continue;
      const size_t name = s.path.find("device[name=") + 12;
      const size_t uid = s.path.find(marker) + marker.size();
      out.push_back(s.path.substr(name, s.path.find(']', name) - name) + " " +
                    s.path.substr(uid, s.path.find(']', uid) - uid) + " " + std::get<std::string>(s.value));
    }
    return out;
  }

  TempDir tmp_{"sim-k8s-node"};
  sim::Host host_;
  std::unique_ptr<sim::SimKubernetesNode> node_;
  std::unique_ptr<PodAttributionSource> source_;
  Store store_;
};

TEST_F(SimNodeScenariosTest, PodRecreatedWithTheSameNameOnAnotherVf) {
  const std::string vf0 = node_->vfRdmaDevice(0, 0), vf1 = node_->vfRdmaDevice(0, 1);
  ASSERT_TRUE(node_->setPods({pod("trainer-0", kFirstUid, 0)}).isOk());
  poll();
  EXPECT_EQ(entries(), (std::vector<std::string>{vf0 + " " + kFirstUid + " trainer-0"}));
  EXPECT_EQ(
      std::get<std::string>(
          store_.get("node01", "/rdma/devices/device[name=" + vf0 + "]/pods/pod[uid=" + kFirstUid + "]/state/mode")
              ->value),
      "host-network");

  // The StatefulSet's pod comes back: same name, new UID, the other VF.
  ASSERT_TRUE(node_->setPods({pod("trainer-0", kSecondUid, 1)}).isOk());
  poll();
  EXPECT_EQ(entries(), (std::vector<std::string>{vf1 + " " + kSecondUid + " trainer-0"}));
}

TEST_F(SimNodeScenariosTest, VfReassignedToAnotherPod) {
  const std::string vf0 = node_->vfRdmaDevice(0, 0);
  ASSERT_TRUE(node_->setPods({pod("trainer-0", kFirstUid, 0)}).isOk());
  poll();
  ASSERT_EQ(entries(), (std::vector<std::string>{vf0 + " " + kFirstUid + " trainer-0"}));

  ASSERT_TRUE(node_->setPods({pod("evaluator-0", kOtherUid, 0)}).isOk());
  poll();
  EXPECT_EQ(entries(), (std::vector<std::string>{vf0 + " " + kOtherUid + " evaluator-0"}));
}

}  // namespace
}  // namespace rdmagw::southbound::k8s
