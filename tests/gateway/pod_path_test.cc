#include "gateway/cli/pod_path.h"

#include <gtest/gtest.h>

#include <string>
#include <utility>
#include <vector>

namespace rdmagw::gateway {
namespace {

// A gNMI path from "a/b[k=v]/c" text, as the gateway's server writes it.
::gnmi::Path gnmiPath(const std::string& text) {
  ::gnmi::Path p;
  size_t pos = 0;
  while (pos < text.size()) {
    size_t end = pos;
    int depth = 0;
    while (end < text.size() && (text[end] != '/' || depth > 0)) {
      depth += text[end] == '[' ? 1 : text[end] == ']' ? -1 : 0;
      ++end;
    }
    const std::string elem = text.substr(pos, end - pos);
    ::gnmi::PathElem* e = p.add_elem();
    const size_t bracket = elem.find('[');
    e->set_name(elem.substr(0, bracket));
    for (size_t b = bracket; b != std::string::npos; b = elem.find('[', b + 1)) {
      const size_t eq = elem.find('=', b), close = elem.find(']', b);
      (*e->mutable_key())[elem.substr(b + 1, eq - b - 1)] = elem.substr(eq + 1, close - eq - 1);
    }
    pos = end + 1;
  }
  return p;
}

class Reply {
 public:
  Reply& leaf(const std::string& target, const std::string& path, const std::string& value) {
    ::gnmi::Notification* n = reply_.add_notification();
    n->mutable_prefix()->set_target(target);
    ::gnmi::Update* u = n->add_update();
    *u->mutable_path() = gnmiPath(path);
    u->mutable_val()->set_string_val(value);
    return *this;
  }
  Reply& pod(const std::string& target, const std::string& device, const std::string& uid,
             const std::vector<std::pair<std::string, std::string>>& leaves) {
    for (const auto& [name, value] : leaves) {
      leaf(target, "rdmagw-rdma:rdma/devices/device[name=" + device + "]/pods/pod[uid=" + uid + "]/state/" + name,
           value);
    }
    return *this;
  }
  const ::gnmi::GetResponse& get() const { return reply_; }

