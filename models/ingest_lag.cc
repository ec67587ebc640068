#include "models/ingest_lag.h"

#include <algorithm>

#include "models/self_metrics.h"

namespace rdmagw {

IngestLagHistogram::IngestLagHistogram() {
  // The registration lives as long as the process, like the histogram.
  SelfMetrics::instance().add(
      [this](std::vector<SelfMetricSample>* out) { histogram_.appendCumulative("ingest_lag", out); });
}

IngestLagHistogram& IngestLagHistogram::instance() {
  static IngestLagHistogram* h = new IngestLagHistogram();  // never destroyed: SelfMetrics holds `this`
  return *h;
}

size_t IngestLagHistogram::bucketOf(int64_t lag_ns) {
  const double s = double(lag_ns) * 1e-9;
  return size_t(std::lower_bound(kBoundsSeconds.begin(), kBoundsSeconds.end(), s) - kBoundsSeconds.begin());
}

void IngestLagHistogram::record(std::span<const Update> updates, TimestampNs visible_at) {
  std::array<uint64_t, kBuckets> local{};
  // A notification's updates share one timestamp: find its bucket once.
  TimestampNs last_ts = 0;
  size_t last_bucket = 0;
  bool any = false;
  for (const Update& u : updates) {
    if (u.timestamp_ns == 0) continue;
    if (u.timestamp_ns != last_ts) {
      last_ts = u.timestamp_ns;
      last_bucket = bucketOf(visible_at - u.timestamp_ns);
    }
    ++local[last_bucket];
    any = true;
  }
  if (!any) return;
  for (size_t i = 0; i < kBuckets; ++i) {
    if (local[i] != 0) histogram_.recordMany(i, local[i]);
  }
}

}  // namespace rdmagw
