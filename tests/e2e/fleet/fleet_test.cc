// A fleet of real `rdmagw run` members on a real etcd, over the simulated
// fabric's real peers: every target is collected by exactly one member, a
// killed member's targets move to the others and come back when it does,
// an etcd outage moves nothing, and a member cut off from etcd alone keeps
// collecting (a visible double collection) until it hears its lease is gone.

#include <gtest/gtest.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <nlohmann/json.hpp>
#include <sstream>
#include <thread>

#include "tests/e2e/fleet/fleet_bed.h"
#include "tests/gateway/prometheus_process.h"

namespace rdmagw::testing {
using namespace rdmagw::gateway;  // the helpers speak the vocabulary of the code they test
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
  // host01-03 share leaf01's placement group: one member collects all four.
  for (const char* h : {"host01", "host02", "host03"}) EXPECT_EQ(initial_[h], initial_["leaf01"]) << h << "\n" << bed_.describe();
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
  ASSERT_TRUE(testing::waitUntil([&] { return bed_.collectedBy(1) == m2_had; })) << bed_.describe();
  ASSERT_TRUE(bed_.waitConverged()) << bed_.describe();
  EXPECT_EQ(bed_.collectors(), initial_) << "after m2's return exactly its targets move back\n" << bed_.describe();
}

// Two members stopped at the same moment (a rolling restart gone wide, a
// host shutdown): each sees the other leave while it is stopping itself, and
// must not start the other's targets (connecting to every device of them
// only to drop them a moment later). The one left collects everything.
TEST_F(FleetTest, MembersStoppingTogetherStartNothingAndTheLastTakesAll) {
  bed_.stopTogether({0, 1});
  for (int i : {0, 1}) {
    const std::string log = bed_.log(i);
    const size_t stopping = log.find(": stopping");
    ASSERT_NE(stopping, std::string::npos) << bed_.memberName(i) << " did not log its stop:\n" << log;
    const std::string after = log.substr(stopping);
    EXPECT_EQ(after.find("now collecting"), std::string::npos)
        << bed_.memberName(i) << " took targets while stopping:\n"
        << after;
  }
  ASSERT_TRUE(bed_.waitConverged()) << bed_.describe();
  EXPECT_EQ(bed_.collectedBy(2).size(), bed_.targets().size()) << bed_.describe();
}

// A cold start: three members started together. Each waits one renewal
// interval after joining, so each target is started once, by the member
// that owns it, and nobody hands anything over (a member that placed at
// once would have started the whole fleet and connected to every device).
// A TTL of 9 s (3 s of settling): members started back to back on a loaded
// machine still join well inside it.
TEST(FleetColdStartTest, EachTargetIsStartedOnceByItsOwner) {
  if (geteuid() != 0) GTEST_SKIP() << "the simulated devices' sshd needs root";
  if (access("/usr/bin/etcd", X_OK) != 0) GTEST_SKIP() << "no /usr/bin/etcd (Debian etcd-server)";
  FleetBed bed;
  ASSERT_EQ(bed.start(kMembers, kHosts, 9), "");
  for (int i = 0; i < kMembers; ++i) bed.startMember(i);
  ASSERT_TRUE(bed.waitConverged()) << bed.describe();
  std::map<std::string, int> started;
  for (int i = 0; i < kMembers; ++i) {
    const std::string log = bed.log(i);
    EXPECT_EQ(log.find("handed over"), std::string::npos) << bed.memberName(i) << " handed targets over:\n" << log;
    for (size_t at = log.find("now collecting:"); at != std::string::npos; at = log.find("now collecting:", at + 1)) {
      std::istringstream names(log.substr(at + 15, log.find_first_of(";\n", at) - at - 15));
      for (std::string name; names >> name;) ++started[name];
    }
  }
  for (const std::string& t : bed.targets()) EXPECT_EQ(started[t], 1) << t << " started " << started[t] << " times";
  // As the devices saw it: one connection each, from their owner.
  EXPECT_EQ(bed.devices().sshd().connectionCount("esx01"), 1u) << "the ESXi host's sshd";
  EXPECT_EQ(bed.devices().leaf().connectionCounts().connections, 1u) << "the leaf's gNMI server";
}

