#include "northbound/gnmi/coalescing_queue.h"

#include <gtest/gtest.h>

namespace rdmagw::northbound::gnmi {
namespace {

TEST(CoalescingQueueTest, CoalescesPerPathInPlace) {
  CoalescingQueue q(10);
  q.put("t", "/a", nullptr, Value(uint64_t{1}), 5, false);
  q.put("t", "/b", nullptr, Value(uint64_t{2}), 5, false);
  q.put("t", "/a", nullptr, Value(uint64_t{3}), 5, false);
  EXPECT_EQ(q.size(), 2u);
  EXPECT_EQ(q.coalesced(), 1u);
  auto run = q.popRun(100, UINT64_MAX);
  ASSERT_EQ(run.size(), 2u);
  EXPECT_EQ(run[0].path, "/a");  // keeps its first place, with the latest value
  EXPECT_EQ(std::get<uint64_t>(run[0].value), 3u);
  EXPECT_TRUE(q.empty());
}

TEST(CoalescingQueueTest, RunsSplitByTargetTimestampAndMark) {
  CoalescingQueue q(10);
  q.put("t1", "/a", nullptr, Value(uint64_t{1}), 5, false);
  q.put("t1", "/b", nullptr, Value(uint64_t{1}), 5, false);
  q.put("t2", "/a", nullptr, Value(uint64_t{1}), 5, false);
  q.put("t2", "/b", nullptr, Value(uint64_t{1}), 6, true);
  const uint64_t mark = q.tailSeq();
  q.put("t2", "/c", nullptr, Value(uint64_t{1}), 6, false);
  EXPECT_EQ(q.popRun(100, mark).size(), 2u);
  EXPECT_EQ(q.popRun(100, mark).size(), 1u);
  auto del = q.popRun(100, mark);
  ASSERT_EQ(del.size(), 1u);
  EXPECT_TRUE(del[0].deleted);
  EXPECT_TRUE(q.popRun(100, mark).empty());  // /c is past the mark
  EXPECT_EQ(q.headSeq(), mark);
  EXPECT_EQ(q.popRun(100, UINT64_MAX).size(), 1u);
}

TEST(CoalescingQueueTest, FullQueueDropsNewLeavesAndCountsThem) {
  CoalescingQueue q(2);
  q.put("t", "/a", nullptr, Value(uint64_t{1}), 5, false);
  q.put("t", "/b", nullptr, Value(uint64_t{1}), 5, false);
  q.put("t", "/c", nullptr, Value(uint64_t{1}), 5, false);
  q.put("t", "/a", nullptr, Value(uint64_t{2}), 5, false);  // still coalesces
  EXPECT_EQ(q.size(), 2u);
  EXPECT_EQ(q.dropped(), 1u);
  EXPECT_EQ(q.coalesced(), 1u);
  const uint64_t tail = q.tailSeq();
  q.clear();
  EXPECT_TRUE(q.empty());
  EXPECT_EQ(q.headSeq(), tail);
}

}  // namespace
}  // namespace rdmagw::northbound::gnmi
