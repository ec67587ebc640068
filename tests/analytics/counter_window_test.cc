#include "analytics/counter_window.h"

#include <gtest/gtest.h>

namespace rdmagw::analytics {
namespace {

constexpr int64_t kS = 1'000'000'000;

TEST(CounterWindowTest, IncreaseSpansTheWholeWindow) {
  CounterWindow w(std::chrono::seconds(10));
  for (int i = 0; i <= 20; ++i) w.observe("k", i * kS, uint64_t(i) * 5);
  auto inc = w.increase("k", 20 * kS);
  ASSERT_TRUE(inc);
  EXPECT_DOUBLE_EQ(inc->count, 50);    // from the sample at t=10 s to t=20 s
  EXPECT_DOUBLE_EQ(inc->seconds, 10);
  EXPECT_DOUBLE_EQ(inc->rate(), 5);
}

TEST(CounterWindowTest, OneSampleOrAStaleOneGivesNothing) {
  CounterWindow w(std::chrono::seconds(10));
  w.observe("k", 1 * kS, 7);
  EXPECT_FALSE(w.increase("k", 1 * kS));
  w.observe("k", 2 * kS, 9);
  EXPECT_TRUE(w.increase("k", 2 * kS));
  EXPECT_FALSE(w.increase("k", 12 * kS)) << "the newest sample is a window old";
  EXPECT_FALSE(w.increase("other", 2 * kS));
}

TEST(CounterWindowTest, RepeatedTimestampsAddNothingAndPruneKeepsTheBaseline) {
  CounterWindow w(std::chrono::seconds(4));
  w.observe("k", 1 * kS, 0);
  w.observe("k", 1 * kS, 100);  // the same poll read twice
  for (int i = 2; i <= 10; ++i) w.observe("k", i * kS, uint64_t(i) * 10);
  w.prune(10 * kS);
  auto inc = w.increase("k", 10 * kS);
  ASSERT_TRUE(inc);
  EXPECT_DOUBLE_EQ(inc->count, 40);
  w.prune(20 * kS);
  EXPECT_EQ(w.keys(), 0u);
}

TEST(CounterWindowTest, ACounterThatGoesBackStartsOver) {
  CounterWindow w(std::chrono::seconds(10));
  w.observe("k", 1 * kS, 1000);
  w.observe("k", 2 * kS, 5);
  EXPECT_FALSE(w.increase("k", 2 * kS));
  w.observe("k", 3 * kS, 15);
  EXPECT_DOUBLE_EQ(w.increase("k", 3 * kS)->count, 10);
}

}  // namespace
}  // namespace rdmagw::analytics
