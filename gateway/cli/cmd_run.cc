#include <algorithm>
#include <chrono>
#include <csignal>
#include <cstdio>
#include <map>
#include <memory>
#include <pthread.h>

#include "gateway/cli/command_spec.h"
#include "gateway/config/config.h"
#include "gateway/fleet/member.h"
#include "gateway/fleet/fleet_warnings.h"
#include "gateway/runtime/pipeline.h"
#include "gateway/runtime/reloader.h"
#include "gateway/runtime/service_notify.h"
#include "models/log.h"

namespace rdmagw::gateway {

namespace {

const CommandSpec kRunSpec{
    "usage: rdmagw run --config FILE [--log-level LEVEL]\n"
    "\n"
    "Runs the gateway: polls and subscribes to the targets of FILE and serves\n"
    "them on the northbounds it enables, until SIGINT or SIGTERM. SIGHUP, or a\n"
    "change of FILE or of a file in its targets_dir, reloads: the targets that\n"
    "changed restart, the others keep running (docs/reload.md).\n"
    "\n"
    "options:\n"
    "  --config FILE       the YAML configuration (see examples/rdmagw.yaml;\n"
    "                      `rdmagw check-config FILE` validates it)\n"
    "  --log-level LEVEL   debug, info, warn or error (overrides the config's)\n"
    "  -h, --help          this help\n",
    {"--config", "--log-level"},
    {},
    0};

// What this member's northbounds answer on, as the other members and
// Prometheus should dial them.
std::map<std::string, std::string> advertisedAddresses(const Pipeline& pipeline, const GatewayConfig& c) {
  std::map<std::string, std::string> out;
  if (pipeline.prometheusPort() > 0) {
    const std::string listen = c.prometheus.listen;
    out["prometheus"] = advertisedAddress(listen.substr(0, listen.rfind(':') + 1) +
                                              std::to_string(pipeline.prometheusPort()), "");
  }
  if (!pipeline.gnmiAddress().empty()) out["gnmi"] = advertisedAddress(pipeline.gnmiAddress(), "");
  return out;
}

}  // namespace

int runCommand(const Args& args) {
  if (int rc = checkArgs(args, kRunSpec, "run"); rc >= 0) return rc;
  std::string path;
  if (!flagValue(args, "--config", &path)) {
    std::fprintf(stderr, "rdmagw run: --config FILE is required\n\n%s", kRunSpec.usage);
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
  sigset_t hup;
  sigemptyset(&hup);
  sigaddset(&hup, SIGHUP);
  pthread_sigmask(SIG_BLOCK, &hup, nullptr);  // before any thread starts: only sigwait below takes it
  GatewayConfig loaded = cfg.value();
  // In a fleet the pipeline starts with no target: the member set places them.
  GatewayConfig pipeline_config = std::move(cfg).value();
  if (pipeline_config.cluster.enabled) pipeline_config.targets.clear();
  Pipeline pipeline(std::move(pipeline_config));
  std::unique_ptr<FleetMember> member;
  if (loaded.cluster.enabled) {
    Result<std::unique_ptr<FleetMember>> m = FleetMember::create(loaded, pipeline);
    if (!m.isOk()) {
      RDMAGW_LOG(kError, "gateway") << "cannot start: " << m.status().message();
      return 1;
    }
    member = std::move(m).value();
  }
  if (Status st = pipeline.start(); !st.isOk()) {
    RDMAGW_LOG(kError, "gateway") << "cannot start: " << st.message();
    return 1;
  }
  const std::map<std::string, std::string> advertised = advertisedAddresses(pipeline, loaded);
  for (const std::string& w : fleetWarnings(loaded)) RDMAGW_LOG(kWarn, "fleet") << w;
  ReloaderOptions reload_options;
  if (member) reload_options.place = member->placement();
  reload_options.log_level_from_flag = !lvl.empty();
  // systemd times the reload between these (Type=notify, ExecReload=kill -HUP).
  reload_options.on_reload_start = [] { service_notify::reloading(); };
  reload_options.on_reload_end = [](const ReloadResult&) { service_notify::ready(); };
  Reloader reloader(pipeline, path, std::move(loaded), std::move(reload_options));
  reloader.start();
  if (member) member->start(reloader, advertised);
  sigset_t wait_set = hup;
  sigaddset(&wait_set, SIGINT);
  sigaddset(&wait_set, SIGTERM);
  int sig = 0;
  while (sigwait(&wait_set, &sig) == 0 && sig == SIGHUP) reloader.requestReload("SIGHUP");
  service_notify::stopping();
  RDMAGW_LOG(kInfo, "gateway") << "signal " << sig << ": stopping";
  const auto drain_start = std::chrono::steady_clock::now();
  if (member) member->stop();  // first: the others take over at once (the lease is revoked)
  reloader.stop();
  pipeline.stop();
  RDMAGW_LOG(kInfo, "gateway") << "stopped in "
                               << std::chrono::duration_cast<std::chrono::milliseconds>(
                                      std::chrono::steady_clock::now() - drain_start).count()
                               << " ms";
  return 0;
}

}  // namespace rdmagw::gateway
