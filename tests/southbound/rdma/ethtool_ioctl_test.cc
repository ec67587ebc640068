#include "southbound/rdma/ethtool_ioctl.h"

#include <gtest/gtest.h>
#include <unistd.h>

#include <algorithm>
#include <cstdlib>
#include <string>

namespace rdmagw::southbound::rdma {
namespace {

// A veth pair is the cheapest netdev whose driver answers ETHTOOL_GSTATS.
class EthtoolIoctlTest : public ::testing::Test {
 protected:
  void SetUp() override {
    const std::string id = std::to_string(::getpid() % 100000);
    a_ = "rdmagwA" + id;
    b_ = "rdmagwB" + id;
    // Four queues each way, so a test can shrink them and change the stat set.
    const std::string q = " numtxqueues 4 numrxqueues 4";
    const std::string cmd =
        "ip link add " + a_ + q + " type veth peer name " + b_ + q + " >/dev/null 2>&1";
    if (std::system(cmd.c_str()) != 0) {
      GTEST_SKIP() << "cannot create a veth pair (needs CAP_NET_ADMIN and the veth module)";
    }
    created_ = true;
  }
  void TearDown() override {
    if (created_) std::system(("ip link del " + a_ + " >/dev/null 2>&1").c_str());
  }

  std::string a_, b_;
  bool created_ = false;
};

TEST_F(EthtoolIoctlTest, ReadsVethStatsAndCachesNames) {
  EthtoolIoctl ethtool;
  Result<EthtoolStats> s = ethtool.stats(a_);
  ASSERT_TRUE(s.isOk()) << s.status().toString();
  ASSERT_FALSE(s->empty());
  auto it =
      std::find_if(s->begin(), s->end(), [](const auto& kv) { return kv.first == "peer_ifindex"; });
  ASSERT_NE(it, s->end());
  EXPECT_GT(it->second, 0u);  // the peer's ifindex
  for (const auto& [name, v] : s.value()) {
    EXPECT_FALSE(name.empty());
    EXPECT_NE(name.front(), ' ') << "untrimmed name";
    EXPECT_NE(name.back(), ' ') << "untrimmed name";
  }
  EXPECT_EQ(ethtool.nameReadsForTest(), 1);
  Result<EthtoolStats> again = ethtool.stats(a_);
  ASSERT_TRUE(again.isOk());
  EXPECT_EQ(again->size(), s->size());
  EXPECT_EQ(ethtool.nameReadsForTest(), 1);  // count unchanged: names from the cache
  ASSERT_TRUE(ethtool.stats(b_).isOk());
  EXPECT_EQ(ethtool.nameReadsForTest(), 2);  // per netdev
}

TEST_F(EthtoolIoctlTest, RereadsNamesWhenTheCountChanges) {
  EthtoolIoctl ethtool;
  Result<EthtoolStats> before = ethtool.stats(a_);
  ASSERT_TRUE(before.isOk());
  // veth has one rx_queue_N_* / tx_queue_N_* block per active queue.
  if (std::system(("ethtool -L " + a_ + " rx 2 tx 2 >/dev/null 2>&1").c_str()) != 0) {
    GTEST_SKIP() << "cannot change the veth channel count here (ethtool -L)";
  }
  Result<EthtoolStats> after = ethtool.stats(a_);
  ASSERT_TRUE(after.isOk());
  EXPECT_LT(after->size(), before->size());
  EXPECT_EQ(ethtool.nameReadsForTest(), 2);  // count changed: names read again
  auto has = [&](const EthtoolStats& s, const std::string& n) {
    return std::any_of(s.begin(), s.end(), [&](const auto& kv) { return kv.first == n; });
  };
  EXPECT_TRUE(has(before.value(), "rx_queue_3_drops"));
  EXPECT_FALSE(has(after.value(), "rx_queue_3_drops"));  // no stale names
  EXPECT_TRUE(has(after.value(), "rx_queue_1_drops"));
}

TEST(EthtoolIoctlErrorsTest, UnknownNetdevIsNotFound) {
  EthtoolIoctl ethtool;
  Result<EthtoolStats> s = ethtool.stats("rdmagwNone0");
  ASSERT_FALSE(s.isOk());
  EXPECT_EQ(s.status().code(), Status::Code::kNotFound);
  EXPECT_NE(s.status().message().find("rdmagwNone0"), std::string::npos);
  EXPECT_FALSE(ethtool.stats("a-name-longer-than-ifnamsiz").isOk());
}

}  // namespace
}  // namespace rdmagw::southbound::rdma