 private:
  ::gnmi::GetResponse reply_;
};

// Two pods on host01: trainer-0 holds a VF of ens1f0np0 (cabled to leaf01
// Ethernet1/3, where a pause tree is), trainer-1 a VF of ens1f1np1 (cabled
// to Ethernet1/4, where all is clear).
FabricView fabric() {
  Reply r;
  r.leaf("leaf01", "fabric/interfaces/interface[name=Ethernet1/3]/link/state/peer-target", "host01")
      .leaf("leaf01", "fabric/interfaces/interface[name=Ethernet1/3]/link/state/peer-interface", "ens1f0np0")
      .leaf("leaf01", "fabric/interfaces/interface[name=Ethernet1/4]/link/state/peer-target", "host01")
      .leaf("leaf01", "fabric/interfaces/interface[name=Ethernet1/4]/link/state/peer-interface", "ens1f1np1")
      .leaf("leaf01", "fabric/interfaces/interface[name=Ethernet1/3]/priorities/priority[id=3]/state/pause-tree-state",
            "victim")
      .leaf("leaf01", "fabric/interfaces/interface[name=Ethernet1/3]/priorities/priority[id=3]/state/paused-ratio",
            "0.5")
      .leaf("leaf01", "fabric/interfaces/interface[name=Ethernet1/3]/priorities/priority[id=3]/state/pause-tree-roots",
            "leaf01:Ethernet1/9")
      .leaf("leaf01", "fabric/interfaces/interface[name=Ethernet1/4]/priorities/priority[id=3]/state/pause-tree-state",
            "clear")
      .leaf("leaf01", "fabric/interfaces/interface[name=Ethernet1/4]/priorities/priority[id=3]/state/paused-ratio", "0")
      .leaf("host01", "fabric/dcqcn/devices/device[name=mlx5_3]/ports/port[port-num=1]/state/verdict", "np-silent")
      .leaf("host01", "fabric/dcqcn/devices/device[name=mlx5_9]/ports/port[port-num=1]/state/verdict", "working")
      .leaf("leaf01", "fabric/checks/roce/findings/finding[id=flow-control/watchdog/Ethernet1/3]/state/port",
            "Ethernet1/3")
      .leaf("leaf01", "fabric/checks/roce/findings/finding[id=flow-control/watchdog/Ethernet1/3]/state/severity",
            "WARN")
      .leaf("leaf01", "fabric/checks/roce/findings/finding[id=flow-control/watchdog/Ethernet1/3]/state/check",
            "watchdog");
  FabricView view;
  for (const ::gnmi::Notification& n : r.get().notification()) {
    for (const ::gnmi::Update& u : n.update()) addFabricUpdate(n.prefix().target(), u, &view);
  }
  return view;
}

std::vector<PodDevice> entries() {
  Reply r;
  r.pod("host01", "mlx5_3", "u-0",
        {{"namespace", "ml"},
         {"pod", "trainer-0"},
         {"container", "main"},
         {"mode", "exclusive"},
         {"netdev", "net1"},
         {"uplink", "ens1f0np0"}})
      .pod("host01", "mlx5_9", "u-1",
           {{"namespace", "ml"},
            {"pod", "trainer-1"},
            {"container", "main"},
            {"mode", "exclusive"},
            {"netdev", "net1"},
            {"uplink", "ens1f1np1"}})
      .pod("host01", "mlx5_4", "u-2",
           {{"namespace", "other"},
            {"pod", "trainer-0"},
            {"container", "c"},
            {"mode", "host-network"},
            {"netdev", "ens1f0np0"}})
      .pod("host01", "mlx5_12", "u-3",
           {{"namespace", "ml"},
            {"pod", "vf-trainer"},
            {"container", "main"},
            {"mode", "host-network"},
            {"netdev", "ens1f0v0"},
            {"uplink", "ens1f0np0"},
            {"pf-device", "mlx5_3"}})
      .leaf("host01", "rdmagw-rdma:rdma/devices/device[name=mlx5_3]/ports/port[port-num=1]/state/netdev", "ens1f0np0");
  return podDevicesOf(r.get());
}

TEST(PodPathTest, EntriesAreReadPerTargetDeviceAndUidAndFoundByNamespaceAndName) {
  const std::vector<PodDevice> all = entries();
  ASSERT_EQ(all.size(), 4u);  // the port leaf is not a pod entry
  const std::vector<PodDevice> t0 = devicesOfPod(all, "ml/trainer-0");
  ASSERT_EQ(t0.size(), 1u);
  EXPECT_EQ(t0[0].target, "host01");
  EXPECT_EQ(t0[0].device, "mlx5_3");
  EXPECT_EQ(t0[0].uid, "u-0");
  EXPECT_EQ(leafOr(t0[0].leaves, "uplink"), "ens1f0np0");
  EXPECT_EQ(devicesOfPod(all, "trainer-0").size(), 2u);  // no namespace: any
  EXPECT_TRUE(devicesOfPod(all, "ml/trainer-2").empty());
}

TEST(PodPathTest, CongestedPodNamesItsLeafPortAndTheVerdictsOnIt) {
  const PodPath path = podPath(devicesOfPod(entries(), "ml/trainer-0"), fabric());
  ASSERT_EQ(path.hops.size(), 1u);
  EXPECT_EQ(path.hops[0].uplink, "ens1f0np0");
  EXPECT_EQ(path.hops[0].peer_target, "leaf01");
  EXPECT_EQ(path.hops[0].peer_interface, "Ethernet1/3");
  std::vector<std::string> got;
  for (const PodProblem& p : path.problems) got.push_back(p.where + " | " + p.what + " | " + p.verdict);
  EXPECT_EQ(got, (std::vector<std::string>{"host01 mlx5_3 port 1 | DCQCN | np-silent",
                                           "leaf01 Ethernet1/3 prio 3 | PFC | pause tree victim",
                                           "leaf01 Ethernet1/3 | RoCE check | WARN"}));
  const std::string text = formatPodPath("ml/trainer-0", path);
  EXPECT_NE(text.find("Ethernet1/3"), std::string::npos) << text;
  EXPECT_NE(text.find("roots leaf01:Ethernet1/9"), std::string::npos) << text;
}

// ECN marks and CNPs of a VF's traffic are counted on its PF: the VF pod is
// told its PF's DCQCN verdict, named as the PF's.
TEST(PodPathTest, VfPodIsToldItsPfsDcqcnChain) {
  const PodPath path = podPath(devicesOfPod(entries(), "ml/vf-trainer"), fabric());
  ASSERT_EQ(path.hops.size(), 1u);
  EXPECT_EQ(path.hops[0].peer_interface, "Ethernet1/3");
  std::vector<std::string> got;
  for (const PodProblem& p : path.problems) got.push_back(p.where + " | " + p.what + " | " + p.verdict);
  EXPECT_EQ(got, (std::vector<std::string>{"host01 mlx5_3 port 1 (PF of mlx5_12) | DCQCN | np-silent",
                                           "leaf01 Ethernet1/3 prio 3 | PFC | pause tree victim",
                                           "leaf01 Ethernet1/3 | RoCE check | WARN"}));
}

TEST(PodPathTest, HealthyPodHasItsPathAndNoProblem) {
  const PodPath path = podPath(devicesOfPod(entries(), "ml/trainer-1"), fabric());
  ASSERT_EQ(path.hops.size(), 1u);
  EXPECT_EQ(path.hops[0].peer_interface, "Ethernet1/4");
  EXPECT_TRUE(path.problems.empty());
  EXPECT_NE(formatPodPath("ml/trainer-1", path).find("(none:"), std::string::npos);
}

TEST(PodPathTest, HostNetworkEntryWithoutUplinkUsesItsHostNetdev) {
  const PodPath path = podPath(devicesOfPod(entries(), "other/trainer-0"), fabric());
  ASSERT_EQ(path.hops.size(), 1u);
  EXPECT_EQ(path.hops[0].uplink, "ens1f0np0");
  EXPECT_EQ(path.hops[0].peer_interface, "Ethernet1/3");
}

TEST(PodPathTest, DeviceWithoutKnownLinkSaysSo) {
  std::vector<PodDevice> devices = devicesOfPod(entries(), "ml/trainer-0");
  devices[0].leaves["uplink"] = "ens9";
  const PodPath path = podPath(devices, fabric());
  EXPECT_EQ(path.hops[0].peer_target, "-");
  ASSERT_EQ(path.problems.size(), 1u);  // the device's own DCQCN chain still
  EXPECT_EQ(path.problems[0].what, "DCQCN");
}

}  // namespace
}  // namespace rdmagw::gateway
