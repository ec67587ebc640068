#include "common/backoff.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <vector>

namespace rdmagw::common {
namespace {

using std::chrono::milliseconds;

TEST(BackoffTest, EachDelayIsDrawnFromInitialToThreeTimesThePreviousUpToTheCap) {
  Backoff mid(milliseconds(1000), milliseconds(20000), [] { return 0.5; });
  std::vector<int64_t> got;
  for (int i = 0; i < 8; ++i) got.push_back(mid.next().count());
  // Halfway into [1000, 3 x previous]: 2000, 3500, 5750, 9125; then the cap bounds the range.
  EXPECT_EQ(got, (std::vector<int64_t>{2000, 3500, 5750, 9125, 10500, 10500, 10500, 10500}));
  mid.reset();
  EXPECT_EQ(mid.next().count(), 2000);

  Backoff top(milliseconds(1000), milliseconds(20000), [] { return 1.0; });
  std::vector<int64_t> grow;
  for (int i = 0; i < 5; ++i) grow.push_back(top.next().count());
  EXPECT_EQ(grow, (std::vector<int64_t>{3000, 9000, 20000, 20000, 20000}));
}

TEST(BackoffTest, NeverShorterThanInitialNeverLongerThanMax) {
  Backoff low(milliseconds(1000), milliseconds(60000), [] { return 0.0; });
  for (int i = 0; i < 20; ++i) EXPECT_EQ(low.next().count(), 1000);
  Backoff real(milliseconds(100), milliseconds(5000));
  for (int i = 0; i < 1000; ++i) {
    const int64_t ms = real.next().count();
    ASSERT_GE(ms, 100);
    ASSERT_LE(ms, 5000);
  }
}

TEST(BackoffTest, TargetsThatFailTogetherSpreadOut) {
  // 200 targets fail at the same instant; their fifth attempts must not land
  // together (lockstep is what hammers a rebooting fabric).
  std::vector<int64_t> fifth;
  for (int t = 0; t < 200; ++t) {
    Backoff b(milliseconds(1000), milliseconds(60000));
    int64_t at = 0;
    for (int i = 0; i < 5; ++i) at += b.next().count();
    fifth.push_back(at);
  }
  std::sort(fifth.begin(), fifth.end());
  const int64_t spread = fifth[190] - fifth[10];
  EXPECT_GT(spread, 5000) << "5th attempts between " << fifth.front() << " and " << fifth.back() << " ms";
}

}  // namespace
}  // namespace rdmagw::common
