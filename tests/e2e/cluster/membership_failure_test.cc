// Membership when things fail, against a real etcd: etcd frozen or killed
// (nobody's placement may change: the member set stays, members say
// degraded and recover), and a member frozen or killed (etcd drops it after
// its TTL; a frozen one that wakes learns its lease is lost and rejoins).

#include <fcntl.h>
#include <signal.h>
#include <spawn.h>
#include <sys/wait.h>

#include <gtest/gtest.h>

#include <algorithm>
#include <thread>

#include "cluster/membership.h"
#include "sim/etcd_launcher.h"
#include "sim/tcp_relay.h"
#include "tests/cluster/member_recorder.h"
#include "tests/support/test_support.h"

extern char** environ;

namespace rdmagw::cluster {
namespace {

using testing::MemberRecorder;
using testing::memberConfig;
using testing::waitUntil;

class MembershipFailureTest : public ::testing::Test {
 protected:
  void SetUp() override {
    Status s = etcd_.start();
    ASSERT_TRUE(s.isOk()) << s.message();
  }
  void startThree(int ttl) {
    for (const char* name : {"gw-a", "gw-b", "gw-c"}) {
      auto m = Membership::create(memberConfig(etcd_.endpoint(), name, ttl), recorders_[members_.size()].callbacks());
      ASSERT_TRUE(m.isOk()) << m.status().message();
      members_.push_back(std::move(m).value());
      members_.back()->start();
    }
    for (MemberRecorder& r : recorders_) {
      ASSERT_TRUE(waitUntil([&] { return r.last() == "gw-a,gw-b,gw-c"; })) << r.last();
    }
    for (size_t i = 0; i < 3; ++i) settled_[i] = recorders_[i].sets().size();
  }
  bool allIn(MembershipState state) const {
    for (const auto& m : members_) {
      if (m->state() != state) return false;
    }
    return true;
  }
  std::string describe() const {
    std::string out;
    for (const auto& m : members_) {
      MembershipStats s = m->stats();
      out += m->memberName() + ": " + membershipStateName(s.state) + " (" + s.last_error + ")\n";
    }
    return out;
  }
  // Every set delivered once all three had met had all three: nobody saw
  // another leave. (While they start, a member may see a set without the
  // others.)
  void expectNoShrink() const {
    for (size_t i = 0; i < 3; ++i) {
      const auto sets = recorders_[i].sets();
      for (size_t k = settled_[i]; k < sets.size(); ++k) EXPECT_EQ(MemberRecorder::join(sets[k]), "gw-a,gw-b,gw-c");
      EXPECT_EQ(recorders_[i].lost(), 0);
    }
  }

