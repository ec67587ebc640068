// What a fleet member asks the others for (analytics/mirror_needs.h), on
// the small fabric: the far ends of its own links and no more while nothing
// pauses; the switch a pause tree crosses into, whole, and the tree's next
// ports once it does.

#include "analytics/mirror_needs.h"

#include <gtest/gtest.h>

#include "tests/analytics/small_fabric.h"

namespace rdmagw::analytics {
namespace {

using testing::SmallFabric;
using Ports = std::map<std::string, std::set<std::string>>;
using RdmaPorts = std::map<std::string, std::set<std::pair<std::string, std::string>>>;

TEST(MirrorNeedsTest, TheLeafsMemberAsksForItsCablesFarEndsAndTheRdmaPortsBehindThem) {
  SmallFabric member({"host01", "host02", "esx01"});
  member.ticks(3);
  const MirrorNeeds needs = member.needs();
  EXPECT_EQ(needs.ports, (Ports{{"esx01", {"vmnic4"}}, {"host01", {"ens1f0np0"}}, {"host02", {"ens1f0np0"}}}));
  EXPECT_EQ(needs.rdma_ports, (RdmaPorts{{"host01", {{"mlx5_0", "1"}}}, {"host02", {{"mlx5_0", "1"}}}}));
  EXPECT_TRUE(needs.whole.empty());
}

TEST(MirrorNeedsTest, AHostsMemberAsksForOneLeafPortUntilAPauseTreeCrossesIntoTheLeaf) {
  SmallFabric member({"leaf01", "host02", "esx01"});
  member.ticks(3);
  MirrorNeeds needs = member.needs();
  EXPECT_EQ(needs.ports, (Ports{{"leaf01", {"Ethernet1/1"}}}));
  EXPECT_TRUE(needs.rdma_ports.empty());
  EXPECT_TRUE(needs.whole.empty());

  // host01 pauses leaf01, which pauses host02 and esx01: the tree's other
  // branches are in the leaf and beyond it.
  member.ticks(3, [&] {
    member.bump("host01", SmallFabric::pfc("ens1f0np0", 3, "out-pause-frames"), 100);
    member.bump("leaf01", SmallFabric::pfc("Ethernet1/1", 3, "in-pause-frames"), 100);
    member.bump("leaf01", SmallFabric::pfc("Ethernet1/2", 3, "out-pause-frames"), 100);
    member.bump("leaf01", SmallFabric::pfc("Ethernet1/3", 3, "out-pause-frames"), 100);
  });
  needs = member.needs();
  EXPECT_EQ(needs.whole, std::set<std::string>{"leaf01"});
  EXPECT_EQ(needs.ports, (Ports{{"esx01", {"vmnic4"}}, {"host02", {"ens1f0np0"}}, {"leaf01", {"Ethernet1/1"}}}));
  EXPECT_EQ(needs.rdma_ports, (RdmaPorts{{"host02", {{"mlx5_0", "1"}}}}));

  // The pause over and out of the window: still asked for while the board
  // holds what runs needed (a minute), so a tree that flickers does not
  // restart the copy at every run.
  member.ticks(8);
  needs = member.needs();
  EXPECT_EQ(needs.whole, std::set<std::string>{"leaf01"});
  EXPECT_EQ(needs.ports, (Ports{{"esx01", {"vmnic4"}}, {"host02", {"ens1f0np0"}}, {"leaf01", {"Ethernet1/1"}}}));

  // A minute after the last run that needed them: back to the one far end.
  member.ticks(60);
  needs = member.needs();
  EXPECT_TRUE(needs.whole.empty());
  EXPECT_EQ(needs.ports, (Ports{{"leaf01", {"Ethernet1/1"}}}));
  EXPECT_TRUE(needs.rdma_ports.empty());
}

TEST(MirrorNeedsTest, TheBoardForgetsEverythingAtOnceWhenCleared) {
  MirrorNeedsBoard board(10);
  MirrorNeeds needs;
  needs.whole = {"leaf01"};
  needs.ports["leaf02"] = {"Ethernet1/1"};
  needs.rdma_ports["host01"] = {{"mlx5_0", "1"}};
  board.publish(needs, 100);
  board.publish({}, 105);
  EXPECT_EQ(board.read(), needs);  // held: 5 ns of a 10 ns hold
  board.publish({}, 111);
  EXPECT_EQ(board.read(), MirrorNeeds{});
  board.publish(needs, 120);
  board.clear();
  EXPECT_EQ(board.read(), MirrorNeeds{});
}

TEST(MirrorNeedsTest, AGatewayOutsideAFleetAsksForNothing) {
  SmallFabric lone;
  lone.ticks(3);
  const MirrorNeeds needs = lone.needs();
  EXPECT_TRUE(needs.ports.empty());
  EXPECT_TRUE(needs.rdma_ports.empty());
  EXPECT_TRUE(needs.whole.empty());
}

}  // namespace
}  // namespace rdmagw::analytics
