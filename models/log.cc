#include "models/log.h"

#include <atomic>
#include <chrono>
#include <cstdio>
#include <ctime>
#include <mutex>

namespace rdmagw {
namespace {
std::atomic<LogLevel> g_level{LogLevel::kInfo};
std::atomic<LogLevelListener> g_listener{nullptr};
std::mutex g_mu;
const char* name(LogLevel l) {
  switch (l) {
    case LogLevel::kDebug: return "DEBUG";
    case LogLevel::kInfo: return "INFO";
    case LogLevel::kWarn: return "WARN";
    case LogLevel::kError: return "ERROR";
  }
  return "?";
}
}  // namespace

void setLogLevel(LogLevel level) {
  g_level = level;
  if (LogLevelListener listener = g_listener.load()) listener(level);
}

void setLogLevelListener(LogLevelListener listener) { g_listener = listener; }
LogLevel logLevel() { return g_level; }

bool parseLogLevel(const std::string& text, LogLevel* out) {
  if (text == "debug") *out = LogLevel::kDebug;
  else if (text == "info") *out = LogLevel::kInfo;
  else if (text == "warn") *out = LogLevel::kWarn;
  else if (text == "error") *out = LogLevel::kError;
  else return false;
  return true;
}

void logLine(LogLevel level, const std::string& component, const std::string& message) {
  auto now = std::chrono::system_clock::now();
  std::time_t secs = std::chrono::system_clock::to_time_t(now);
  int millis = int(std::chrono::duration_cast<std::chrono::milliseconds>(now.time_since_epoch()).count() % 1000);
  std::tm tm{};
  gmtime_r(&secs, &tm);
  char stamp[32];
  std::strftime(stamp, sizeof stamp, "%Y-%m-%dT%H:%M:%S", &tm);
  std::lock_guard lock(g_mu);
  std::fprintf(stderr, "%s.%03dZ %-5s [%s] %s\n", stamp, millis, name(level), component.c_str(),
               message.c_str());
}

}  // namespace rdmagw
