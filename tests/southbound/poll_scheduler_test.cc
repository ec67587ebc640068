#include "southbound/poll_scheduler.h"

#include <gtest/gtest.h>

#include <atomic>
#include <thread>

#include "tests/mocks/scripted_poll_source.h"

namespace rdmagw::southbound {
namespace {

using testing::ScriptedPollSource;
using std::chrono::milliseconds;

const char* kCnp = "/rdma/devices/device[name=mlx5_0]/ports/port[port-num=1]/state/hw-counters/np-cnp-sent";

PollTarget target(std::string name, ScriptedPollSource::Script script, milliseconds interval = milliseconds(20)) {
  return PollTarget{std::move(name), "rdma-host", std::make_unique<ScriptedPollSource>(std::move(script)),
                    interval, milliseconds(0), {{"rack", "r1"}}};
}

TargetStatus statusOf(const Store& store, const std::string& name) {
  for (const TargetStatus& t : store.targets()) {
    if (t.name == name) return t;
  }
  return {};
}

// Waits on an event, with a limit generous enough for a slow, loaded machine.
bool waitFor(const std::function<bool()>& cond) {
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(60);
  while (std::chrono::steady_clock::now() < deadline) {
    if (cond()) return true;
    std::this_thread::sleep_for(milliseconds(10));
  }
  return cond();
}

TEST(PollSchedulerTest, SuccessWritesStoreAndHealth) {
  Store store;
  PollScheduler s(store, 2);
  s.add(target("h1", [](int n, PollBatch& b) {
    b.add(kCnp, uint64_t(100 + n), nowNs());
    return Status::ok();
  }));
  EXPECT_EQ(statusOf(store, "h1").health.last_error, "not polled yet");
  EXPECT_FALSE(statusOf(store, "h1").health.up);
  s.pollAllOnce();
  TargetStatus t = statusOf(store, "h1");
  EXPECT_TRUE(t.health.up);
  EXPECT_EQ(t.health.polls, 1u);
  EXPECT_EQ(t.health.transport, "scripted");
  EXPECT_EQ(t.health.kind, "rdma-host");
  ASSERT_EQ(t.health.labels.size(), 1u);
  EXPECT_GT(t.health.last_success_ns, 0);
  EXPECT_EQ(std::get<uint64_t>(store.get("h1", kCnp)->value), 100u);
}

TEST(PollSchedulerTest, PartialErrorsKeepTheRestAndCount) {
  Store store;
  PollScheduler s(store, 1);
  s.add(target("h1", [](int, PollBatch& b) {
    b.add(kCnp, uint64_t(7), nowNs());
    b.error("mlx5_1/ports/1/counters/symbol_error: N/A (no PMA)");
    b.error("mlx5_1/ports/1/hw_counters/out_of_buffer: Invalid argument (EINVAL)");
    return Status::ok();
  }));
  s.pollAllOnce();
  s.pollAllOnce();
  TargetStatus t = statusOf(store, "h1");
  EXPECT_TRUE(t.health.up);
  EXPECT_EQ(t.health.read_errors, 4u);
  EXPECT_NE(t.health.last_error.find("no PMA"), std::string::npos);
  EXPECT_TRUE(store.get("h1", kCnp).has_value());
}

TEST(PollSchedulerTest, FailureMarksDownAndExpiresAfterStaleTime) {
  Store store;
  PollScheduler s(store, 1);
  PollTarget t = target("h1", [](int n, PollBatch& b) {
    if (n == 0) {
      b.add(kCnp, uint64_t(5), nowNs());
      return Status::ok();
    }
    return Status::unavailable("host unreachable");
  });
  t.stale_after = milliseconds(50);
  s.add(std::move(t));
  s.pollAllOnce();
  s.pollAllOnce();  // down, but not yet stale: data kept
  TargetStatus st = statusOf(store, "h1");
  EXPECT_FALSE(st.health.up);
  EXPECT_EQ(st.health.poll_errors, 1u);
  EXPECT_EQ(st.health.last_error, "host unreachable");
  EXPECT_EQ(st.series, 1u);
  std::this_thread::sleep_for(milliseconds(80));
  s.pollAllOnce();  // now stale: expired, health stays
  st = statusOf(store, "h1");
  EXPECT_EQ(st.series, 0u);
  EXPECT_FALSE(st.health.up);
  EXPECT_EQ(st.health.polls, 3u);
}

// A target that hangs holds one worker; the others keep their schedule.
TEST(PollSchedulerTest, AHungTargetDoesNotStopOthers) {
  Store store;
  PollScheduler s(store, 2);
  std::atomic<bool> release{false};
  s.add(target("slow", [&](int, PollBatch&) {
    while (!release) std::this_thread::sleep_for(milliseconds(5));
    return Status::ok();
  }));
  s.add(target("fast", [](int n, PollBatch& b) {
    b.add(kCnp, uint64_t(n), nowNs());
    return Status::ok();
  }));
  s.start();
  EXPECT_TRUE(waitFor([&] { return statusOf(store, "fast").health.polls >= 5; }));
  EXPECT_EQ(statusOf(store, "slow").health.polls, 0u);
  release = true;
  EXPECT_TRUE(waitFor([&] { return statusOf(store, "slow").health.polls >= 1; }));
  s.stop();
}

TEST(PollSchedulerTest, RejectedUpdatesAreCountedNotFatal) {
  Store store;
  PollScheduler s(store, 1);
  s.add(target("h1", [](int, PollBatch& b) {
    b.add("/broken[path", uint64_t(1), nowNs());
    b.add(kCnp, uint64_t(2), nowNs());
    return Status::ok();
  }));
  s.pollAllOnce();
  TargetStatus t = statusOf(store, "h1");
  EXPECT_EQ(t.rejected_updates, 1u);
  EXPECT_EQ(t.series, 1u);
  EXPECT_TRUE(t.health.up);
}

// A failed poll is retried after the backoff, not a whole interval later:
// with a ten-minute interval the target still comes back within the test.
TEST(PollSchedulerTest, AFailedTargetIsRetriedAfterBackoffNotTheInterval) {
  Store store;
  PollScheduler s(store, 1);
  std::atomic<bool> device_back{false};
  PollTarget t = target("sw1", [&](int, PollBatch& b) {
    if (!device_back) return Status::unavailable("ssh: cannot connect to 10.0.0.1:22: Connection refused");
    b.add(kCnp, uint64_t(9), nowNs());
    return Status::ok();
  }, std::chrono::minutes(10));
  t.retry_initial = milliseconds(20);
  s.add(std::move(t));
  s.start();
  // Down, and its health says why, while it is retried.
  ASSERT_TRUE(waitFor([&] { return statusOf(store, "sw1").health.poll_errors >= 3; }));
  TargetStatus down = statusOf(store, "sw1");
  EXPECT_FALSE(down.health.up);
  EXPECT_NE(down.health.last_error.find("Connection refused"), std::string::npos);
  device_back = true;
  EXPECT_TRUE(waitFor([&] { return statusOf(store, "sw1").health.up; }));
  const uint64_t polls_when_up = statusOf(store, "sw1").health.polls;
  s.stop();
  EXPECT_EQ(std::get<uint64_t>(store.get("sw1", kCnp)->value), 9u);
  // Up again: back on the ten-minute interval, no further polls.
  EXPECT_EQ(statusOf(store, "sw1").health.polls, polls_when_up);
}

TEST(PollSchedulerTest, StopIsPromptAndRepeatable) {
  Store store;
  PollScheduler s(store, 4);
  for (int i = 0; i < 10; ++i) {
    s.add(target("h" + std::to_string(i), [](int, PollBatch&) { return Status::ok(); }, milliseconds(10000)));
  }
  s.start();
  EXPECT_TRUE(waitFor([&] {
    for (const auto& t : store.targets()) {
      if (t.health.polls < 1) return false;
    }
    return true;
  }));
  s.stop();
  s.stop();
  for (const auto& t : store.targets()) EXPECT_EQ(t.health.polls, 1u) << t.name;
}

}  // namespace
}  // namespace rdmagw::southbound

