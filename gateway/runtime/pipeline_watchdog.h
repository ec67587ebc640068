#pragma once
// Pets systemd's watchdog (WatchdogSec=) while the pipeline is alive, and
// only then: a thread looks every half interval and sends WATCHDOG=1 when
// `alive()` says so. The pipeline's `alive()` asks whether the poll
// scheduler's heartbeat moved since the last look and whether the store
// answers a read, so a wedged scheduler or store stops the pets and systemd
// restarts the gateway (Restart=on-failure) instead of it serving stale data.

#include <chrono>
#include <condition_variable>
#include <functional>
#include <mutex>
#include <thread>

namespace rdmagw::gateway {

class PipelineWatchdog {
 public:
  // `pet` defaults to service_notify::watchdog (tests pass their own).
  PipelineWatchdog(std::chrono::microseconds interval, std::function<bool()> alive,
                   std::function<void()> pet = {});
  ~PipelineWatchdog();
  PipelineWatchdog(const PipelineWatchdog&) = delete;
  PipelineWatchdog& operator=(const PipelineWatchdog&) = delete;

  void start();
  void stop();

 private:
  void loop();

  const std::chrono::microseconds period_;  // half the watchdog interval
  std::function<bool()> alive_;
  std::function<void()> pet_;
  std::mutex mu_;
  std::condition_variable cv_;
  bool stopping_ = false;  // guarded by mu_
  std::thread thread_;
};

}  // namespace rdmagw::gateway
