#include "southbound/ingest_gate.h"

#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <mutex>
#include <thread>
#include <vector>

namespace rdmagw::southbound {
namespace {

// Three writers per place: while the first ones hold every place the rest
// wait (never more inside than places()); once released every write runs.
TEST(IngestGateTest, NoMoreWritersThanPlacesAndEveryWriteRuns) {
  const size_t places = IngestGate::places();
  ASSERT_GE(places, 2u);
  std::mutex mu;
  std::condition_variable cv;
  bool release = false;
  size_t inside = 0, most_inside = 0, done = 0;
  std::vector<std::thread> writers;
  for (size_t i = 0; i < 3 * places; ++i) {
    writers.emplace_back([&] {
      const int r = IngestGate::through([&] {
        std::unique_lock lock(mu);
        ++inside;
        most_inside = std::max(most_inside, inside);
        cv.notify_all();
        cv.wait(lock, [&] { return release; });
        --inside;
        return 7;
      });
      std::lock_guard lock(mu);
      if (r == 7) ++done;
    });
  }
  {
    std::unique_lock lock(mu);
    ASSERT_TRUE(cv.wait_for(lock, std::chrono::seconds(60), [&] { return inside == places; }));
  }
  // Give the others every chance to get in if the gate let them.
  std::this_thread::sleep_for(std::chrono::milliseconds(200));
  {
    std::lock_guard lock(mu);
    EXPECT_EQ(inside, places);
    release = true;
  }
  cv.notify_all();
  for (std::thread& t : writers) t.join();
  EXPECT_EQ(most_inside, places);
  EXPECT_EQ(done, 3 * places);
}

}  // namespace
}  // namespace rdmagw::southbound
