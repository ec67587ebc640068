#include "gateway/runtime/pipeline_watchdog.h"

#include "gateway/runtime/service_notify.h"
#include "models/log.h"

namespace rdmagw::gateway {

PipelineWatchdog::PipelineWatchdog(std::chrono::microseconds interval, std::function<bool()> alive,
                                   std::function<void()> pet)
    : period_(interval / 2), alive_(std::move(alive)), pet_(pet ? std::move(pet) : service_notify::watchdog) {}

PipelineWatchdog::~PipelineWatchdog() { stop(); }

void PipelineWatchdog::start() {
  {
    std::lock_guard lock(mu_);
    stopping_ = false;
  }
  thread_ = std::thread([this] { loop(); });
}

void PipelineWatchdog::stop() {
  {
    std::lock_guard lock(mu_);
    stopping_ = true;
  }
  cv_.notify_all();
  if (thread_.joinable()) thread_.join();
}

void PipelineWatchdog::loop() {
  bool was_alive = true;
  std::unique_lock lock(mu_);
  while (!stopping_) {
    lock.unlock();
    const bool alive = alive_();
    if (alive) pet_();
    if (alive != was_alive) {
      if (alive) RDMAGW_LOG(kInfo, "watchdog") << "pipeline progresses again: watchdog petted";
      else RDMAGW_LOG(kError, "watchdog") << "pipeline made no progress: watchdog not petted";
      was_alive = alive;
    }
    lock.lock();
    cv_.wait_for(lock, period_, [this] { return stopping_; });
  }
}

}  // namespace rdmagw::gateway