TEST_F(FleetTest, EtcdStoppedForThirtySecondsMovesNothingAndHealthSaysDegraded) {
  bed_.etcd().stop();
  ASSERT_TRUE(testing::waitUntil([&] {
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
  ASSERT_TRUE(testing::waitUntil([&] {
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
  ASSERT_TRUE(testing::waitUntil([&] {
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
  ASSERT_TRUE(testing::waitUntil([&] { return bed_.collectors() == initial_; })) << bed_.describe();
  std::printf("the cut healed: back to one collector per target after %.1f s\n", secondsSince(healed));
  EXPECT_NE(bed_.log(2).find("lease expired"), std::string::npos) << bed_.log(2);
}

// The longest interval between consecutive samples of value 1, over every
// series in a range query's answer (a target's series under its old and its
// new member together), in seconds.
double longestGap(const std::string& answer) {
  std::vector<double> ts;
  const nlohmann::json j = nlohmann::json::parse(answer, nullptr, false);
  if (j.is_discarded()) return -1;
  for (const auto& series : j["data"]["result"]) {
    for (const auto& v : series["values"]) {
      if (v[1].get<std::string>() == "1") ts.push_back(v[0].get<double>());
    }
  }
  std::sort(ts.begin(), ts.end());
  double gap = 0;
  for (size_t i = 1; i < ts.size(); ++i) gap = std::max(gap, ts[i] - ts[i - 1]);
  return gap;
}

TEST_F(FleetTest, OnePrometheusJobOnServiceDiscoveryFollowsAKilledMembersTargetsToTheirNewMember) {
  if (!testing::PrometheusProcess::installed()) GTEST_SKIP() << "no /usr/bin/prometheus";
  // SD from two members, so the job survives either one's death.
  std::string job = "  - job_name: rdmagw\n    http_sd_configs:\n";
  for (int i : {0, 2}) {
    job += "      - url: http://127.0.0.1:" + std::to_string(bed_.prometheusPort(i)) + "/sd\n"
           "        refresh_interval: 1s\n";
  }
  testing::PrometheusProcess prom(job);
  ASSERT_TRUE(prom.started());
  ASSERT_TRUE(prom.waitFor("count(rdmagw_cluster_member_info)", "3")) << prom.lastResponse() << prom.log();
  ASSERT_TRUE(prom.waitFor("count(rdmagw_target_up == 1)", std::to_string(bed_.targets().size())))
      << prom.lastResponse();

  const std::set<std::string> moving = targetsOf(initial_, "m2");
  ASSERT_FALSE(moving.empty()) << bed_.describe();
  const std::string t = *moving.begin();
  ASSERT_TRUE(prom.waitFor("count(rdmagw_target_up{target=\"" + t + "\",member=\"m2\"})", "1")) << prom.lastResponse();
  const auto killed = Clock::now();
  bed_.kill9(1);
  ASSERT_TRUE(bed_.waitConverged()) << bed_.describe();
  ASSERT_TRUE(prom.waitFor("count(rdmagw_target_up{target=\"" + t + "\",member!=\"m2\"} == 1)", "1"))
      << "the moved target's series did not continue under its new member: " << prom.lastResponse();
  std::this_thread::sleep_for(std::chrono::seconds(3));  // samples on both sides of the gap
  const int window = int(secondsSince(killed)) + 20;
  const double gap = longestGap(prom.queryJson("rdmagw_target_up{target=\"" + t + "\"}[" + std::to_string(window) + "s]"));
  ASSERT_GT(gap, 0) << prom.lastResponse();
  std::printf("Prometheus gap for %s across kill -9 of its member: %.1f s (lease TTL %d s + interval 0.5 s + SD "
              "refresh 1 s + scrape interval 1 s)\n", t.c_str(), gap, kLeaseTtl);
}

}  // namespace
}  // namespace rdmagw::testing
