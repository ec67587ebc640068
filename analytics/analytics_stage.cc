#include "analytics/analytics_stage.h"
#include "models/thread_role.h"

namespace rdmagw::analytics {

AnalyticsStage::AnalyticsStage(Store& store, AnalyticsConfig config, const Store* peers)
    : period_(config.period), engine_(store, std::move(config), peers) {}

AnalyticsStage::~AnalyticsStage() { stop(); }

void AnalyticsStage::start() {
  if (thread_.joinable()) return;
  {
    std::lock_guard lock(mu_);
    stopping_ = false;
  }
  thread_ = std::thread([this] {
    enterThreadRole("analytics", ThreadRole::kIngest);
    loop();
  });
}

void AnalyticsStage::stop() {
  {
    std::lock_guard lock(mu_);
    stopping_ = true;
  }
  wake_.notify_all();
  if (thread_.joinable()) thread_.join();
}

uint64_t AnalyticsStage::runs() const {
  std::lock_guard lock(mu_);
  return runs_;
}

void AnalyticsStage::loop() {
  std::unique_lock lock(mu_);
  while (!stopping_) {
    lock.unlock();
    engine_.runOnce(nowNs());
    lock.lock();
    ++runs_;
    wake_.wait_for(lock, period_, [this] { return stopping_; });
  }
}

}  // namespace rdmagw::analytics