  sim::EtcdLauncher etcd_;
  MemberRecorder recorders_[3];
  size_t settled_[3] = {};
  std::vector<std::unique_ptr<Membership>> members_;
};

TEST_F(MembershipFailureTest, FrozenEtcdDegradesWithoutChangingTheMemberSet) {
  // A TTL long enough that the leases outlive the freeze: this is etcd
  // being unreachable, not a member dying.
  startThree(20);
  etcd_.pause();
  EXPECT_TRUE(waitUntil([&] { return allIn(MembershipState::kDegraded); }));
  for (const auto& m : members_) EXPECT_NE(m->stats().last_error, "");
  etcd_.resume();
  EXPECT_TRUE(waitUntil([&] { return allIn(MembershipState::kHealthy); }));
  for (MemberRecorder& r : recorders_) EXPECT_EQ(r.last(), "gw-a,gw-b,gw-c");
  expectNoShrink();
  for (const auto& m : members_) EXPECT_EQ(m->stats().joins, 1u) << "the same lease throughout";
}

TEST_F(MembershipFailureTest, EtcdDownLongerThanTheTtlLosesNobody) {
  startThree(8);
  etcd_.kill();
  EXPECT_TRUE(waitUntil([&] { return allIn(MembershipState::kDegraded); }));
  // Longer than the TTL on purpose: while etcd is down no lease can
  // expire, and etcd renews every lease when it is back.
  std::this_thread::sleep_for(std::chrono::seconds(9));
  ASSERT_TRUE(etcd_.start().isOk()) << etcd_.logText();
  EXPECT_TRUE(waitUntil([&] { return allIn(MembershipState::kHealthy); })) << describe();
  expectNoShrink();
  for (const auto& m : members_) EXPECT_EQ(m->stats().joins, 1u);
}

TEST_F(MembershipFailureTest, AMemberCutOffFromEtcdKeepsItsViewWhileTheOthersTakeOver) {
  // gw-a reaches etcd through a relay the test can cut; gw-b directly.
  sim::TcpRelay relay(etcd_.clientPort());
  ASSERT_TRUE(relay.start().isOk());
  MemberRecorder ra, rb;
  auto a = Membership::create(memberConfig("http://" + relay.address(), "gw-a", 2), ra.callbacks());
  auto b = Membership::create(memberConfig(etcd_.endpoint(), "gw-b", 2), rb.callbacks());
  ASSERT_TRUE(a.isOk() && b.isOk());
  (*a)->start();
  (*b)->start();
  ASSERT_TRUE(waitUntil([&] { return ra.last() == "gw-a,gw-b" && rb.last() == "gw-a,gw-b"; }));
  const size_t settled = ra.sets().size();

  relay.block();
  // gw-a cannot tell this from etcd being down: it says degraded and keeps
  // its view (and so its targets). etcd expires its lease after the TTL and
  // gw-b takes over: both collect gw-a's targets until the cut heals.
  EXPECT_TRUE(waitUntil([&] { return (*a)->state() == MembershipState::kDegraded; }));
  EXPECT_TRUE(waitUntil([&] { return rb.last() == "gw-b"; })) << rb.last();
  EXPECT_EQ((*a)->state(), MembershipState::kDegraded);
  EXPECT_EQ(ra.last(), "gw-a,gw-b");
  EXPECT_EQ(ra.lost(), 0);

  relay.unblock();
  // Back in touch, gw-a hears that its lease is gone: it stops its targets
  // (lease lost) and joins again; placement converges.
  EXPECT_TRUE(waitUntil([&] { return ra.lost() == 1; })) << (*a)->stats().last_error;
  EXPECT_TRUE(waitUntil([&] {
    return (*a)->state() == MembershipState::kHealthy && ra.last() == "gw-a,gw-b" && rb.last() == "gw-a,gw-b";
  })) << ra.last() << " / " << rb.last();
  const auto sets = ra.sets();
  for (size_t k = settled; k < sets.size(); ++k) EXPECT_EQ(MemberRecorder::join(sets[k]), "gw-a,gw-b");
  EXPECT_EQ((*a)->stats().joins, 2u);
  EXPECT_EQ(rb.lost(), 0);
}

TEST_F(MembershipFailureTest, EtcdFrozenLongerThanTheTtlLosesEveryLeaseAndTheFleetRejoins) {
  startThree(3);
  std::vector<size_t> settled_log;
  for (const MemberRecorder& r : recorders_) settled_log.push_back(r.log().size());
  etcd_.pause();
  // Longer than the TTL on purpose. Unlike a stopped etcd, a frozen one
  // resumes with every lease past its expiry and revokes them all.
  std::this_thread::sleep_for(std::chrono::seconds(5));
  etcd_.resume();
  // Each was told its lease was lost, then (after rejoining) the whole fleet.
  EXPECT_TRUE(waitUntil([&] {
    for (const MemberRecorder& r : recorders_) {
      const std::vector<std::string> log = r.log();
      const auto lost_at = std::find(log.rbegin(), log.rend(), "LOST");
      if (r.lost() != 1 || lost_at == log.rbegin() || log.back() != "gw-a,gw-b,gw-c") return false;
    }
    return allIn(MembershipState::kHealthy);
  })) << describe();
  for (size_t i = 0; i < 3; ++i) {
    const std::vector<std::string> log = recorders_[i].log();
    std::string told;
    bool lost = false;
    for (size_t k = settled_log[i]; k < log.size(); ++k) {
      told += " [" + log[k] + "]";
      if (log[k] == "LOST") lost = true;
      // Until etcd said the lease was gone, the member saw nobody leave,
      // though the others' keys went first.
      if (!lost) {
        EXPECT_EQ(log[k], "gw-a,gw-b,gw-c") << "member " << i;
      }
    }
    std::printf("member %zu was told:%s\n", i, told.c_str());
  }
}

// The probe: one member in its own process (tests/cluster/member_probe.cc).
class Probe {
 public:
  Probe(const std::string& endpoint, const std::string& name, int ttl, const std::string& out) : out_(out) {
    posix_spawn_file_actions_t fa;
    posix_spawn_file_actions_init(&fa);
    posix_spawn_file_actions_addopen(&fa, 1, out.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
    posix_spawn_file_actions_adddup2(&fa, 1, 2);
    std::string ttl_text = std::to_string(ttl);
    std::vector<std::string> args = {RDMAGW_CLUSTER_PROBE_PATH, endpoint, "test", name, ttl_text};
    std::vector<char*> argv;
    for (std::string& a : args) argv.push_back(a.data());
    argv.push_back(nullptr);
    if (posix_spawn(&pid_, argv[0], &fa, nullptr, argv.data(), environ) != 0) pid_ = -1;
    posix_spawn_file_actions_destroy(&fa);
  }
  ~Probe() {
    if (pid_ > 0) {
      ::kill(pid_, SIGCONT);
      ::kill(pid_, SIGKILL);
      ::waitpid(pid_, nullptr, 0);
    }
  }
  bool running() const { return pid_ > 0; }
  void signal(int sig) { ::kill(pid_, sig); }
  void killHard() {
    ::kill(pid_, SIGKILL);
    ::waitpid(pid_, nullptr, 0);
    pid_ = -1;
  }
  std::string output() const { return testing::readFile(out_); }

 private:
  std::string out_;
  pid_t pid_ = -1;
};

TEST_F(MembershipFailureTest, AFrozenMemberIsDroppedAfterItsTtlAndRejoinsWhenItWakes) {
  testing::TempDir dir("rdmagw-cluster");
  MemberRecorder obs;
  auto observer = Membership::create(memberConfig(etcd_.endpoint(), "gw-obs", 2), obs.callbacks());
  ASSERT_TRUE(observer.isOk());
  (*observer)->start();
  Probe probe(etcd_.endpoint(), "gw-probe", 2, dir.file("probe.out"));
  ASSERT_TRUE(probe.running());
  ASSERT_TRUE(waitUntil([&] { return obs.last() == "gw-obs,gw-probe"; })) << obs.last() << probe.output();
  ASSERT_TRUE(waitUntil([&] { return probe.output().find("members gw-obs,gw-probe") != std::string::npos; }));

  // Frozen (a hung host): its keep-alives stop; etcd expires its lease.
  probe.signal(SIGSTOP);
  EXPECT_TRUE(waitUntil([&] { return obs.last() == "gw-obs"; })) << obs.last();
  // Awake again: etcd tells it the lease is gone; it stops its targets
  // (lease_lost) and joins again under a new lease.
  probe.signal(SIGCONT);
  EXPECT_TRUE(waitUntil([&] { return probe.output().find("lease_lost") != std::string::npos; })) << probe.output();
  EXPECT_TRUE(waitUntil([&] { return obs.last() == "gw-obs,gw-probe"; })) << obs.last();

  // kill -9: nothing revokes its lease; etcd drops it after the TTL.
  probe.killHard();
  EXPECT_TRUE(waitUntil([&] { return obs.last() == "gw-obs"; })) << obs.last();
  EXPECT_EQ(obs.lost(), 0);
  EXPECT_EQ((*observer)->stats().joins, 1u);
}

TEST_F(MembershipFailureTest, AProbeStoppedCleanlyLeavesAtOnce) {
  testing::TempDir dir("rdmagw-cluster");
  MemberRecorder obs;
  auto observer = Membership::create(memberConfig(etcd_.endpoint(), "gw-obs", 3600), obs.callbacks());
  ASSERT_TRUE(observer.isOk());
  (*observer)->start();
  Probe probe(etcd_.endpoint(), "gw-probe", 3600, dir.file("probe.out"));
  ASSERT_TRUE(waitUntil([&] { return obs.last() == "gw-obs,gw-probe"; })) << obs.last() << probe.output();
  probe.signal(SIGTERM);  // revokes its lease on the way out
  EXPECT_TRUE(waitUntil([&] { return obs.last() == "gw-obs"; })) << obs.last();
}

}  // namespace
}  // namespace rdmagw::cluster
