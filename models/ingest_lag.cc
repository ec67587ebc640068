#include "models/ingest_lag.h"

#include <string>

#include "models/self_metrics.h"

namespace rdmagw {

IngestLagHistogram::IngestLagHistogram() {
  // The registration lives as long as the process, like the histogram.
  SelfMetrics::instance().add([this](std::vector<SelfMetricSample>* out) {
    const std::array<uint64_t, kBuckets> c = counts();
    uint64_t cumulative = 0;
    for (size_t i = 0; i < kBuckets; ++i) {
      cumulative += c[i];
      std::string le = i < kBoundsSeconds.size() ? std::to_string(kBoundsSeconds[i]) : "+Inf";
      if (i < kBoundsSeconds.size()) {
        // std::to_string gives "0.001000": trim to the shortest form a reader expects.
        le.erase(le.find_last_not_of('0') + 1);
        if (le.back() == '.') le.pop_back();
      }
      out->push_back({"ingest_lag", {std::move(le)}, double(cumulative)});
    }
  });
}

IngestLagHistogram& IngestLagHistogram::instance() {
  static IngestLagHistogram* h = new IngestLagHistogram();  // never destroyed: SelfMetrics holds `this`
  return *h;
}

size_t IngestLagHistogram::bucketOf(int64_t lag_ns) {
  const double s = double(lag_ns) * 1e-9;
  size_t i = 0;
  while (i < kBoundsSeconds.size() && s > kBoundsSeconds[i]) ++i;
  return i;
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
    if (local[i] != 0) counts_[i].fetch_add(local[i], std::memory_order_relaxed);
  }
}

std::array<uint64_t, IngestLagHistogram::kBuckets> IngestLagHistogram::counts() const {
  std::array<uint64_t, kBuckets> out{};
  for (size_t i = 0; i < kBuckets; ++i) out[i] = counts_[i].load(std::memory_order_relaxed);
  return out;
}

}  // namespace rdmagw
