#include "gateway/runtime/grpc_log_bridge.h"

#include <grpc/support/log.h>

#include <atomic>
#include <cstdlib>
#include <cstring>
#include <string>

#include "models/log.h"

namespace rdmagw::gateway {
namespace {

// Never freed: gRPC may log from its threads after main returns, while
// statics are being destroyed. A replaced filter is leaked for the same
// reason (a callback may still hold it); installs are few.
std::atomic<LogRepeatFilter*> g_filter{nullptr};
std::atomic<bool> g_verbosity_from_env{false};

LogLevel levelOf(gpr_log_severity severity) {
  switch (severity) {
    case GPR_LOG_SEVERITY_DEBUG: return LogLevel::kDebug;
    case GPR_LOG_SEVERITY_INFO: return LogLevel::kInfo;
    case GPR_LOG_SEVERITY_ERROR: return LogLevel::kWarn;
  }
  return LogLevel::kWarn;
}

void followLevel(LogLevel level) {
  if (g_verbosity_from_env.load()) return;
  gpr_set_log_verbosity(level == LogLevel::kDebug ? GPR_LOG_SEVERITY_DEBUG : GPR_LOG_SEVERITY_ERROR);
}

void onGrpcLog(gpr_log_func_args* args) {
  try {
    const LogLevel level = levelOf(args->severity);
    if (level < logLevel()) return;
    LogRepeatFilter* filter = g_filter.load();
    const char* file = args->file != nullptr ? args->file : "?";
    if (const char* slash = std::strrchr(file, '/')) file = slash + 1;
    const std::string where = std::string(file) + ":" + std::to_string(args->line) + "]";
    const char* message = args->message != nullptr ? args->message : "";
    LogRepeatFilter::Verdict v{true, 0};
    if (filter != nullptr) v = filter->offer(where + " " + LogRepeatFilter::sameness(message));
    if (!v.write) return;
    std::string line = where + " " + message;
    if (v.held_back > 0) {
      line += " [and " + std::to_string(v.held_back) + " more like it since the last such line]";
    }
    logLine(level, "grpc", line);
  } catch (...) {
    // Out of memory inside a C callback: nothing sensible to do but drop the line.
  }
}

}  // namespace

void installGrpcLogBridge(LogRepeatFilter::Clock::duration every) {
  g_filter.store(new LogRepeatFilter(every));
  const char* env = std::getenv("GRPC_VERBOSITY");
  g_verbosity_from_env.store(env != nullptr && *env != '\0');
  if (g_verbosity_from_env.load()) {
    gpr_log_verbosity_init();  // GRPC_VERBOSITY, as gRPC reads it
  } else {
    followLevel(logLevel());
  }
  setLogLevelListener(&followLevel);
  gpr_set_log_function(&onGrpcLog);
}

void removeGrpcLogBridge() {
  gpr_set_log_function(nullptr);
  setLogLevelListener(nullptr);
}

}  // namespace rdmagw::gateway
