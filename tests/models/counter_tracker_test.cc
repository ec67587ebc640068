#include "models/counter_tracker.h"

#include <gtest/gtest.h>

namespace rdmagw {
namespace {

using Event = CounterTracker::Event;

TEST(CounterTrackerTest, Monotonic64PassesThrough) {
  CounterTracker c;
  EXPECT_EQ(c.observe(100, CounterSource::monotonic64(), 1), Event::kFirst);
  EXPECT_EQ(c.observe(250, CounterSource::monotonic64(), 2), Event::kNone);
  EXPECT_EQ(c.value(), 250u);
  EXPECT_EQ(c.discontinuityNs(), 0);
}

TEST(CounterTrackerTest, Wrap32AddsTwoToThe32) {
  CounterTracker c;
  auto src = CounterSource::wrapping(32);
  c.observe(4294967000u, src, 1);
  EXPECT_EQ(c.observe(500, src, 2), Event::kWrap);
  EXPECT_EQ(c.value(), 4294967296ull + 500);
  EXPECT_EQ(c.discontinuityNs(), 0) << "a compensated wrap is no discontinuity";
  c.observe(4294967000u, src, 3);
  EXPECT_EQ(c.observe(10, src, 4), Event::kWrap);
  EXPECT_EQ(c.value(), 2 * 4294967296ull + 10);
}

TEST(CounterTrackerTest, Wrap32DecreaseFromLowerHalfIsAReset) {
  CounterTracker c;
  auto src = CounterSource::wrapping(32);
  c.observe(1000, src, 1);
  EXPECT_EQ(c.observe(10, src, 7), Event::kReset);
  EXPECT_EQ(c.value(), 1010u);
  EXPECT_EQ(c.discontinuityNs(), 7);
  EXPECT_EQ(c.resets(), 1u);
}

TEST(CounterTrackerTest, Reset64KeepsValueMonotonic) {
  CounterTracker c;
  c.observe(5000, CounterSource::monotonic64(), 1);
  EXPECT_EQ(c.observe(20, CounterSource::monotonic64(), 9), Event::kReset);
  EXPECT_EQ(c.value(), 5020u);
  EXPECT_EQ(c.discontinuityNs(), 9);
  c.observe(30, CounterSource::monotonic64(), 10);
  EXPECT_EQ(c.value(), 5030u);
}

TEST(CounterTrackerTest, SaturatingCounterHoldsAndFlags) {
  CounterTracker c;
  auto src = CounterSource::saturating(16);
  c.observe(65000, src, 1);
  EXPECT_FALSE(c.saturated());
  EXPECT_EQ(c.observe(65535, src, 2), Event::kSaturated);
  EXPECT_TRUE(c.saturated());
  EXPECT_EQ(c.observe(65535, src, 3), Event::kNone);
  EXPECT_EQ(c.value(), 65535u);
  // Cleared by an operator (perfquery -x): a reset, not a wrap.
  EXPECT_EQ(c.observe(3, src, 4), Event::kReset);
  EXPECT_FALSE(c.saturated());
  EXPECT_EQ(c.value(), 65535u + 3);
  EXPECT_EQ(c.discontinuityNs(), 4);
}

TEST(CounterTrackerTest, SaturatedOnFirstSight) {
  CounterTracker c;
  EXPECT_EQ(c.observe(15, CounterSource::saturating(4), 1), Event::kSaturated);
  EXPECT_TRUE(c.saturated());
}

TEST(CounterTrackerTest, ReadingWiderThanDeclaredIsClamped) {
  CounterTracker c;
  c.observe(70000, CounterSource::saturating(16), 1);
  EXPECT_EQ(c.value(), 65535u);
  EXPECT_TRUE(c.saturated());
}

}  // namespace
}  // namespace rdmagw
