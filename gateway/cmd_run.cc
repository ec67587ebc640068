#include <cstdio>

#include "gateway/commands.h"
#include "gateway/config.h"
#include "gateway/pipeline.h"
#include "models/log.h"

namespace rdmagw::gateway {

int runCommand(const Args& args) {
  std::string path;
  if (!flagValue(args, "--config", &path)) {
    std::fputs("usage: rdmagw run --config FILE [--log-level debug|info|warn|error]\n", stderr);
    return 2;
  }
  Result<GatewayConfig> cfg = loadConfigFile(path);
  if (!cfg.isOk()) {
    std::fprintf(stderr, "rdmagw: invalid configuration:\n%s\n", cfg.status().message().c_str());
    return 1;
  }
  LogLevel level = cfg->log_level;
  std::string lvl;
  if (flagValue(args, "--log-level", &lvl) && !parseLogLevel(lvl, &level)) {
    std::fprintf(stderr, "rdmagw: bad --log-level %s\n", lvl.c_str());
    return 2;
  }
  setLogLevel(level);
  blockTerminationSignals();
  Pipeline pipeline(std::move(cfg).value());
  if (Status st = pipeline.start(); !st.isOk()) {
    RDMAGW_LOG(kError, "gateway") << "cannot start: " << st.message();
    return 1;
  }
  int sig = waitForTerminationSignal();
  RDMAGW_LOG(kInfo, "gateway") << "signal " << sig << ": stopping";
  pipeline.stop();
  return 0;
}

}  // namespace rdmagw::gateway
