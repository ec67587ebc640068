#include <cstdio>

#include "gateway/commands.h"
#include "gateway/config.h"

namespace rdmagw::gateway {

int checkConfigCommand(const Args& args) {
  if (args.size() != 1 || args[0].starts_with("-")) {
    std::fputs("usage: rdmagw check-config FILE\n", stderr);
    return 2;
  }
  Result<GatewayConfig> cfg = loadConfigFile(args[0]);
  if (!cfg.isOk()) {
    std::fprintf(stderr, "%s\n", cfg.status().message().c_str());
    return 1;
  }
  std::printf("%s: OK (%zu target(s))\n", args[0].c_str(), cfg->targets.size());
  if (cfg->prometheus_enabled) std::printf("  prometheus: %s%s\n", cfg->prometheus.listen.c_str(), cfg->prometheus.path.c_str());
  for (const TargetConfig& t : cfg->targets) {
    std::printf("  target %s: kind %s, transport %s, interval %lldms\n", t.name.c_str(), t.kind.c_str(),
                t.transport.c_str(), static_cast<long long>(t.interval.count()));
  }
  return 0;
}

}  // namespace rdmagw::gateway
