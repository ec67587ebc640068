#include "common/backoff.h"

#include <algorithm>
#include <memory>
#include <random>

namespace rdmagw::common {

Backoff::Backoff(std::chrono::milliseconds initial, std::chrono::milliseconds max, Random random)
    : initial_(std::max(initial, std::chrono::milliseconds(1))),
      max_(std::max(initial_, max)),
      random_(std::move(random)),
      previous_(initial_) {
  if (!random_) {
    // Seeded per instance so targets created together still spread out.
    auto engine = std::make_shared<std::mt19937_64>(std::random_device{}());
    random_ = [engine] { return std::uniform_real_distribution<double>(0.0, 1.0)(*engine); };
  }
}

std::chrono::milliseconds Backoff::next() {
  const double low = static_cast<double>(initial_.count());
  // 3 x previous, computed without overflow: previous_ never exceeds max_.
  const double high = std::min(3.0 * static_cast<double>(previous_.count()), static_cast<double>(max_.count()));
  const double r = std::clamp(random_(), 0.0, 1.0);
  const auto delay = std::chrono::milliseconds(static_cast<int64_t>(low + (std::max(high, low) - low) * r));
  previous_ = std::clamp(delay, initial_, max_);
  ++attempts_;
  return previous_;
}

}  // namespace rdmagw::common
