#pragma once
// A fixed-bucket histogram of delays, lock-free for its writers, exported
// as a cumulative counter family with a `max_seconds` label (self-metrics
// have no histogram type; see ingest_lag.h for why the label is not `le`).
// Used for the ingest lag (collection -> visible in the store) and the gNMI
// server's change -> send lag.

#include <atomic>
#include <cstdint>
#include <memory>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "models/self_metrics.h"

namespace rdmagw {

class LagHistogram {
 public:
  // `bounds_seconds`: increasing upper bounds; a last bucket (+Inf) takes the rest.
  explicit LagHistogram(std::span<const double> bounds_seconds);

  void record(int64_t lag_ns) { counts_[bucketOf(lag_ns)].fetch_add(1, std::memory_order_relaxed); }
  void recordMany(size_t bucket, uint64_t n) { counts_[bucket].fetch_add(n, std::memory_order_relaxed); }
  size_t bucketOf(int64_t lag_ns) const;

  size_t buckets() const { return bounds_.size() + 1; }
  std::span<const double> bounds() const { return bounds_; }
  // Per bucket (not cumulative); the last is +Inf.
  std::vector<uint64_t> counts() const;
  // The q-quantile in seconds, interpolated linearly inside its bucket (as
  // Prometheus's histogram_quantile does); 0 when nothing was recorded, the
  // highest bound when it falls in +Inf.
  double quantileSeconds(double q) const;

  // Appends the cumulative buckets as `family`{max_seconds="..."} samples;
  // `family` is a schema id that outlives them (a literal).
  void appendCumulative(std::string_view family, std::vector<SelfMetricSample>* out) const;

 private:
  std::vector<double> bounds_;
  std::unique_ptr<std::atomic<uint64_t>[]> counts_;
};

}  // namespace rdmagw
