// Membership against a real etcd: members see each other join and leave,
// what they publish about themselves, a revoked lease, self-metrics, and
// authentication from a password file.

#include "cluster/membership.h"

#include <gtest/gtest.h>

#include "sim/etcd_launcher.h"
#include "tests/cluster/member_recorder.h"
#include "tests/support/test_support.h"

namespace rdmagw::cluster {
namespace {

using testing::MemberRecorder;
using testing::memberConfig;
using testing::waitUntil;

class MembershipTest : public ::testing::Test {
 protected:
  void SetUp() override {
    Status s = etcd_.start();
    ASSERT_TRUE(s.isOk()) << s.message();
  }
  std::unique_ptr<Membership> member(const std::string& name, MemberRecorder* rec, int ttl = 3) {
    auto m = Membership::create(memberConfig(etcd_.endpoint(), name, ttl), rec->callbacks());
    EXPECT_TRUE(m.isOk()) << m.status().message();
    return m.isOk() ? std::move(m).value() : nullptr;
  }
  sim::EtcdLauncher etcd_;
};

TEST_F(MembershipTest, ThreeMembersSeeEachOtherAndAStoppedOneLeaves) {
  MemberRecorder ra, rb, rc;
  auto a = member("gw-a", &ra);
  auto b = member("gw-b", &rb);
  auto c = member("gw-c", &rc);
  ASSERT_TRUE(a && b && c);
  a->start();
  b->start();
  c->start();
  for (MemberRecorder* r : {&ra, &rb, &rc}) {
    EXPECT_TRUE(waitUntil([&] { return r->last() == "gw-a,gw-b,gw-c"; })) << r->last();
  }
  EXPECT_EQ(a->state(), MembershipState::kHealthy);
  // Every set a member was given includes that member.
  for (const auto& set : rb.sets()) EXPECT_NE(MemberRecorder::join(set).find("gw-b"), std::string::npos);

  // What each publishes about itself.
  const std::vector<MemberInfo> info = ra.lastInfo();
  ASSERT_EQ(info.size(), 3u);
  EXPECT_EQ(info[1].name, "gw-b");
  EXPECT_EQ(info[1].addresses.at("gnmi"), "127.0.0.1:9339");
  EXPECT_GT(info[1].start_time, 0);
  EXPECT_EQ(info[1].lease, b->stats().lease_id);
  EXPECT_FALSE(info[1].version.empty());

  // stop() revokes the lease: the others need not wait for the TTL. (The
  // TTL here is 3 s, so this cannot tell a revoke from an expiry; the next
  // test can.)
  c->stop();
  EXPECT_EQ(c->state(), MembershipState::kStopped);
  for (MemberRecorder* r : {&ra, &rb}) {
    EXPECT_TRUE(waitUntil([&] { return r->last() == "gw-a,gw-b"; })) << r->last();
  }
}

TEST_F(MembershipTest, AStoppedMembersKeyIsGoneAtOnceEvenWithALongTtl) {
  MemberRecorder ra, rb;
  auto a = member("gw-a", &ra, 3600);
  auto b = member("gw-b", &rb, 3600);
  a->start();
  b->start();
  ASSERT_TRUE(waitUntil([&] { return ra.last() == "gw-a,gw-b"; })) << ra.last();
  b->stop();
  // With an hour's TTL only the revoke can have removed it within the wait.
  EXPECT_TRUE(waitUntil([&] { return ra.last() == "gw-a"; })) << ra.last();
  auto client = EtcdClient::create({{etcd_.endpoint()}, {}, "", "", std::chrono::milliseconds(2000)});
  ASSERT_TRUE(client.isOk());
  Result<EtcdRange> r = (*client)->rangePrefix(Membership::membersPrefix("test"));
  ASSERT_TRUE(r.isOk());
  ASSERT_EQ(r->kvs.size(), 1u);
  EXPECT_EQ(r->kvs[0].key, "/rdmagw/test/members/gw-a");
}

TEST_F(MembershipTest, ARevokedLeaseIsLostAndTheMemberRejoins) {
  MemberRecorder ra, rb;
  auto a = member("gw-a", &ra, 30);
  auto b = member("gw-b", &rb, 30);
  a->start();
  b->start();
  ASSERT_TRUE(waitUntil([&] { return ra.last() == "gw-a,gw-b" && rb.last() == "gw-a,gw-b"; }));
  const int64_t old_lease = b->stats().lease_id;
  ASSERT_NE(old_lease, 0);
  // Revoked behind its back, as etcd does when a lease expires.
  auto client = EtcdClient::create({{etcd_.endpoint()}, {}, "", "", std::chrono::milliseconds(2000)});
  ASSERT_TRUE(client.isOk());
  ASSERT_TRUE((*client)->revokeLease(old_lease).isOk());

  // The watch sees our key go and asks etcd at once, without waiting for
  // the next keep-alive (TTL/3 = 10 s): the test's wait allows either.
  EXPECT_TRUE(waitUntil([&] { return rb.lost() == 1; }));
  EXPECT_TRUE(waitUntil([&] { return b->state() == MembershipState::kHealthy && b->stats().joins == 2; }));
  const MembershipStats s = b->stats();
  EXPECT_NE(s.lease_id, old_lease);
  EXPECT_EQ(s.leases_lost, 1u);
  EXPECT_NE(s.last_error.find("lost"), std::string::npos) << s.last_error;
  EXPECT_TRUE(waitUntil([&] { return ra.last() == "gw-a,gw-b"; })) << ra.last();
  EXPECT_EQ(ra.lost(), 0);
  EXPECT_EQ(a->stats().joins, 1u);
}

TEST_F(MembershipTest, AKeyDeletedByHandIsWrittenAgain) {
  MemberRecorder ra;
  auto a = member("gw-a", &ra, 30);
  a->start();
  ASSERT_TRUE(waitUntil([&] { return ra.last() == "gw-a"; }));
  auto client = EtcdClient::create({{etcd_.endpoint()}, {}, "", "", std::chrono::milliseconds(2000)});
  ASSERT_TRUE(client.isOk());
  const uint64_t puts = a->stats().requests[static_cast<size_t>(EtcdRequestKind::kPut)];
  ASSERT_TRUE((*client)->deleteKey(a->memberKey()).isOk());
  EXPECT_TRUE(waitUntil([&] {
    Result<EtcdRange> r = (*client)->rangePrefix(a->memberKey());
    return r.isOk() && r->kvs.size() == 1 && r->kvs[0].lease == a->stats().lease_id;
  }));
  EXPECT_EQ(a->stats().requests[static_cast<size_t>(EtcdRequestKind::kPut)], puts + 1);
  EXPECT_EQ(ra.lost(), 0) << "the lease itself was fine";
}

TEST_F(MembershipTest, TwoGatewaysWithOneNameAreReported) {
  MemberRecorder r1, r2;
  auto first = member("gw-a", &r1, 30);
  first->start();
  ASSERT_TRUE(waitUntil([&] { return r1.last() == "gw-a"; }));
  auto second = member("gw-a", &r2, 30);  // a copied config, say
  second->start();
  ASSERT_TRUE(waitUntil([&] { return second->state() == MembershipState::kHealthy; }));
  EXPECT_TRUE(waitUntil([&] { return first->stats().last_error.find("another gateway") != std::string::npos; }))
      << first->stats().last_error;
}

TEST_F(MembershipTest, StatsCountRequestsByKind) {
  MemberRecorder ra;
  auto a = member("gw-a", &ra, 2);
  a->start();
  ASSERT_TRUE(waitUntil([&] { return ra.last() == "gw-a"; }));
  // Keep-alives go every TTL/3: a few within any generous wait.
  EXPECT_TRUE(waitUntil([&] { return a->stats().requests[static_cast<size_t>(EtcdRequestKind::kKeepAlive)] >= 3; }));
  const MembershipStats s = a->stats();
  EXPECT_EQ(s.state, MembershipState::kHealthy);
  EXPECT_EQ(s.requests[static_cast<size_t>(EtcdRequestKind::kGrant)], 1u);
  EXPECT_EQ(s.requests[static_cast<size_t>(EtcdRequestKind::kPut)], 1u);
  EXPECT_GE(s.requests[static_cast<size_t>(EtcdRequestKind::kRange)], 1u);
  EXPECT_GE(s.requests[static_cast<size_t>(EtcdRequestKind::kWatch)], 1u);
  EXPECT_EQ(s.members, 1u);
  EXPECT_EQ(s.endpoint, "127.0.0.1:" + std::to_string(etcd_.clientPort()));
  EXPECT_EQ(std::string(etcdRequestKindName(EtcdRequestKind::kKeepAlive)), "lease_keepalive");
  EXPECT_EQ(std::string(membershipStateName(s.state)), "healthy");
}

TEST_F(MembershipTest, JoinsWithAUserAndPasswordFile) {
  ASSERT_EQ(testing::runCommand("ETCDCTL_API=3 etcdctl --endpoints=" + etcd_.endpoint() +
                                    " user add root:fleet-secret && ETCDCTL_API=3 etcdctl --endpoints=" +
                                    etcd_.endpoint() + " auth enable")
                .exit_code,
            0);
  testing::TempDir dir("rdmagw-cluster");
  ASSERT_TRUE(testing::writeFile(dir.file("password"), "fleet-secret\n"));
  ASSERT_TRUE(testing::writeFile(dir.file("wrong"), "not-it\n"));
  MemberRecorder ra, rb;
  MembershipConfig c = memberConfig(etcd_.endpoint(), "gw-a", 3);
  c.user = "root";
  c.password_file = dir.file("password");
  auto a = Membership::create(c, ra.callbacks());
  ASSERT_TRUE(a.isOk()) << a.status().message();
  (*a)->start();
  EXPECT_TRUE(waitUntil([&] { return ra.last() == "gw-a"; })) << (*a)->stats().last_error;

  c.member = "gw-b";
  c.password_file = dir.file("wrong");
  auto b = Membership::create(c, rb.callbacks());
  ASSERT_TRUE(b.isOk());
  (*b)->start();
  EXPECT_TRUE(waitUntil([&] { return (*b)->stats().last_error.find("authentication failed") != std::string::npos; }))
      << (*b)->stats().last_error;
  EXPECT_EQ((*b)->state(), MembershipState::kJoining);
}

TEST(MembershipConfigTest, BadConfigIsAClearError) {
  MemberRecorder r;
  MembershipConfig c = memberConfig("127.0.0.1:2379", "gw-a", 10);
  c.cluster = "";
  EXPECT_NE(Membership::create(c, r.callbacks()).status().message().find("cluster"), std::string::npos);
  c.cluster = "test";
  c.member = "a/b";
  EXPECT_NE(Membership::create(c, r.callbacks()).status().message().find("a/b"), std::string::npos);
  c.member = "";  // the host name
  auto m = Membership::create(c, r.callbacks());
  ASSERT_TRUE(m.isOk()) << m.status().message();
  EXPECT_FALSE((*m)->memberName().empty());
  c.password_file = "/nonexistent/password";
  EXPECT_NE(Membership::create(c, r.callbacks()).status().message().find("user"), std::string::npos);
  c.user = "root";
  EXPECT_NE(Membership::create(c, r.callbacks()).status().message().find("/nonexistent/password"), std::string::npos);
  c.password_file = "";
  c.endpoints = {};
  EXPECT_EQ(Membership::create(c, r.callbacks()).status().code(), Status::Code::kInvalidArgument);
}

}  // namespace
}  // namespace rdmagw::cluster
