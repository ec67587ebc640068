// A fleet member that is stopping takes nothing new, against a real etcd:
// two members split the targets; one leaves; the other hears it, and stops
// before the re-placement it asked for runs. That re-placement must keep
// what the stopping member collects and add none of the leaver's targets:
// starting them would connect to every device of them, only to drop them
// when the process ends a moment later.

#include <gtest/gtest.h>

#include <atomic>

#include "gateway/fleet/fleet.h"
#include "sim/etcd_launcher.h"
#include "tests/cluster/member_recorder.h"
#include "tests/support/test_support.h"

namespace rdmagw::gateway {
namespace {

std::vector<TargetConfig> someTargets() {
  std::vector<TargetConfig> out;
  for (int i = 0; i < 20; ++i) {
    TargetConfig t;
    t.name = "t" + std::to_string(i);
    t.kind = "rdma-host";
    out.push_back(t);
  }
  return out;
}

std::set<std::string> names(const std::vector<TargetConfig>& targets) {
  std::set<std::string> out;
  for (const TargetConfig& t : targets) out.insert(t.name);
  return out;
}

ClusterSettings settingsFor(const std::string& endpoint, const std::string& member) {
  ClusterSettings s;
  s.enabled = true;
  s.membership = testing::memberConfig(endpoint, member, 3);
  return s;
}

TEST(FleetStopTest, AStoppingMemberKeepsItsShareAndTakesNoneOfALeaversTargets) {
  if (access("/usr/bin/etcd", X_OK) != 0) GTEST_SKIP() << "no /usr/bin/etcd (Debian etcd-server)";
  sim::EtcdLauncher etcd;
  ASSERT_TRUE(etcd.start().isOk());
  std::atomic<int> a_replaces{0};
  auto a = Fleet::create(settingsFor(etcd.endpoint(), "a"), nullptr, [&](const std::string&) { ++a_replaces; });
  auto b = Fleet::create(settingsFor(etcd.endpoint(), "b"), nullptr, [](const std::string&) {});
  ASSERT_TRUE(a.isOk() && b.isOk());
  (*a)->start({});
  (*b)->start({});
  const std::vector<TargetConfig> targets = someTargets();
  std::set<std::string> share;
  ASSERT_TRUE(testing::waitUntil([&] {
    share = names((*a)->owned(targets));
    return !share.empty() && share.size() < targets.size();  // both members placed
  })) << share.size();

  const int before = a_replaces.load();
  (*b)->stop();  // b leaves; a hears it and asks for a re-placement
  ASSERT_TRUE(testing::waitUntil([&] { return a_replaces.load() > before; }));
  (*a)->stop();  // ...and stops before that re-placement runs
  EXPECT_EQ(names((*a)->owned(targets)), share) << "a stopping member takes nothing new and keeps what it has";

  // The same late set on a member that is not stopping gives it everything.
  auto c = Fleet::create(settingsFor(etcd.endpoint(), "c"), nullptr, [](const std::string&) {});
  ASSERT_TRUE(c.isOk());
  (*c)->start({});
  EXPECT_TRUE(testing::waitUntil([&] { return names((*c)->owned(targets)).size() == targets.size(); }));
  (*c)->stop();
}

}  // namespace
}  // namespace rdmagw::gateway
