#include "models/self_metrics.h"

namespace rdmagw {

SelfMetrics& SelfMetrics::instance() {
  static SelfMetrics registry;
  return registry;
}

uint64_t SelfMetrics::add(Source source) {
  std::lock_guard lock(mu_);
  const uint64_t id = next_id_++;
  sources_.emplace(id, std::move(source));
  return id;
}

void SelfMetrics::remove(uint64_t id) {
  std::lock_guard lock(mu_);
  sources_.erase(id);
}

std::vector<SelfMetricSample> SelfMetrics::collect() const {
  std::vector<SelfMetricSample> out;
  std::lock_guard lock(mu_);
  for (const auto& [id, source] : sources_) source(&out);
  return out;
}

}  // namespace rdmagw
