#include "models/log_repeat_filter.h"

#include <cctype>

namespace rdmagw {

LogRepeatFilter::LogRepeatFilter(Clock::duration every, size_t max_kinds)
    : every_(every), max_kinds_(max_kinds == 0 ? 1 : max_kinds) {}

LogRepeatFilter::Verdict LogRepeatFilter::offer(std::string_view key, Clock::time_point now) {
  std::lock_guard lock(mu_);
  auto it = kinds_.find(std::string(key));
  if (it == kinds_.end()) {
    makeRoom(now);
    kinds_.emplace(std::string(key), Kind{now, 0});
    return {true, 0};
  }
  Kind& k = it->second;
  if (now - k.last_written < every_) {
    ++k.held_back;
    return {false, 0};
  }
  Verdict v{true, k.held_back};
  k = Kind{now, 0};
  return v;
}

void LogRepeatFilter::makeRoom(Clock::time_point now) {
  if (kinds_.size() < max_kinds_) return;
  for (auto it = kinds_.begin(); it != kinds_.end();) {
    it = now - it->second.last_written >= every_ ? kinds_.erase(it) : std::next(it);
  }
  if (kinds_.size() >= max_kinds_) kinds_.clear();
}

std::string LogRepeatFilter::sameness(std::string_view text) {
  std::string out;
  out.reserve(text.size());
  bool in_digits = false;
  for (char c : text) {
    const bool digit = std::isdigit(static_cast<unsigned char>(c)) != 0;
    if (digit && in_digits) continue;
    out.push_back(digit ? '#' : c);
    in_digits = digit;
  }
  return out;
}

}  // namespace rdmagw
