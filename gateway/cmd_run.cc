#include <chrono>
#include <csignal>
#include <cstdio>
#include <pthread.h>

#include "gateway/command_spec.h"
#include "gateway/config.h"
#include "gateway/pipeline.h"
#include "gateway/reloader.h"
#include "gateway/service_notify.h"
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
  Pipeline pipeline(std::move(cfg).value());
  if (Status st = pipeline.start(); !st.isOk()) {
    RDMAGW_LOG(kError, "gateway") << "cannot start: " << st.message();
    return 1;
  }
  ReloaderOptions reload_options;
  reload_options.log_level_from_flag = !lvl.empty();
  // systemd times the reload between these (Type=notify, ExecReload=kill -HUP).
  reload_options.on_reload_start = [] { service_notify::reloading(); };
  reload_options.on_reload_end = [](const ReloadResult&) { service_notify::ready(); };
  Reloader reloader(pipeline, path, std::move(loaded), std::move(reload_options));
  reloader.start();
  sigset_t wait_set = hup;
  sigaddset(&wait_set, SIGINT);
  sigaddset(&wait_set, SIGTERM);
  int sig = 0;
  while (sigwait(&wait_set, &sig) == 0 && sig == SIGHUP) reloader.requestReload("SIGHUP");
  service_notify::stopping();
  RDMAGW_LOG(kInfo, "gateway") << "signal " << sig << ": stopping";
  const auto drain_start = std::chrono::steady_clock::now();
  reloader.stop();
  pipeline.stop();
  RDMAGW_LOG(kInfo, "gateway") << "stopped in "
                               << std::chrono::duration_cast<std::chrono::milliseconds>(
                                      std::chrono::steady_clock::now() - drain_start).count()
                               << " ms";
  return 0;
}

}  // namespace rdmagw::gateway
