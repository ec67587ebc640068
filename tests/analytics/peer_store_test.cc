// The analytics as one fleet member runs them: the small fabric's leaf is
// this member's, its hosts another member's (their leaves in the peer
// store). The leaf's verdicts must be those the whole fabric in one store
// gives, none may be written for the hosts (their owner writes those), and
// the peer store is never written.

#include <gtest/gtest.h>

#include <algorithm>

#include "analytics/fabric_reader.h"
#include "tests/analytics/small_fabric.h"

namespace rdmagw::analytics {
namespace {

using testing::SmallFabric;
using Codes = std::map<std::string, std::string>;

const std::set<std::string> kElsewhere = {"host01", "host02", "esx01"};

// The leaves of `all` on leaf01's ports.
Codes leafOnly(const Codes& all) {
  Codes out;
  for (const auto& [k, v] : all) {
    if (k.rfind("leaf01:", 0) == 0) out[k] = v;
  }
  return out;
}

// host01 pauses leaf01, which pauses its other ports' peers (a pause tree
// rooted at host01), and Ethernet1/2 sends pause host02 never counts.
void pauses(SmallFabric& f) {
  f.bump("host01", SmallFabric::pfc("ens1f0np0", 3, "out-pause-frames"), 100);
  f.bump("leaf01", SmallFabric::pfc("Ethernet1/1", 3, "in-pause-frames"), 100);
  f.bump("leaf01", SmallFabric::pfc("Ethernet1/2", 3, "out-pause-frames"), 100);
  f.bump("leaf01", SmallFabric::pfc("Ethernet1/3", 3, "out-pause-frames"), 100);
  f.bump("esx01", SmallFabric::nicPfc("vmnic4", 3, "rx-pause"), 100);
}

const char* const kLeaves[] = {"peer-target",     "peer-interface",        "pause-balance-code",
                               "peer-in-pause-rate", "pause-tree-state-code", "pause-tree-size",
                               "pause-tree-roots", "paused-ratio",          "lossless-drop-alarm"};

TEST(PeerStoreTest, AMembersPortsAreJudgedWithTheirPeersCountersAsInOneStore) {
  SmallFabric whole;
  SmallFabric member(kElsewhere);
  for (int i = 0; i < 6; ++i) {
    whole.tick([&] { pauses(whole); });
    member.tick([&] { pauses(member); });
  }
  for (const char* leaf : kLeaves) {
    const Codes want = leafOnly(whole.derived(leaf));
    EXPECT_EQ(member.derived(leaf), want) << leaf;
  }
  // The tree spans both members' ports, and its root is the other member's.
  EXPECT_EQ(member.derived("pause-tree-size")["leaf01:Ethernet1/1:3"], "5");
  EXPECT_EQ(member.derived("pause-tree-roots")["leaf01:Ethernet1/1:3"], "host01:ens1f0np0");
  EXPECT_EQ(member.derived("pause-balance-code")["leaf01:Ethernet1/2:3"], "2");  // host02 counted none
  EXPECT_EQ(member.derived("pause-balance-code")["leaf01:Ethernet1/3:3"], "1");
  // Nothing written into the hosts: neither here nor into the peer store.
  for (const TargetStatus& t : member.store().targets()) EXPECT_EQ(t.name, "leaf01");
  member.peers().forEach([](const SeriesView& s) { EXPECT_FALSE(s.path.starts_with("/fabric/")) << s.path; });
}

TEST(PeerStoreTest, WithoutThePeerStoreTheCrossingLinksGoUnjudged) {
  SmallFabric member(kElsewhere, /*read_peers=*/false);
  member.ticks(6, [&] { pauses(member); });
  // The RDMA-port end is found through the host's own leaves: no link.
  EXPECT_EQ(member.derived("peer-target").count("leaf01:Ethernet1/1"), 0u);
  // The vmnic's pause counters are not read: no balance to judge.
  EXPECT_EQ(member.derived("pause-balance-code").count("leaf01:Ethernet1/3:3"), 0u);
  // The tree stops at the member's edge: the leaf port looks like the root.
  EXPECT_NE(member.derived("pause-tree-roots")["leaf01:Ethernet1/2:3"], "host01:ens1f0np0");
}

TEST(PeerStoreTest, TheStoresOwnCopyOfATargetWinsOverThePeerStores) {
  Store own, peers;
  TargetHealth up;
  up.kind = "nexus";
  up.up = true;
  own.setHealth("leaf01", up);
  peers.setHealth("leaf01", up);
  const std::string mtu = "/interfaces/interface[name=Ethernet1/1]/state/mtu";
  ASSERT_EQ(own.apply("leaf01", std::vector<Update>{Update{mtu, uint64_t(9216), 1, {}}}).rejected, 0u);
  ASSERT_EQ(peers.apply("leaf01", std::vector<Update>{Update{mtu, uint64_t(1500), 1, {}}}).rejected, 0u);
  peers.setHealth("spine01", up);
  ASSERT_EQ(peers.apply("spine01", std::vector<Update>{Update{mtu, uint64_t(9216), 1, {}}}).rejected, 0u);
  CounterWindow window(std::chrono::milliseconds(4000));
  const FabricInventory inv = readFabric(own, window, testing::fabricRoles(), &peers);
  EXPECT_EQ(inv.dcb.mtu.at(PortRef{"leaf01", "Ethernet1/1"}), 9216u);
  EXPECT_EQ(inv.local, (std::set<std::string>{"leaf01"}));
  EXPECT_EQ(inv.up, (std::set<std::string>{"leaf01", "spine01"}));
}

TEST(PeerStoreTest, TheInputRowsAreSchemaPathsWithoutKeys) {
  const std::vector<std::string>& rows = inputRowPaths();
  EXPECT_GE(rows.size(), 30u);
  for (const std::string& r : rows) {
    EXPECT_TRUE(r.starts_with("/")) << r;
    EXPECT_EQ(r.find('['), std::string::npos) << r;
  }
  EXPECT_NE(std::find(rows.begin(), rows.end(), "/interfaces/interface/ethernet/pfc/priorities/priority/state/counters/in-pause-frames"),
            rows.end());
  EXPECT_NE(std::find(rows.begin(), rows.end(), "/lldp/interfaces/interface/neighbors/neighbor/state/system-name"),
            rows.end());
}

}  // namespace
}  // namespace rdmagw::analytics
