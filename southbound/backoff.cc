#include "southbound/backoff.h"

#include <algorithm>
#include <memory>
#include <random>

namespace rdmagw::southbound {

Backoff::Backoff(std::chrono::milliseconds initial, std::chrono::milliseconds max, double jitter,
                 Random random)
    : initial_(initial), max_(std::max(initial, max)), jitter_(std::clamp(jitter, 0.0, 1.0)),
      random_(std::move(random)) {
  if (!random_) {
    // Seeded per instance so targets created together still spread out.
    auto engine = std::make_shared<std::mt19937_64>(std::random_device{}());
    random_ = [engine] { return std::uniform_real_distribution<double>(0.0, 1.0)(*engine); };
  }
}

std::chrono::milliseconds Backoff::next() {
  double base = static_cast<double>(initial_.count());
  for (int i = 0; i < attempts_ && base < static_cast<double>(max_.count()); ++i) base *= 2;
  base = std::min(base, static_cast<double>(max_.count()));
  ++attempts_;
  const double factor = 1.0 - jitter_ + 2.0 * jitter_ * random_();
  return std::chrono::milliseconds(static_cast<int64_t>(base * factor));
}

}  // namespace rdmagw::southbound
