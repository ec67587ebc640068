#pragma once
// How a source logs a failure that repeats on every poll: once when it
// starts, then at most once per `every` with how often it repeated since
// the last line, and once when it clears. At a thousand targets an
// unreachable device or a broken sysfs file must not write a WARN line per
// poll into the journal; the per-target metrics still count every failure.
//
// Two failures are "the same" when their texts differ only in numbers
// ("next reconnect in 1.2 s" and "... in 3.9 s" are one failure); a
// different text is logged at once.
//
// Not thread-safe: one per target (or per part), used by whoever polls it.

#include <chrono>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace rdmagw::southbound {

class FailureLog {
 public:
  using Clock = std::chrono::steady_clock;
  static constexpr Clock::duration kDefaultEvery = std::chrono::minutes(5);

  // component: the log component ("poll", "gnmi"); subject: what the lines
  // are about ("h1: collection failed").
  FailureLog(std::string component, std::string subject, Clock::duration every = kDefaultEvery);

  // One more failure. Returns the line it logged at WARN, if any.
  std::optional<std::string> failed(std::string_view message, Clock::time_point now = Clock::now());
  // The failure is over. Returns the line it logged at INFO, if it was failing.
  std::optional<std::string> recovered(Clock::time_point now = Clock::now());

  bool failing() const { return failing_; }

  // The text with every run of digits folded into one '#'.
  static std::string sameness(std::string_view message);

 private:
  std::string component_;
  std::string subject_;
  Clock::duration every_;
  bool failing_ = false;
  std::string key_;                  // sameness() of the failure last logged
  Clock::time_point since_{};        // when the current failure started
  Clock::time_point last_logged_{};
  uint64_t failures_ = 0;            // in the current failure
  uint64_t unlogged_ = 0;            // repeats since the last line
};

}  // namespace rdmagw::southbound
