#include "models/log_repeat_filter.h"

#include <gtest/gtest.h>

#include <atomic>
#include <thread>
#include <vector>

namespace rdmagw {
namespace {

using Clock = LogRepeatFilter::Clock;
using std::chrono::seconds;

TEST(LogRepeatFilterTest, FirstLineOfAKindIsWrittenRepeatsAreCountedUntilTheWindowPasses) {
  LogRepeatFilter f(seconds(60));
  const Clock::time_point t0{};
  EXPECT_TRUE(f.offer("handshake", t0 + seconds(1)).write);
  for (int i = 2; i <= 5; ++i) EXPECT_FALSE(f.offer("handshake", t0 + seconds(i)).write) << i;
  // Another kind is not held back by the first.
  EXPECT_TRUE(f.offer("connect", t0 + seconds(6)).write);
  // One window after the last written line: written again, with the count.
  LogRepeatFilter::Verdict v = f.offer("handshake", t0 + seconds(61));
  EXPECT_TRUE(v.write);
  EXPECT_EQ(v.held_back, 4u);
  // The count starts over from there.
  EXPECT_FALSE(f.offer("handshake", t0 + seconds(62)).write);
  v = f.offer("handshake", t0 + seconds(121));
  EXPECT_TRUE(v.write);
  EXPECT_EQ(v.held_back, 1u);
}

TEST(LogRepeatFilterTest, SamenessFoldsNumbers) {
  EXPECT_EQ(LogRepeatFilter::sameness("peer 10.0.0.17:50051 after 1200 ms"), "peer #.#.#.#:# after # ms");
  EXPECT_EQ(LogRepeatFilter::sameness("peer 10.0.0.2:50051 after 3 ms"),
            LogRepeatFilter::sameness("peer 10.0.0.17:50051 after 1200 ms"));
  EXPECT_NE(LogRepeatFilter::sameness("CERTIFICATE_VERIFY_FAILED"), LogRepeatFilter::sameness("WRONG_VERSION"));
}

TEST(LogRepeatFilterTest, BoundedKindsForgetQuietOnesFirst) {
  LogRepeatFilter f(seconds(60), 2);
  const Clock::time_point t0{};
  EXPECT_TRUE(f.offer("a", t0).write);
  EXPECT_TRUE(f.offer("b", t0 + seconds(100)).write);
  // Full: "a" has been quiet for a window and goes; "b" is kept and still held back.
  EXPECT_TRUE(f.offer("c", t0 + seconds(101)).write);
  EXPECT_FALSE(f.offer("b", t0 + seconds(102)).write);
}

TEST(LogRepeatFilterTest, ManyThreadsWriteOneLinePerKind) {
  LogRepeatFilter f(std::chrono::hours(1));
  std::atomic<int> written{0};
  std::vector<std::thread> threads;
  for (int t = 0; t < 8; ++t) {
    threads.emplace_back([&] {
      for (int i = 0; i < 1000; ++i) written += f.offer(i % 2 ? "odd" : "even").write ? 1 : 0;
    });
  }
  for (auto& t : threads) t.join();
  EXPECT_EQ(written.load(), 2);
}

}  // namespace
}  // namespace rdmagw
