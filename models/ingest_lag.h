#pragma once
// Ingest lag: how long an update takes from its collection timestamp (the
// device's, or the poller's read time) until readers can see it in the store.
// One process-wide histogram, fed by Store::apply once per batch, exported as
// the cumulative counter family rdmagw_ingest_lag_updates_total{max_seconds="..."}
// (the schema's "ingest_lag" row). Not `le`: promtool rejects an `le` label
// outside a histogram, and self-metrics have no histogram type yet;
// label_replace(..., "le", "$1", "max_seconds", "(.*)") feeds histogram_quantile().
// The lag includes any clock difference between a device and the gateway.

#include <array>
#include <cstdint>
#include <span>
#include <vector>

#include "models/lag_histogram.h"
#include "models/update.h"

namespace rdmagw {

class IngestLagHistogram {
 public:
  // Upper bounds in seconds; a last bucket (+Inf) takes the rest.
  static constexpr std::array<double, 15> kBoundsSeconds = {
      0.001, 0.002, 0.005, 0.01, 0.02, 0.05, 0.1, 0.2, 0.5, 1, 2, 5, 10, 30, 60};
  static constexpr size_t kBuckets = kBoundsSeconds.size() + 1;

  // The process's histogram; registers itself with SelfMetrics on first use.
  static IngestLagHistogram& instance();

  // Updates with no timestamp (0) are not counted.
  void record(std::span<const Update> updates, TimestampNs visible_at);
  // Per bucket (not cumulative); the last is +Inf.
  std::vector<uint64_t> counts() const { return histogram_.counts(); }
  static size_t bucketOf(int64_t lag_ns);

 private:
  IngestLagHistogram();
  LagHistogram histogram_{kBoundsSeconds};
};

}  // namespace rdmagw
