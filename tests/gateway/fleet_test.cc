// A fleet of real `rdmagw run` members on a real etcd, over the simulated
// fabric's real peers: every target is collected by exactly one member, a
// killed member's targets move to the others and come back when it does,
// an etcd outage moves nothing, and a member cut off from etcd alone keeps
// collecting (a visible double collection) until it hears its lease is gone.

#include <gtest/gtest.h>
#include <unistd.h>

#include <chrono>
#include <cstdio>

#include "tests/gateway/fleet_bed.h"

namespace rdmagw::gateway::fleettest {
namespace {

using Owners = std::map<std::string, std::set<std::string>>;
using Clock = std::chrono::steady_clock;

constexpr int kMembers = 3;
constexpr int kHosts = 8;
constexpr int kLeaseTtl = 3;

double secondsSince(Clock::time_point t0) {
  return std::chrono::duration<double>(Clock::now() - t0).count();
}

class FleetTest : public ::testing::Test {
 protected:
  void SetUp() override {
    if (geteuid() != 0) GTEST_SKIP() << "the simulated devices' sshd needs root";
    if (access("/usr/bin/etcd", X_OK) != 0) GTEST_SKIP() << "no /usr/bin/etcd (Debian etcd-server)";
    const std::string why = bed_.start(kMembers, kHosts, kLeaseTtl);
    ASSERT_EQ(why, "");
    for (int i = 0; i < kMembers; ++i) bed_.startMember(i);
    ASSERT_TRUE(bed_.waitConverged()) << bed_.describe() << bed_.log(0);
    initial_ = bed_.collectors();
  }

  std::set<std::string> targetsOf(const Owners& owners, const std::string& member) {
    std::set<std::string> out;
    for (const auto& [t, ms] : owners) {
      if (ms.contains(member)) out.insert(t);
    }
    return out;
  }

  FleetBed bed_;
  Owners initial_;
};

TEST_F(FleetTest, EachTargetOnceAKilledMembersTargetsMoveAndComeBackAndNothingElseMoves) {
  EXPECT_EQ(initial_.size(), bed_.targets().size());
  // Rendezvous hashing spreads 10 targets over 3 members (fixed names: the
  // same split on every run); at least two members get some.
  int busy = 0;
  for (int i = 0; i < kMembers; ++i) busy += targetsOf(initial_, bed_.memberName(i)).empty() ? 0 : 1;
  EXPECT_GE(busy, 2) << bed_.describe();
  // Service discovery on any member lists all three, labelled.
  const std::string sd = bed_.sd(0);
  for (int i = 0; i < kMembers; ++i) {
    EXPECT_NE(sd.find("\"127.0.0.1:" + std::to_string(bed_.prometheusPort(i)) + "\""), std::string::npos) << sd;
    EXPECT_NE(sd.find("\"member\":\"" + bed_.memberName(i) + "\""), std::string::npos) << sd;
  }
  EXPECT_NE(bed_.healthz(0).find("cluster: healthy"), std::string::npos) << bed_.healthz(0);

  const std::set<std::string> m2_had = targetsOf(initial_, "m2");
  const auto killed = Clock::now();
  bed_.kill9(1);
  ASSERT_TRUE(bed_.waitConverged()) << bed_.describe();
  std::printf("kill -9 of m2 (lease TTL %d s): its %zu target(s) collected by the others after %.1f s\n", kLeaseTtl,
              m2_had.size(), secondsSince(killed));
  Owners after_kill = bed_.collectors();
  for (const auto& [t, ms] : initial_) {
    if (ms.contains("m2")) continue;
    EXPECT_EQ(after_kill[t], ms) << t << " moved though its member lives\n" << bed_.describe();
  }

  bed_.startMember(1);
  ASSERT_TRUE(testsupport::waitUntil([&] { return bed_.collectedBy(1) == m2_had; })) << bed_.describe();
  ASSERT_TRUE(bed_.waitConverged()) << bed_.describe();
  EXPECT_EQ(bed_.collectors(), initial_) << "after m2's return exactly its targets move back\n" << bed_.describe();
}

TEST_F(FleetTest, EtcdStoppedForThirtySecondsMovesNothingAndHealthSaysDegraded) {
  bed_.etcd().stop();
  ASSERT_TRUE(testsupport::waitUntil([&] {
    for (int i = 0; i < kMembers; ++i) {
      if (bed_.healthz(i).find("cluster: degraded") == std::string::npos) return false;
    }
    return true;
  })) << bed_.healthz(0);
  const auto down = Clock::now();
  while (secondsSince(down) < 30) {
    ASSERT_EQ(bed_.collectors(), initial_) << "a target moved while etcd was down\n" << bed_.describe();
    std::this_thread::sleep_for(std::chrono::seconds(2));
  }
  ASSERT_TRUE(bed_.etcd().start().isOk()) << bed_.etcd().logText();
  ASSERT_TRUE(testsupport::waitUntil([&] {
    for (int i = 0; i < kMembers; ++i) {
      if (bed_.healthz(i).find("cluster: healthy") == std::string::npos) return false;
    }
    return true;
  })) << bed_.healthz(0) << bed_.log(0);
  EXPECT_EQ(bed_.collectors(), initial_) << bed_.describe();
}

TEST_F(FleetTest, AMemberCutOffFromEtcdKeepsCollectingTheOthersTakeOverAndItYieldsWhenItHearsOfIt) {
  const std::set<std::string> m3_had = targetsOf(initial_, "m3");
  ASSERT_FALSE(m3_had.empty()) << "this split gives m3 no target: pick another member to cut\n" << bed_.describe();
  const auto cut = Clock::now();
  bed_.etcdPath(2).block();
  // The others see m3's lease expire and take its targets; m3, unable to
  // tell this from an etcd outage, keeps them: collected twice, visibly.
  ASSERT_TRUE(testsupport::waitUntil([&] {
    Owners now = bed_.collectors();
    for (const std::string& t : m3_had) {
      if (now[t].size() != 2) return false;
    }
    return true;
  })) << bed_.describe();
  std::printf("m3 cut off from etcd: the others took its %zu target(s) after %.1f s; m3 keeps them meanwhile\n",
              m3_had.size(), secondsSince(cut));
  EXPECT_NE(bed_.healthz(2).find("cluster: degraded"), std::string::npos) << bed_.healthz(2);
  EXPECT_EQ(bed_.collectedBy(2), m3_had);

  const auto healed = Clock::now();
  bed_.etcdPath(2).unblock();
  ASSERT_TRUE(bed_.waitConverged()) << bed_.describe();
  ASSERT_TRUE(testsupport::waitUntil([&] { return bed_.collectors() == initial_; })) << bed_.describe();
  std::printf("the cut healed: back to one collector per target after %.1f s\n", secondsSince(healed));
  EXPECT_NE(bed_.log(2).find("lease expired"), std::string::npos) << bed_.log(2);
}

}  // namespace
}  // namespace rdmagw::gateway::fleettest
