#include "southbound/failure_log.h"

#include <cctype>
#include <cstdio>

#include "models/log.h"

namespace rdmagw::southbound {
namespace {

std::string durationText(FailureLog::Clock::duration d) {
  const int64_t s = std::chrono::duration_cast<std::chrono::seconds>(d).count();
  char buf[48];
  if (s < 120) {
    std::snprintf(buf, sizeof buf, "%lld s", static_cast<long long>(s));
  } else if (s < 7200) {
    std::snprintf(buf, sizeof buf, "%lld min", static_cast<long long>(s / 60));
  } else {
    std::snprintf(buf, sizeof buf, "%.1f h", static_cast<double>(s) / 3600.0);
  }
  return buf;
}

void log(LogLevel level, const std::string& component, const std::string& line) {
  if (level >= logLevel()) logLine(level, component, line);
}

}  // namespace

FailureLog::FailureLog(std::string component, std::string subject, Clock::duration every)
    : component_(std::move(component)), subject_(std::move(subject)), every_(every) {}

std::string FailureLog::sameness(std::string_view message) {
  std::string out;
  out.reserve(message.size());
  for (size_t i = 0; i < message.size(); ++i) {
    if (std::isdigit(static_cast<unsigned char>(message[i])) != 0) {
      out += '#';
      while (i + 1 < message.size() &&
             (std::isdigit(static_cast<unsigned char>(message[i + 1])) != 0 || message[i + 1] == '.')) {
        ++i;
      }
    } else {
      out += message[i];
    }
  }
  return out;
}

std::optional<std::string> FailureLog::failed(std::string_view message, Clock::time_point now) {
  std::string key = sameness(message);
  if (!failing_) {
    failing_ = true;
    since_ = now;
    failures_ = 0;
  }
  ++failures_;
  const bool changed = key != key_;
  if (!changed && failures_ > 1 && now - last_logged_ < every_) {
    ++unlogged_;
    return std::nullopt;
  }
  std::string line = subject_ + ": " + std::string(message);
  if (!changed && unlogged_ > 0) {
    line += " (repeated " + std::to_string(unlogged_) + " time" + (unlogged_ == 1 ? "" : "s") +
            " since the last report; failing for " + durationText(now - since_) + ")";
  } else if (changed && failures_ > 1) {
    line += " (a different error; failing for " + durationText(now - since_) + ")";
  }
  key_ = std::move(key);
  last_logged_ = now;
  unlogged_ = 0;
  log(LogLevel::kWarn, component_, line);
  return line;
}

std::optional<std::string> FailureLog::recovered(Clock::time_point now) {
  if (!failing_) return std::nullopt;
  std::string line = subject_ + ": recovered after " + std::to_string(failures_) + " failure" +
                     (failures_ == 1 ? "" : "s") + " over " + durationText(now - since_);
  failing_ = false;
  key_.clear();
  unlogged_ = 0;
  failures_ = 0;
  log(LogLevel::kInfo, component_, line);
  return line;
}

}  // namespace rdmagw::southbound
