// The join of kubelet assignments with the node's own facts, table-driven:
// each mode, and each reason a device stays unattributed. The netns reading
// is a table too; the real one is tested in netns_netdevs_test.cc.

#include "southbound/k8s/attribution.h"

#include <gtest/gtest.h>

#include <map>
#include <string>
#include <vector>

namespace rdmagw::southbound::k8s {
namespace {

constexpr char kTrainer0[] = "0e1f2a3b-4c5d-4e6f-8a9b-0c1d2e3f4a5b";
constexpr char kTrainer1[] = "11111111-2222-3333-4444-555555555555";
constexpr char kAgent[] = "22222222-3333-4444-5555-666666666666";
constexpr char kSharedA[] = "33333333-4444-5555-6666-777777777777";
constexpr char kSharedB[] = "44444444-5555-6666-7777-888888888888";
constexpr char kOldRecreated[] = "55555555-6666-7777-8888-999999999999";
constexpr char kNewRecreated[] = "66666666-7777-8888-9999-aaaaaaaaaaaa";
constexpr char kNowhere[] = "77777777-8888-9999-aaaa-bbbbbbbbbbbb";
constexpr char kBroken[] = "88888888-9999-aaaa-bbbb-cccccccccccc";

PciAddress pci(const std::string& text) { return parsePciAddress(text).value(); }

PodAssignment pod(const std::string& ns, const std::string& name,
                  const std::vector<std::pair<std::string, std::string>>& resource_and_ids) {
  ContainerAssignment container{"main", {}};
  for (const auto& [resource, id] : resource_and_ids) {
    container.devices.push_back(AssignedDevices{resource, {classifyDeviceId(resource, id)}, {}});
  }
  return PodAssignment{ns, name, {container}};
}

PodSandboxNetns sandbox(const std::string& path, std::vector<std::string> uids) {
  const NetnsOwnership ownership = uids.empty()       ? NetnsOwnership::kNoPod
                                   : uids.size() == 1 ? NetnsOwnership::kOnePod
                                                      : NetnsOwnership::kSeveralPods;
  return PodSandboxNetns{path, {}, ownership, std::move(uids), {}};
}

PciFunction function(const std::string& addr, std::optional<uint32_t> vf_index, std::vector<std::string> rdma,
                     std::vector<std::string> netdevs) {
  PciFunction f;
  f.address = pci(addr);
  if (vf_index) f.physfn = pci("0000:3b:00.0");
  f.vf_index = vf_index;
  f.rdma_devices = std::move(rdma);
  f.netdevs = std::move(netdevs);
  return f;
}

NodeFacts node() {
  NodeFacts facts;
  const std::string sriov = "nvidia.com/cx7_sriov_rdma";
  facts.pods = {
      pod("rdma-jobs", "trainer-0",
          {{sriov, "0000:3b:00.3"}, {"rdma/hca_shared_devices_a", "3"}, {"nvidia.com/gpu", "GPU-5a0e6e0b-4a2c-7f37-1c55-3f8d0a1b2c3d"},
           {sriov, "0000:af:00.1"}, {"example.com/thing", "weird"}}),
      pod("rdma-jobs", "trainer-1", {{sriov, "0000:3b:00.5"}}),
      pod("kube-system", "rdma-agent", {{sriov, "0000:3b:00.2"}}),
      pod("default", "shared-a", {{sriov, "0000:3b:00.4"}}),
      pod("default", "shared-b", {}),
      pod("default", "ghost", {{sriov, "0000:3b:00.4"}}),
      pod("default", "recreated-0", {{"nvidia.com/sf", "mlx5_core.sf.4"}}),
      pod("default", "nowhere", {{"rdma/hca_shared_devices_a", "0"}}),
      pod("default", "broken", {{sriov, "0000:3b:00.5"}}),
  };
  facts.identities = {{"rdma-jobs", "trainer-0", kTrainer0},         {"rdma-jobs", "trainer-1", kTrainer1},
                      {"kube-system", "rdma-agent", kAgent},         {"default", "shared-a", kSharedA},
                      {"default", "shared-b", kSharedB},             {"default", "recreated-0", kOldRecreated},
                      {"default", "recreated-0", kNewRecreated},     {"default", "nowhere", kNowhere},
                      {"default", "broken", kBroken}};
  facts.netns.sandboxes = {sandbox("/run/netns/cni-t0", {kTrainer0}), sandbox("/run/netns/cni-t1", {kTrainer1}),
                           sandbox("/run/netns/cni-shared", {kSharedA, kSharedB}),
                           sandbox("/run/netns/cni-new", {kNewRecreated}), sandbox("/run/netns/cni-stale", {}),
                           sandbox("/run/netns/cni-broken", {kBroken})};
  facts.netns.host_network_pods = {{kAgent, {4242}}};
  PhysicalFunction pf{function("0000:3b:00.0", std::nullopt, {"mlx5_0"}, {"ens1f0np0"}), {}};
  pf.vfs = {function("0000:3b:00.2", 0, {"mlx5_2"}, {"ens1f0v0"}), function("0000:3b:00.3", 1, {}, {}),
            function("0000:3b:00.4", 2, {"mlx5_4"}, {}), function("0000:3b:00.5", 3, {"mlx5_5"}, {"ens1f0v3"})};
  facts.sriov = {pf};
  return facts;
}

// What each netns holds, as listNetnsNetdevs would say.
class NetnsTable {
 public:
  NetnsNetdevLookup lookup() {
    return [this](const std::string& path) -> Result<std::vector<NetnsNetdev>> {
      ++calls[path];
      if (path == "/run/netns/cni-broken") return Status::unavailable("cannot enter " + path);
      const std::vector<NetnsNetdev> lo = {{"lo", 1, "", "", "no driver"}};
      std::vector<NetnsNetdev> out = lo;
      if (path == "/run/netns/cni-t0") out.push_back({"net1", 3, "mlx5_core", "0000:3b:00.3", ""});
      // trainer-1's netns holds a VF, but not the one the kubelet gave it.
      if (path == "/run/netns/cni-t1") out.push_back({"net1", 3, "mlx5_core", "0000:5e:00.1", ""});
      if (path == "/run/netns/cni-shared") out.push_back({"net1", 3, "mlx5_core", "0000:3b:00.4", ""});
      if (path == "/run/netns/cni-new") out.push_back({"net1", 5, "mlx5_core", "mlx5_core.sf.4", ""});
      return out;
    };
  }
  std::map<std::string, int> calls;
};

// One line naming every counter, so a failure says which one differs.
std::string describe(const AttributionCounters& c) {
  return "pods_without_uid=" + std::to_string(c.pods_without_uid) +
         " pods_with_ambiguous_uid=" + std::to_string(c.pods_with_ambiguous_uid) +
         " pods_without_netns=" + std::to_string(c.pods_without_netns) +
         " netns_of_several_pods=" + std::to_string(c.netns_of_several_pods) +
         " netns_of_no_pod=" + std::to_string(c.netns_of_no_pod) +
         " netns_unreadable=" + std::to_string(c.netns_unreadable) +
         " devices_unconfirmed=" + std::to_string(c.devices_unconfirmed) +
         " devices_not_in_sysfs=" + std::to_string(c.devices_not_in_sysfs) +
         " devices_not_network=" + std::to_string(c.devices_not_network) +
         " devices_unknown=" + std::to_string(c.devices_unknown);
}

const AttributionRow* rowFor(const Attribution& a, const std::string& pod_name, const std::string& device_id) {
  for (const AttributionRow& row : a.rows) {
    if (row.pod_name == pod_name && row.device_id == device_id) return &row;
  }
  return nullptr;
}

TEST(AttributionTest, EachModeAndWhyTheRestIsNot) {
  NetnsTable table;
  const Attribution a = attributeDevices(node(), table.lookup());

  struct Expect {
    std::string pod, device, mode, uid, netdev, netns, rdma;
  };
  const std::vector<Expect> expected = {
      {"trainer-0", "0000:3b:00.3", "exclusive", kTrainer0, "net1", "/run/netns/cni-t0", ""},
      {"trainer-0", "3", "shared", kTrainer0, "", "", ""},
      {"trainer-0", "0000:af:00.1", "unconfirmed", kTrainer0, "", "", ""},  // not in sysfs either
      {"trainer-1", "0000:3b:00.5", "unconfirmed", kTrainer1, "", "", "mlx5_5"},
      {"rdma-agent", "0000:3b:00.2", "host-network", kAgent, "ens1f0v0", "", "mlx5_2"},
      {"shared-a", "0000:3b:00.4", "unconfirmed", kSharedA, "", "", "mlx5_4"},  // its netns is two pods'
      {"ghost", "0000:3b:00.4", "unconfirmed", "", "", "", "mlx5_4"},
      {"recreated-0", "mlx5_core.sf.4", "exclusive", kNewRecreated, "net1", "/run/netns/cni-new", ""},
      {"nowhere", "0", "shared", kNowhere, "", "", ""},
      {"broken", "0000:3b:00.5", "unconfirmed", kBroken, "", "", "mlx5_5"},
  };
  EXPECT_EQ(a.rows.size(), expected.size());
  for (const Expect& e : expected) {
    SCOPED_TRACE(e.pod + " " + e.device);
    const AttributionRow* row = rowFor(a, e.pod, e.device);
    ASSERT_NE(row, nullptr);
    EXPECT_EQ(attributionModeName(row->mode), e.mode);
    EXPECT_EQ(row->pod_uid, e.uid);
    EXPECT_EQ(row->netdev, e.netdev);
    EXPECT_EQ(row->netns, e.netns);
    EXPECT_EQ(row->rdma_device, e.rdma);
    EXPECT_EQ(row->container, "main");
  }
  const AttributionRow* vf = rowFor(a, "trainer-0", "0000:3b:00.3");
  ASSERT_NE(vf, nullptr);
  AttributionRow whole;
  whole.pod_namespace = "rdma-jobs";
  whole.pod_name = "trainer-0";
  whole.container = "main";
  whole.pod_uid = kTrainer0;
  whole.resource = "nvidia.com/cx7_sriov_rdma";
  whole.device_kind = DeviceKind::kPciFunction;
  whole.device_id = "0000:3b:00.3";
  whole.pci = "0000:3b:00.3";
  whole.pf = "0000:3b:00.0";
  whole.vf_index = 1;
  whole.netdev = "net1";
  whole.netns = "/run/netns/cni-t0";
  whole.uplink = "ens1f0np0";  // the PF's: the VF's traffic leaves by its cable
  whole.pf_device = "mlx5_0";  // the PF's RDMA device, whose counters are joined by it
  whole.mode = AttributionMode::kExclusive;
  EXPECT_EQ(*vf, whole);
  const AttributionRow* agent = rowFor(a, "rdma-agent", "0000:3b:00.2");
  ASSERT_NE(agent, nullptr);
  EXPECT_EQ(agent->uplink, "ens1f0np0");  // its own netdev is the VF's, not cabled
  const AttributionRow* elsewhere = rowFor(a, "trainer-0", "0000:af:00.1");
  ASSERT_NE(elsewhere, nullptr);
  EXPECT_EQ(elsewhere->uplink, "");  // sysfs does not list the function
  EXPECT_EQ(elsewhere->pf_device, "");

  AttributionCounters counters;
  counters.pods_without_uid = 1;         // ghost
  counters.pods_with_ambiguous_uid = 0;  // recreated-0 is told apart by its netns
  counters.pods_without_netns = 3;       // nowhere; shared-a and -b, whose netns is both's
  counters.netns_of_several_pods = 1;    // cni-shared
  counters.netns_of_no_pod = 1;          // cni-stale
  counters.netns_unreadable = 1;         // cni-broken
  counters.devices_unconfirmed = 5;
  counters.devices_not_in_sysfs = 1;  // 0000:af:00.1
  counters.devices_not_network = 1;   // the GPU
  counters.devices_unknown = 1;       // "weird"
  EXPECT_EQ(describe(a.unattributed), describe(counters));
}

TEST(AttributionTest, ANetnsOfSeveralPodsIsNeverEntered) {
  NetnsTable table;
  attributeDevices(node(), table.lookup());
  EXPECT_EQ(table.calls.count("/run/netns/cni-shared"), 0u);
  EXPECT_EQ(table.calls.count("/run/netns/cni-stale"), 0u);
  for (const auto& [path, calls] : table.calls) EXPECT_EQ(calls, 1) << path << " was read more than once";
}

TEST(AttributionTest, TwoUidsWithoutANetnsToTellThemApartAreAmbiguous) {
  NodeFacts facts;
  facts.pods = {pod("default", "web-0", {{"nvidia.com/sriov", "0000:3b:00.2"}})};
  facts.identities = {{"default", "web-0", kOldRecreated}, {"default", "web-0", kNewRecreated}};
  NetnsTable table;
  const Attribution a = attributeDevices(facts, table.lookup());
  ASSERT_EQ(a.rows.size(), 1u);
  EXPECT_EQ(a.rows[0].pod_uid, "");
  EXPECT_EQ(a.rows[0].mode, AttributionMode::kUnconfirmed);
  EXPECT_EQ(a.unattributed.pods_with_ambiguous_uid, 1u);
  EXPECT_EQ(a.unattributed.devices_not_in_sysfs, 1u);
  EXPECT_TRUE(table.calls.empty());
}

TEST(AttributionTest, AHostNetworkPodWhoseVfHasNoHostNetdevIsUnconfirmed) {
  NodeFacts facts = node();
  facts.pods = {pod("kube-system", "rdma-agent", {{"nvidia.com/sriov", "0000:3b:00.3"}})};
  NetnsTable table;
  const Attribution a = attributeDevices(facts, table.lookup());
  ASSERT_EQ(a.rows.size(), 1u);
  EXPECT_EQ(a.rows[0].mode, AttributionMode::kUnconfirmed);
  EXPECT_EQ(a.rows[0].netdev, "");
}

}  // namespace
}  // namespace rdmagw::southbound::k8s