namespace rdmagw::southbound {
namespace {

// A config reload adds and removes single targets of a running scheduler:
// the others keep their schedule, and remove() returns only once no poll of
// the removed target runs, so nothing of it is written afterwards.
TEST(PollSchedulerTest, TargetsComeAndGoWhileRunning) {
  Store store;
  PollScheduler s(store, 2);
  s.add(target("a", [](int n, PollBatch& b) {
    b.add(kCnp, uint64_t(n), nowNs());
    return Status::ok();
  }));
  s.start();
  std::atomic<int> b_polls{0};
  std::atomic<bool> hold{false}, holding{false};
  s.add(target("b", [&](int n, PollBatch& batch) {
    ++b_polls;
    while (hold) {
      holding = true;
      std::this_thread::sleep_for(milliseconds(5));
    }
    batch.add(kCnp, uint64_t(n), nowNs());
    return Status::ok();
  }));
  EXPECT_TRUE(waitFor([&] { return b_polls >= 3; }));
  EXPECT_EQ(s.targetCount(), 2u);

  hold = true;
  EXPECT_TRUE(waitFor([&] { return holding.load(); }));
  std::atomic<bool> removed{false};
  std::thread remover([&] {
    EXPECT_TRUE(s.remove("b"));
    removed = true;
  });
  const uint64_t a_before = statusOf(store, "a").health.polls;
  EXPECT_TRUE(waitFor([&] { return statusOf(store, "a").health.polls >= a_before + 3; }));
  EXPECT_FALSE(removed) << "remove() returned while a poll of the target ran";
  hold = false;
  remover.join();
  const int b_final = b_polls;
  const uint64_t a_after = statusOf(store, "a").health.polls;
  EXPECT_TRUE(waitFor([&] { return statusOf(store, "a").health.polls >= a_after + 3; }));
  EXPECT_EQ(b_polls, b_final) << "a removed target was polled again";
  EXPECT_EQ(s.targetCount(), 1u);
  EXPECT_FALSE(s.remove("b"));
  s.stop();
}

}  // namespace
}  // namespace rdmagw::southbound
