#pragma once
// Runs the AnalyticsEngine every `period` on its own thread. A stage of the
// pipeline between the sources and the servers: it reads the store and
// writes derived leaves into it, so it starts after the store and stops
// before the sources it reads from are gone.

#include <condition_variable>
#include <cstdint>
#include <memory>
#include <mutex>
#include <thread>

#include "analytics/analytics_config.h"
#include "analytics/analytics_engine.h"
#include "models/store.h"

namespace rdmagw::analytics {

class AnalyticsStage {
 public:
  // `peers`: AnalyticsEngine's read-only peer store (null outside a fleet).
  // `board`: AnalyticsEngine's (null outside a fleet).
  AnalyticsStage(Store& store, AnalyticsConfig config, const Store* peers = nullptr, MirrorNeedsBoard* board = nullptr);
  ~AnalyticsStage();
  AnalyticsStage(const AnalyticsStage&) = delete;
  AnalyticsStage& operator=(const AnalyticsStage&) = delete;

  void start();
  void stop();  // idempotent; returns after the current run ends

  uint64_t runs() const;

 private:
  void loop();

  const std::chrono::milliseconds period_;
  AnalyticsEngine engine_;
  mutable std::mutex mu_;
  std::condition_variable wake_;
  bool stopping_ = false;  // guarded by mu_
  uint64_t runs_ = 0;      // guarded by mu_
  RunStats last_;          // guarded by mu_: the self-metrics read it
  uint64_t metrics_id_ = 0;
  std::thread thread_;
};

}  // namespace rdmagw::analytics
