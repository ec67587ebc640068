#include "analytics/analytics_config.h"

#include <cctype>

namespace rdmagw::analytics {

bool splitRdmaPort(const std::string& text, std::string* device, std::string* port) {
  const size_t slash = text.rfind('/');
  if (slash == std::string::npos || slash == 0 || slash + 1 == text.size()) return false;
  for (size_t i = slash + 1; i < text.size(); ++i) {
    if (!std::isdigit(static_cast<unsigned char>(text[i]))) return false;
  }
  if (device != nullptr) *device = text.substr(0, slash);
  if (port != nullptr) *port = text.substr(slash + 1);
  return true;
}

std::string LinkEnd::device() const {
  std::string d;
  splitRdmaPort(name, &d, nullptr);
  return d;
}

std::string LinkEnd::port() const {
  std::string p;
  splitRdmaPort(name, nullptr, &p);
  return p;
}

std::string LinkEnd::toString() const { return target + ":" + name; }

Status AnalyticsConfig::validate() const {
  if (period < std::chrono::milliseconds(100)) return Status::invalidArgument("period must be at least 100ms");
  // A rate needs two samples inside the window; with fewer than two runs per
  // window every verdict would flicker between a value and nothing.
  if (window < 2 * period) return Status::invalidArgument("window must be at least twice the period");
  for (int p : no_drop_priorities) {
    if (p < 0 || p > 7) return Status::invalidArgument("no_drop_priorities: " + std::to_string(p) + " is not 0..7");
  }
  if (pause_storm_percent < 1 || pause_storm_percent > 100) {
    return Status::invalidArgument("pause_storm.paused_percent: " + std::to_string(pause_storm_percent) +
                                   " is not 1..100");
  }
  if (pause_storm_for.count() < 0) return Status::invalidArgument("pause_storm.for must not be negative");
  return Status::ok();
}

}  // namespace rdmagw::analytics
