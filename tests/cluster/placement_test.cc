// Rendezvous placement: members agree without talking, a join moves about
// 1/N of the targets (all to the newcomer), a leave moves only the leaver's,
// and the owner of a name is the same on every build and host.

#include "cluster/placement.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <map>
#include <set>
#include <string>
#include <vector>

namespace rdmagw::cluster {
namespace {

std::vector<PlacementTarget> manyTargets(size_t n) {
  std::vector<PlacementTarget> out;
  for (size_t i = 0; i < n; ++i) out.push_back({"host" + std::to_string(i), ""});
  return out;
}

std::vector<std::string> membersOf(size_t n) {
  std::vector<std::string> out;
  for (size_t i = 0; i < n; ++i) out.push_back("gw-" + std::to_string(i + 1));
  return out;
}

std::map<std::string, std::string> ownersOf(const std::vector<PlacementTarget>& targets,
                                            const std::vector<std::string>& members) {
  std::map<std::string, std::string> out;
  for (const PlacementTarget& t : targets) out[t.name] = owner(t, members);
  return out;
}

TEST(PlacementTest, MembersAgreeWhateverOrderTheyListEachOtherIn) {
  const std::vector<PlacementTarget> targets = manyTargets(2000);
  std::vector<std::string> members = {"gw-a", "gw-b", "gw-c"};
  const auto first = ownersOf(targets, members);
  std::reverse(members.begin(), members.end());
  EXPECT_EQ(ownersOf(targets, members), first);
  std::rotate(members.begin(), members.begin() + 1, members.end());
  EXPECT_EQ(ownersOf(targets, members), first);
}

TEST(PlacementTest, EveryTargetHasExactlyOneOwner) {
  const std::vector<PlacementTarget> targets = manyTargets(3000);
  const std::vector<std::string> members = membersOf(3);
  std::map<std::string, int> times;
  for (const std::string& m : members) {
    for (const std::string& t : owned(targets, members, m)) ++times[t];
  }
  ASSERT_EQ(times.size(), targets.size());
  for (const auto& [name, n] : times) EXPECT_EQ(n, 1) << name;
}

TEST(PlacementTest, LoadIsSpreadEvenly) {
  const std::vector<PlacementTarget> targets = manyTargets(10000);
  const std::vector<std::string> members = membersOf(5);
  for (const std::string& m : members) {
    const size_t mine = owned(targets, members, m).size();
    EXPECT_GT(mine, 10000 / 5 / 2) << m;
    EXPECT_LT(mine, 10000 / 5 * 3 / 2) << m;
  }
}

TEST(PlacementTest, AJoinMovesAboutOneNthAndOnlyToTheNewcomer) {
  const std::vector<PlacementTarget> targets = manyTargets(10000);
  const std::vector<std::string> before = membersOf(4);
  const std::vector<std::string> after = membersOf(5);
  const auto old_owners = ownersOf(targets, before);
  const auto new_owners = ownersOf(targets, after);
  size_t moved = 0;
  for (const auto& [name, who] : new_owners) {
    if (who == old_owners.at(name)) continue;
    ++moved;
    EXPECT_EQ(who, "gw-5") << name << " moved between two old members";
  }
  const double share = static_cast<double>(moved) / targets.size();
  EXPECT_GT(share, 0.5 / 5) << moved;
  EXPECT_LT(share, 1.5 / 5) << moved;
}

TEST(PlacementTest, ALeaveMovesOnlyTheLeaversTargets) {
  const std::vector<PlacementTarget> targets = manyTargets(10000);
  const std::vector<std::string> before = membersOf(5);
  std::vector<std::string> after = before;
  after.erase(after.begin() + 2);  // gw-3 leaves
  const auto old_owners = ownersOf(targets, before);
  const auto new_owners = ownersOf(targets, after);
  size_t moved = 0;
  for (const auto& [name, who] : new_owners) {
    if (who == old_owners.at(name)) continue;
    ++moved;
    EXPECT_EQ(old_owners.at(name), "gw-3") << name << " moved though its owner stayed";
  }
  EXPECT_EQ(moved, owned(targets, before, "gw-3").size());
}

TEST(PlacementTest, AnAffinityKeyPlacesTargetsTogether) {
  const std::vector<std::string> members = membersOf(5);
  // The hosts under one leaf go where the leaf goes.
  std::vector<PlacementTarget> targets = {{"leaf07", ""}};
  for (int i = 0; i < 40; ++i) targets.push_back({"leaf07-host" + std::to_string(i), "leaf07"});
  const std::string leaf_owner = owner(targets[0], members);
  for (const PlacementTarget& t : targets) EXPECT_EQ(owner(t, members), leaf_owner) << t.name;
  EXPECT_EQ(owned(targets, members, leaf_owner).size(), targets.size());
  // Without the key they spread out.
  std::set<std::string> spread;
  for (const PlacementTarget& t : targets) spread.insert(owner(t.name, members));
  EXPECT_GT(spread.size(), 1u);
}

TEST(PlacementTest, NoMembersNoOwner) {
  EXPECT_EQ(owner("leaf01", {}), "");
  EXPECT_TRUE(owned(manyTargets(10), {}, "gw-1").empty());
}

// The hash is part of the fleet's protocol: members of two builds must agree.
// These values were computed once, and checked against a separate Python
// implementation of the same formula:
//   score = splitmix64(fnv1a64(member + "\0" + key))
// A change to the hash breaks them, and would split a fleet of mixed versions.
TEST(PlacementTest, OwnersAreTheSameOnEveryBuild) {
  EXPECT_EQ(placementScore("gw-1", "leaf01"), 0x636144ecc3bbd41dull);
  EXPECT_EQ(placementScore("gw-2", "esx042"), 0x3ea23db58fd3e929ull);
  const std::vector<std::string> members = membersOf(5);
  const std::map<std::string, std::string> golden = {
      {"leaf01", "gw-1"}, {"leaf02", "gw-1"}, {"leaf03", "gw-3"}, {"spine01", "gw-4"}, {"spine02", "gw-2"},
      {"esx001", "gw-2"}, {"esx004", "gw-3"}, {"esx005", "gw-1"}, {"host42", "gw-5"}, {"rdmagw", "gw-5"}};
  for (const auto& [target, who] : golden) EXPECT_EQ(owner(target, members), who) << target;
}

}  // namespace
}  // namespace rdmagw::cluster
