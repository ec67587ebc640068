#include "analytics/analytics_stage.h"
#include "models/self_metrics.h"
#include "models/thread_role.h"

namespace rdmagw::analytics {

AnalyticsStage::AnalyticsStage(Store& store, AnalyticsConfig config, const Store* peers, MirrorNeedsBoard* board)
    : period_(config.period), engine_(store, std::move(config), peers, board) {
  // The last run's cost: what a pass over the whole fabric takes, the RoCE
  // checks apart (absent before the first run).
  metrics_id_ = SelfMetrics::instance().add([this](std::vector<SelfMetricSample>* out) {
    std::lock_guard lock(mu_);
    if (runs_ == 0) return;
    using Seconds = std::chrono::duration<double>;
    out->push_back({"analytics_run_duration", {}, Seconds(last_.duration).count()});
    out->push_back({"analytics_roce_check_duration", {}, Seconds(last_.roce_checks_duration).count()});
    out->push_back({"analytics_runs", {}, double(runs_)});
  });
}

AnalyticsStage::~AnalyticsStage() {
  stop();
  SelfMetrics::instance().remove(metrics_id_);
}

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
    const RunStats stats = engine_.runOnce(nowNs());
    lock.lock();
    last_ = stats;
    ++runs_;
    wake_.wait_for(lock, period_, [this] { return stopping_; });
  }
}

}  // namespace rdmagw::analytics
