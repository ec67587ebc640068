#include "models/lag_histogram.h"

#include <algorithm>
#include <cstdio>

namespace rdmagw {
namespace {

// "0.001", "0.00025", "1", "2.5": the shortest text of a bound.
std::string boundText(double s) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.9f", s);
  std::string t = buf;
  t.erase(t.find_last_not_of('0') + 1);
  if (t.back() == '.') t.pop_back();
  return t;
}

}  // namespace

LagHistogram::LagHistogram(std::span<const double> bounds_seconds)
    : bounds_(bounds_seconds.begin(), bounds_seconds.end()),
      counts_(new std::atomic<uint64_t>[bounds_seconds.size() + 1]) {
  for (size_t i = 0; i < buckets(); ++i) counts_[i].store(0, std::memory_order_relaxed);
}

size_t LagHistogram::bucketOf(int64_t lag_ns) const {
  const double s = double(lag_ns) * 1e-9;
  return size_t(std::lower_bound(bounds_.begin(), bounds_.end(), s) - bounds_.begin());
}

std::vector<uint64_t> LagHistogram::counts() const {
  std::vector<uint64_t> out(buckets());
  for (size_t i = 0; i < out.size(); ++i) out[i] = counts_[i].load(std::memory_order_relaxed);
  return out;
}

double LagHistogram::quantileSeconds(double q) const {
  const std::vector<uint64_t> c = counts();
  uint64_t total = 0;
  for (uint64_t n : c) total += n;
  if (total == 0) return 0;
  const double rank = q * double(total);
  uint64_t below = 0;
  for (size_t i = 0; i < c.size(); ++i) {
    if (double(below + c[i]) >= rank && c[i] > 0) {
      if (i == bounds_.size()) return bounds_.empty() ? 0 : bounds_.back();
      const double lo = i == 0 ? 0 : bounds_[i - 1];
      return lo + (bounds_[i] - lo) * (rank - double(below)) / double(c[i]);
    }
    below += c[i];
  }
  return bounds_.empty() ? 0 : bounds_.back();
}

void LagHistogram::appendCumulative(std::string_view family, std::vector<SelfMetricSample>* out) const {
  const std::vector<uint64_t> c = counts();
  uint64_t cumulative = 0;
  for (size_t i = 0; i < c.size(); ++i) {
    cumulative += c[i];
    out->push_back({family, {i < bounds_.size() ? boundText(bounds_[i]) : "+Inf"}, double(cumulative)});
  }
}

}  // namespace rdmagw
