#pragma once
// Runs every polled target on its own interval with a bounded pool of
// workers, writes each batch into the store and keeps the target's health.
// Targets fail independently (node_exporter's rule): one slow or broken
// target delays only itself.

#include <chrono>
#include <condition_variable>
#include <memory>
#include <mutex>
#include <set>
#include <string>
#include <thread>
#include <utility>
#include <vector>

#include "models/store.h"
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
};

class PollScheduler {
 public:
  PollScheduler(Store& store, size_t max_concurrent_polls);
  ~PollScheduler();
  PollScheduler(const PollScheduler&) = delete;
  PollScheduler& operator=(const PollScheduler&) = delete;

  void add(PollTarget target);  // before start()
  void start();
  void stop();                  // waits for polls in flight

  // Polls every target once on the caller's thread (tests, `rdmagw parse`).
  void pollAllOnce();

 private:
  struct Slot {
    PollTarget target;
    TargetHealth health;
    std::chrono::steady_clock::time_point due;
    bool busy = false;
    std::set<std::string> logged_errors;  // so a persistent error is logged once at WARN
  };
  void workerLoop();
  void pollOne(Slot& slot);

  Store& store_;
  size_t max_workers_;
  std::mutex mu_;
  std::condition_variable cv_;
  std::vector<std::unique_ptr<Slot>> slots_;  // guarded by mu_ (busy, due)
  bool stopping_ = false;                     // guarded by mu_
  std::vector<std::thread> workers_;
};

}  // namespace rdmagw::southbound
