#include <cstdio>

#include "gateway/config/analytics_config_reader.h"
#include "gateway/cli/command_spec.h"
#include "gateway/config/config.h"
#include "gateway/fleet/fleet_warnings.h"
#include "gateway/config/gnmi_northbound_config.h"
#include "gateway/config/snmp_notifications_config.h"

namespace rdmagw::gateway {

namespace {

const CommandSpec kCheckConfigSpec{
    "usage: rdmagw check-config FILE\n"
    "\n"
    "Validates a configuration without starting anything, with the target\n"
    "files of its targets_dir: every error is printed as\n"
    "FILE:LINE:COL: key.path: message (exit 1); a valid configuration prints\n"
    "a summary of its northbounds and targets (exit 0).\n"
    "\n"
    "options:\n"
    "  -h, --help   this help\n",
    {},
    {},
    1};

}  // namespace

int checkConfigCommand(const Args& args) {
  if (int rc = checkArgs(args, kCheckConfigSpec, "check-config"); rc >= 0) return rc;
  if (args.size() != 1) {
    std::fprintf(stderr, "rdmagw check-config: FILE is required\n\n%s", kCheckConfigSpec.usage);
    return 2;
  }
  Result<GatewayConfig> cfg = loadConfigFile(args[0]);
  if (!cfg.isOk()) {
    std::fprintf(stderr, "%s\n", cfg.status().message().c_str());
    return 1;
  }
  std::printf("%s: OK (%zu target(s))\n", args[0].c_str(), cfg->targets.size());
  if (!cfg->targets_dir.empty()) {
    std::printf("  targets_dir: %s (%zu file(s))\n", cfg->targets_dir.c_str(), cfg->target_files.size());
  }
  if (cfg->prometheus_enabled) {
    std::printf("  prometheus: %s%s", cfg->prometheus.listen.c_str(), cfg->prometheus.path.c_str());
    if (cfg->prometheus.refresh_period.count() > 0) {
      std::printf(", prebuilt every %lldms (scrapes see data up to that old)",
                  static_cast<long long>(cfg->prometheus.refresh_period.count()));
    }
    std::printf("\n");
  }
  if (cfg->gnmi_enabled) std::fputs(explainGnmiNorthbound(cfg->gnmi).c_str(), stdout);
  if (cfg->cluster.enabled) std::fputs(explainCluster(cfg->cluster).c_str(), stdout);
  for (const std::string& w : fleetWarnings(*cfg)) std::printf("  warning: %s\n", w.c_str());
  if (cfg->snmp_enabled) std::fputs(explainSnmpNorthbound(cfg->snmp).c_str(), stdout);
  if (cfg->analytics_enabled) std::fputs(explainAnalytics(cfg->analytics).c_str(), stdout);
  for (const TargetConfig& t : cfg->targets) {
    std::printf("  target %s: kind %s, transport %s, interval %lldms (%s)\n", t.name.c_str(), t.kind.c_str(),
                t.transport.c_str(), static_cast<long long>(t.interval.count()), t.defined_at.c_str());
  }
  return 0;
}

}  // namespace rdmagw::gateway
