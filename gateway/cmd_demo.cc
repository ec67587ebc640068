#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>

#include "gateway/commands.h"
#include "gateway/demo_config.h"
#include "gateway/pipeline.h"
#include "gateway/yaml_reader.h"
#include "models/log.h"
#include "sim/sim_runner.h"
#include "sim/sshd_launcher.h"

namespace rdmagw::gateway {

namespace fs = std::filesystem;

namespace {

bool intFlag(const Args& args, const char* name, long long min, long long max, long long* out) {
  std::string text;
  if (!flagValue(args, name, &text)) return true;
  char* end = nullptr;
  long long v = std::strtoll(text.c_str(), &end, 10);
  if (end == text.c_str() || *end != '\0' || v < min || v > max) {
    std::fprintf(stderr, "rdmagw demo: %s must be an integer in [%lld, %lld]\n", name, min, max);
    return false;
  }
  *out = v;
  return true;
}

bool durationFlag(const Args& args, const char* name, std::chrono::milliseconds* out) {
  std::string text;
  if (!flagValue(args, name, &text)) return true;
  auto d = YamlReader::parseDuration(text);
  if (!d || d->count() < 100) {
    std::fprintf(stderr, "rdmagw demo: %s must be a duration of at least 100ms (e.g. 1s)\n", name);
    return false;
  }
  *out = *d;
  return true;
}

}  // namespace

int demoCommand(const Args& args) {
  long long hosts = 4, devices = 2, seed = 1, switches = 1, esxi = 2;
  std::chrono::milliseconds period{1000}, interval{2000};
  std::string listen = "127.0.0.1:9464", dir;
  if (!intFlag(args, "--hosts", 1, 4096, &hosts) || !intFlag(args, "--devices", 1, 16, &devices) ||
      !intFlag(args, "--seed", 0, INT64_MAX, &seed) || !intFlag(args, "--switches", 0, 16, &switches) ||
      !intFlag(args, "--esxi", 0, 64, &esxi) || !durationFlag(args, "--period", &period) ||
      !durationFlag(args, "--interval", &interval)) {
    return 2;
  }
  flagValue(args, "--listen", &listen);
  std::string lvl;
  LogLevel level = LogLevel::kInfo;
  if (flagValue(args, "--log-level", &lvl) && !parseLogLevel(lvl, &level)) {
    std::fprintf(stderr, "rdmagw demo: bad --log-level %s\n", lvl.c_str());
    return 2;
  }
  setLogLevel(level);
  const bool own_dir = !flagValue(args, "--dir", &dir);
  if (own_dir) {
    std::string templ = (fs::temp_directory_path() / "rdmagw-demo-XXXXXX").string();
    if (mkdtemp(templ.data()) == nullptr) {
      std::perror("rdmagw demo: mkdtemp");
      return 1;
    }
    dir = templ;
  }

  blockTerminationSignals();  // before any thread starts
  sim::FabricConfig fabric;
  fabric.seed = uint64_t(seed);
  fabric.hosts = int(hosts);
  fabric.devices_per_host = int(devices);
  fabric.switches = int(switches);
  fabric.esxi_hosts = int(esxi);
  sim::SimRunner sim(fabric, dir, period);
  sim::SshdLauncher sshd;
  int rc = 0;
  if (Status st = sim.start(); !st.isOk()) {
    RDMAGW_LOG(kError, "demo") << "simulator: " << st.message();
    rc = 1;
  } else {
    Result<GatewayConfig> cfg = demoConfig(dir, listen, interval);
    if (cfg.isOk()) {
      // Without root or sshd the demo goes on with the RDMA hosts alone.
      if (Status st = addSimSshDevices(dir, interval, sshd, cfg.value()); !st.isOk()) {
        RDMAGW_LOG(kWarn, "demo") << "simulated switches and ESXi hosts skipped: " << st.message();
      } else if (sshd.running()) {
        RDMAGW_LOG(kInfo, "demo") << "simulated switches and ESXi hosts answer over SSH on 127.0.0.1:"
                                  << sshd.port();
      }
    }
    if (!cfg.isOk()) {
      RDMAGW_LOG(kError, "demo") << cfg.status().message();
      rc = 1;
    } else {
      Pipeline pipeline(std::move(cfg).value());
      if (Status st = pipeline.start(); !st.isOk()) {
        RDMAGW_LOG(kError, "demo") << "cannot start the gateway: " << st.message();
        rc = 1;
      } else {
        std::printf("rdmagw demo: %lld RDMA host(s) x %lld device(s), %lld switch(es), %lld ESXi host(s) under %s\n"
                    "rdmagw demo: metrics at http://127.0.0.1:%d/metrics  (Ctrl-C stops)\n",
                    hosts, devices, switches, esxi, dir.c_str(), pipeline.prometheusPort());
        std::fflush(stdout);
        int sig = waitForTerminationSignal();
        RDMAGW_LOG(kInfo, "demo") << "signal " << sig << ": stopping the gateway and the simulator";
        pipeline.stop();
      }
    }
  }
  sshd.stop();
  sim.stop();
  if (own_dir) {
    std::error_code ec;
    fs::remove_all(dir, ec);
  }
  return rc;
}

}  // namespace rdmagw::gateway
