#include "southbound/backoff.h"

#include <gtest/gtest.h>

#include <vector>

namespace rdmagw::southbound {
namespace {

using std::chrono::milliseconds;

TEST(BackoffTest, DoublesToTheCapWithJitterBounds) {
  Backoff mid(milliseconds(1000), milliseconds(300000), 0.2, [] { return 0.5; });
  std::vector<int64_t> got;
  for (int i = 0; i < 11; ++i) got.push_back(mid.next().count());
  EXPECT_EQ(got, (std::vector<int64_t>{1000, 2000, 4000, 8000, 16000, 32000, 64000, 128000,
                                       256000, 300000, 300000}));
  mid.reset();
  EXPECT_EQ(mid.next().count(), 1000);
  Backoff low(milliseconds(1000), milliseconds(300000), 0.2, [] { return 0.0; });
  Backoff high(milliseconds(1000), milliseconds(300000), 0.2, [] { return 0.999999; });
  EXPECT_EQ(low.next().count(), 800);
  EXPECT_NEAR(static_cast<double>(high.next().count()), 1200.0, 1.0);
  Backoff real;  // default random stays within +-20%
  for (int i = 0; i < 100; ++i) {
    real.reset();
    int64_t ms = real.next().count();
    EXPECT_GE(ms, 800);
    EXPECT_LE(ms, 1200);
  }
}

}  // namespace
}  // namespace rdmagw::southbound
