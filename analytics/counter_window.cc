#include "analytics/counter_window.h"

namespace rdmagw::analytics {

void CounterWindow::observe(const std::string& key, TimestampNs ts, uint64_t value) {
  std::deque<Sample>& s = series_[key];
  if (!s.empty() && ts <= s.back().ts) return;
  // The store's counters are monotonic (counter_tracker.h); a smaller value
  // is a store that forgot the target and started over: start over too.
  if (!s.empty() && value < s.back().value) s.clear();
  s.push_back({ts, value});
}

std::optional<Increase> CounterWindow::increase(const std::string& key, TimestampNs now) const {
  auto it = series_.find(key);
  if (it == series_.end() || it->second.size() < 2) return std::nullopt;
  const std::deque<Sample>& s = it->second;
  const TimestampNs start = now - window_ns_;
  if (s.back().ts <= start) return std::nullopt;
  size_t first = 0;
  while (first + 1 < s.size() && s[first + 1].ts <= start) ++first;
  if (first + 1 >= s.size()) return std::nullopt;
  Increase inc;
  inc.count = double(s.back().value - s[first].value);
  inc.seconds = double(s.back().ts - s[first].ts) / 1e9;
  return inc;
}

void CounterWindow::prune(TimestampNs now) {
  const TimestampNs start = now - window_ns_;
  for (auto it = series_.begin(); it != series_.end();) {
    std::deque<Sample>& s = it->second;
    while (s.size() >= 2 && s[1].ts <= start) s.pop_front();
    if (s.back().ts <= start) {
      it = series_.erase(it);  // nothing fresh: the next sample starts a new history
    } else {
      ++it;
    }
  }
}

}  // namespace rdmagw::analytics
