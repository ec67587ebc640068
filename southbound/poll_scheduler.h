#pragma once
// Runs every polled target on its own interval with a bounded pool of
// workers, writes each batch into the store and keeps the target's health.
// Targets fail independently (node_exporter's rule): one slow or broken
// target delays only itself.

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <memory>
#include <mutex>
#include <set>
#include <string>
#include <thread>
#include <utility>
#include <vector>

#include "common/backoff.h"
#include "models/store.h"
#include "southbound/failure_log.h"
#include "southbound/poll_source.h"

namespace rdmagw::southbound {

struct PollTarget {
  std::string name;
  std::string kind;  // rdma-host, nexus, esxi
  PollSourcePtr source;
  std::chrono::milliseconds interval{10000};
  // Once the target has been down this long its data is expired (its `up`
  // stays, at 0). Zero means three intervals.
  std::chrono::milliseconds stale_after{0};
  std::vector<std::pair<std::string, std::string>> labels;
  // After a failed poll the target is tried again after a jittered
  // exponential backoff starting here, capped at `interval`: a device that
  // was briefly unreachable comes back without waiting a whole (possibly
  // long) interval, and a dead one is not hammered.
  std::chrono::milliseconds retry_initial{1000};
};

class PollScheduler {
 public:
  PollScheduler(Store& store, size_t max_concurrent_polls);
  ~PollScheduler();
  PollScheduler(const PollScheduler&) = delete;
  PollScheduler& operator=(const PollScheduler&) = delete;

  // Before or after start(): a target added to a running scheduler is
  // polled at once, and the pool grows up to max_concurrent_polls workers.
  void add(PollTarget target);
  // Stops polling `name` and returns once no poll of it runs, so nothing of
  // it is written afterwards; the source is destroyed (its sessions closed).
  // Its data stays in the store: the caller removes it. False: unknown name.
  bool remove(const std::string& name);
  void start();
  void stop();                  // waits for polls in flight
  size_t targetCount() const;

  // Polls every target once on the caller's thread (tests, `rdmagw parse`).
  void pollAllOnce();

  // Advances each time a worker goes round its loop, and an idle worker goes
  // round at least every kHeartbeatPeriod: while it moves, the scheduler's
  // lock is not wedged and not every worker is stuck in a device. The
  // service watchdog (gateway/runtime/pipeline_watchdog.h) pets systemd only then.
  uint64_t heartbeat() const { return heartbeat_.load(std::memory_order_relaxed); }
  static constexpr std::chrono::milliseconds kHeartbeatPeriod{1000};

 private:
  struct Slot;
  void workerLoop();
  // Polls once, writes the batch and health; returns when to poll next.
  std::chrono::steady_clock::time_point pollOne(Slot& slot);
  void logPartErrors(Slot& slot, const std::vector<std::string>& errors);
  void growWorkers();  // mu_ held


  Store& store_;
  size_t max_workers_;
  mutable std::mutex mu_;
  std::condition_variable cv_;
  std::vector<std::unique_ptr<Slot>> slots_;  // guarded by mu_ (busy, due)
  bool stopping_ = false;                     // guarded by mu_
  bool started_ = false;                      // guarded by mu_
  std::vector<std::thread> workers_;          // guarded by mu_ (joined by stop())
  std::atomic<uint64_t> heartbeat_{0};
};

}  // namespace rdmagw::southbound
