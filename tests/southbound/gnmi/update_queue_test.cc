#include "southbound/gnmi/update_queue.h"

#include <gtest/gtest.h>

namespace rdmagw::southbound::gnmi {
namespace {

std::vector<Update> ups(std::initializer_list<std::pair<const char*, uint64_t>> l) {
  std::vector<Update> out;
  for (auto& [p, v] : l) out.push_back(Update{p, v, 1, {}});
  return out;
}

TEST(UpdateQueueTest, KeepsOrderOfUpdatesAndDeletes) {
  UpdateQueue q(16);
  auto a = ups({{"/a", 1}, {"/b", 2}});
  std::vector<std::string> d = {"/a"};
  q.push(a, d);
  auto c = ups({{"/c", 3}});
  std::vector<std::string> none;
  q.push(c, none);
  QueuedBatch out;
  ASSERT_TRUE(q.drain(out));
  ASSERT_EQ(out.updates.size(), 3u);
  EXPECT_EQ(out.updates[2].path, "/c");
  ASSERT_EQ(out.deletes.size(), 1u);
  EXPECT_EQ(out.deletes[0].first, 2u);  // after /a and /b, before /c
  EXPECT_FALSE(q.drain(out));
}

TEST(UpdateQueueTest, FullQueueCoalescesPerPathAndCountsDrops) {
  UpdateQueue q(16);
  std::vector<std::string> none;
  for (uint64_t round = 0; round < 3; ++round) {
    std::vector<Update> batch;
    for (int i = 0; i < 16; ++i) batch.push_back(Update{"/p" + std::to_string(i), round, 1, {}});
    q.push(batch, none);
  }
  auto fresh = ups({{"/new", 9}});
  q.push(fresh, none);
  QueueStats s = q.stats();
  EXPECT_EQ(s.pushed, 49u);
  EXPECT_EQ(s.coalesced, 32u);
  EXPECT_EQ(s.dropped, 1u);
  EXPECT_EQ(s.high_water, 16u);
  QueuedBatch out;
  ASSERT_TRUE(q.drain(out));
  ASSERT_EQ(out.updates.size(), 16u);
  for (const Update& u : out.updates) EXPECT_EQ(std::get<uint64_t>(u.value), 2u) << u.path;  // newest wins
  // After a drain the queue takes new paths again.
  q.push(fresh, none);
  ASSERT_TRUE(q.drain(out));
  EXPECT_EQ(out.updates.size(), 1u);
}

TEST(UpdateQueueTest, DeleteIsABarrierForCoalescing) {
  UpdateQueue q(16);
  std::vector<std::string> none;
  std::vector<Update> batch;
  for (int i = 0; i < 16; ++i) batch.push_back(Update{"/p" + std::to_string(i), uint64_t{1}, 1, {}});
  q.push(batch, none);
  std::vector<Update> empty;
  std::vector<std::string> del = {"/p0"};
  q.push(empty, del);
  auto again = ups({{"/p0", 5}});
  q.push(again, none);  // must not overwrite the slot before the delete
  QueuedBatch out;
  ASSERT_TRUE(q.drain(out));
  EXPECT_EQ(std::get<uint64_t>(out.updates[0].value), 1u);
  EXPECT_EQ(q.stats().dropped, 1u);
}

}  // namespace
}  // namespace rdmagw::southbound::gnmi
