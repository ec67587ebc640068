#pragma once
// A small thread-safe logger: one line per call, to stderr.
// Secrets never reach it: callers pass errors already scrubbed.

#include <sstream>
#include <string>

namespace rdmagw {

enum class LogLevel { kDebug = 0, kInfo = 1, kWarn = 2, kError = 3 };

void setLogLevel(LogLevel level);
LogLevel logLevel();
// Told every new level (on setLogLevel's thread), so that a library with a
// log of its own (gRPC: gateway/runtime/grpc_log_bridge.h) follows the gateway's
// level. One listener; nullptr removes it.
using LogLevelListener = void (*)(LogLevel);
void setLogLevelListener(LogLevelListener listener);
bool parseLogLevel(const std::string& text, LogLevel* out);
void logLine(LogLevel level, const std::string& component, const std::string& message);

// Usage: RDMAGW_LOG(kWarn, "rdma") << "host01 mlx5_0: " << err;
class LogStream {
 public:
  LogStream(LogLevel level, const char* component) : level_(level), component_(component) {}
  ~LogStream() { logLine(level_, component_, out_.str()); }
  template <typename T>
  LogStream& operator<<(const T& v) {
    out_ << v;
    return *this;
  }

 private:
  LogLevel level_;
  const char* component_;
  std::ostringstream out_;
};

}  // namespace rdmagw

#define RDMAGW_LOG(level, component)                               \
  if (::rdmagw::LogLevel::level < ::rdmagw::logLevel()) {          \
  } else                                                           \
    ::rdmagw::LogStream(::rdmagw::LogLevel::level, component)
