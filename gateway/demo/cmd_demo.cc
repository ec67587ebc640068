#include "gateway/demo/cmd_demo.h"

#include <unistd.h>

#include <condition_variable>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <memory>
#include <mutex>
#include <optional>
#include <random>
#include <thread>

#include "gateway/cli/command_spec.h"
#include "gateway/demo/demo_churn.h"
#include "gateway/demo/demo_config.h"
#include "gateway/demo/demo_flags.h"
#include "gateway/demo/demo_gpus.h"
#include "gateway/demo/demo_kubernetes.h"
#include "gateway/demo/demo_nxapi.h"
#include "gateway/demo/demo_snmp.h"
#include "gateway/runtime/pipeline.h"
#include "models/log.h"
#include "sim/gnmi/gnmi_fleet.h"
#include "sim/scenario.h"
#include "sim/sim_runner.h"
#include "sim/snmpd_launcher.h"
#include "sim/sshd_launcher.h"

namespace rdmagw::gateway {

namespace fs = std::filesystem;

namespace {

// The simulated switches' gNMI face: one TLS gNMI server per leaf, with
// credentials, fed the same counters as the CLI files every tick.
struct DemoGnmi {
  std::unique_ptr<sim::GnmiFleet> fleet;
  SimGnmiEndpoint endpoint;
  std::thread starter;  // --gnmi-delay: starts the servers late to show the fallback
  std::mutex mu;
  std::condition_variable cv;
  bool stopping = false;

  ~DemoGnmi() {
    {
      std::lock_guard lock(mu);
      stopping = true;
    }
    cv.notify_all();
    if (starter.joinable()) starter.join();
    if (fleet) fleet->stop();
  }
};

// One line on what the scenario does and where to see it.
std::string describeScenario(const sim::FabricConfig& config, sim::ScenarioKind kind, int metrics_port) {
  sim::Fabric f(config);
  f.setScenario({kind, 0});
  const sim::ScenarioCast& c = f.scenarioCast();
  std::string who = f.endpointName(c.receiver);
  std::string senders;
  for (int s : c.senders) senders += (senders.empty() ? "" : ", ") + f.endpointName(s);
  const std::string faulty = c.faulty >= 0 ? f.endpointName(c.faulty) : "";
  std::string what;
  switch (kind) {
    case sim::ScenarioKind::kIncast: what = senders + " push at " + who; break;
    case sim::ScenarioKind::kNpOff: what = "incast onto " + who + ", whose DCQCN NP is off"; break;
    case sim::ScenarioKind::kRpOff: what = "incast onto " + who + "; " + faulty + " has its DCQCN RP off"; break;
    case sim::ScenarioKind::kPfcMismatch:
      what = "incast onto " + who + "; " + faulty + " has PFC off on the RoCE priority, its leaf port on";
      break;
    case sim::ScenarioKind::kPfcMismatchSwitch:
      what = "incast onto " + who + "; " + faulty + "'s leaf port has PFC off on the RoCE priority, the NIC on";
      break;
    case sim::ScenarioKind::kPauseStorm: what = who + " pauses its leaf port all the time"; break;
    case sim::ScenarioKind::kTrustMismatch: what = who + " trusts pcp (no dcb app dscp-prio rules), its leaf dscp"; break;
    case sim::ScenarioKind::kNone: break;
    default: what = f.scenarioTarget() + ": " + std::string(sim::scenarioSummary(kind)); break;
  }
  return "rdmagw demo: scenario " + std::string(sim::scenarioName(kind)) + ": " + what +
         "\nrdmagw demo: its verdicts: curl -s localhost:" + std::to_string(metrics_port) +
         "/metrics | grep -E '^rdmagw_fabric_.*_(code|alarm)' | grep -v ' 0$'\n";
}

// "host01:mlx5_0": the endpoint a scenario congests; empty without one.
std::string scenarioReceiver(const sim::FabricConfig& config, const std::optional<sim::ScenarioKind>& kind) {
  if (!kind) return "";
  sim::Fabric f(config);
  f.setScenario({*kind, 0});
  return f.scenarioCast().receiver >= 0 ? f.endpointName(f.scenarioCast().receiver) : "";
}

const CommandSpec kDemoSpec{
    "usage: rdmagw-demo [options]\n"
    "\n"
    "Runs a simulated congested RoCE fabric and the gateway on it until Ctrl-C:\n"
    "RDMA hosts as sysfs trees, Nexus leaves over gNMI (TLS) with SSH fallback\n"
    "and ESXi hosts over a real sshd (the switches and ESXi hosts need root).\n"
    "\n"
    "options:\n"
    "  --hosts N           RDMA hosts (default 4)\n"
    "  --devices M         RDMA devices per host (default 2)\n"
    "  --switches K        simulated Nexus leaves (default 1)\n"
    "  --esxi E            simulated ESXi hosts (default 2)\n"
    "  --seed S            the fabric's random seed (default 1)\n"
    "  --listen ADDR       Prometheus /metrics address (default 127.0.0.1:9464)\n"
    "  --dir DIR           keep the simulated trees here (default: a temp dir)\n"
    "  --period DUR        simulator tick (default 1s)\n"
    "  --interval DUR      gateway poll interval (default 2s)\n"
    "  --gnmi on|off       serve the leaves over gNMI (default on); off shows\n"
    "                      the SSH fallback\n"
    "  --gnmi-delay DUR    start the gNMI servers late: fallback, then return\n"
    "  --gnmi-listen ADDR|off  the gateway's own gNMI server (default\n"
    "                      127.0.0.1:9339, plain text on loopback)\n"
    "  --snmp on|off       start a loopback snmpd with the gateway as its AgentX\n"
    "                      subagent and print how to walk it (default on)\n"
    "  --scenario NAME     a calm fabric with one fault, to see its verdicts:\n"
    "                      incast, np-off, rp-off, pfc-mismatch,\n"
    "                      pfc-mismatch-switch, pause-storm, trust-mismatch\n"
    "                      (trust-pcp), or a RoCE QoS misconfiguration:\n"
    "                      cnp-lossy, ecn-off, pause-cos-missing,\n"
    "                      roce-ets-zero, strict-starve, watchdog-off,\n"
    "                      mtu-small or pfc-lossy-prio; nic-down; with\n"
    "                      --gpus, acs-redirect\n"
    "                      (docs/analytics.md)\n"
    "  --churn CYCLE       soak runs: every CYCLE (at least 10s) a leaf's gNMI\n"
    "                      server stops and returns, an RDMA device's sysfs\n"
    "                      directory goes and returns, sshd stops and returns\n"
    "                      and snmpd restarts; each logged as [churn]. Counts\n"
    "                      of gNMI updates sent in DIR/.churn-stats\n"
    "  --churn-for DUR     then undo every fault and stop the gNMI servers\n"
    "                      (.churn-stats final=1: nothing more is sent)\n"
    "  --kubernetes        every RDMA host is a Kubernetes node too: a simulated\n"
    "                      kubelet, one hostNetwork pod per RDMA device, pod\n"
    "                      attribution on (docs/kubernetes.md)\n"
    "  --gpus              a GPU beside each RDMA NIC of every host, metrics\n"
    "                      from an nvidia-smi stand-in (docs/gpu.md)\n"
    "  --nexus-transport auto|nxapi  auto (default): the leaves over gNMI and\n"
    "                      SSH; nxapi: each leaf serves NX-API over HTTPS and\n"
    "                      the gateway reads it there, SSH behind it\n"
    "  --log-level LEVEL   debug, info, warn or error (default info)\n"
    "  -h, --help          this help\n",
    {"--hosts", "--devices", "--switches", "--esxi", "--seed", "--listen", "--dir", "--period", "--interval", "--gnmi",
     "--gnmi-delay", "--gnmi-listen", "--snmp", "--scenario", "--churn", "--churn-for", "--log-level",
     "--nexus-transport"},
    {"--kubernetes", "--gpus"},
    0};

}  // namespace

int demoMain(const Args& args) {
  if (int rc = checkArgs(args, kDemoSpec, "demo"); rc >= 0) return rc;
  long long hosts = 4, devices = 2, seed = 1, switches = 1, esxi = 2;
  std::chrono::milliseconds period{1000}, interval{2000}, gnmi_delay{0}, churn{0}, churn_for{0};
  std::string listen = "127.0.0.1:9464", gnmi_listen = "127.0.0.1:9339", dir;
  if (!intFlag(args, "--hosts", 1, 4096, &hosts) || !intFlag(args, "--devices", 1, 16, &devices) ||
      !intFlag(args, "--seed", 0, INT64_MAX, &seed) || !intFlag(args, "--switches", 0, 16, &switches) ||
      !intFlag(args, "--esxi", 0, 64, &esxi) || !durationFlag(args, "--gnmi-delay", &gnmi_delay) || !durationFlag(args, "--period", &period) ||
      !durationFlag(args, "--interval", &interval) || !durationFlag(args, "--churn", &churn) ||
      !durationFlag(args, "--churn-for", &churn_for)) {
    return 2;
  }
  flagValue(args, "--listen", &listen);
  flagValue(args, "--gnmi-listen", &gnmi_listen);
  std::string gnmi_mode = "on";
  flagValue(args, "--gnmi", &gnmi_mode);
  std::string snmp_mode = "on", nexus_transport = "auto";
  flagValue(args, "--snmp", &snmp_mode);
  flagValue(args, "--nexus-transport", &nexus_transport);
  if (nexus_transport != "auto" && nexus_transport != "nxapi") {
    std::fprintf(stderr, "rdmagw demo: --nexus-transport must be auto or nxapi\n");
    return 2;
  }
  if (snmp_mode != "on" && snmp_mode != "off") {
    std::fprintf(stderr, "rdmagw demo: --snmp must be on or off\n");
    return 2;
  }
  if (gnmi_mode != "on" && gnmi_mode != "off") {
    std::fprintf(stderr, "rdmagw demo: --gnmi must be on or off\n");
    return 2;
  }
  std::string scenario_name;
  std::optional<sim::ScenarioKind> scenario;
  if (flagValue(args, "--scenario", &scenario_name)) {
    scenario = sim::parseScenarioName(scenario_name);
    if (!scenario || *scenario == sim::ScenarioKind::kNone) {
      std::fprintf(stderr, "rdmagw demo: unknown --scenario %s (one of: %s)\n", scenario_name.c_str(),
                   sim::scenarioNameList().c_str());
      return 2;
    }
  }
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
  // A scenario runs on a calm fabric: its fault is then the only thing the
  // verdicts flag, on the first host's first port.
  fabric.calm = scenario.has_value();
  sim::SimRunner sim(fabric, dir, period);
  if (scenario) sim.setScenario({*scenario, 0});
  if (scenario && period != std::chrono::milliseconds(1000)) {
    // A tick counts a simulated second of pause time whatever its period.
    RDMAGW_LOG(kWarn, "demo") << "--period is not 1s: paused ratios (and pause storms) are off by that factor";
  }
  sim::SshdLauncher sshd;
  std::unique_ptr<sim::SnmpdLauncher> snmpd;
  DemoGnmi gnmi;
  DemoKubernetes kubernetes;
  DemoNxapi nxapi;
  if (fabric.switches > 0 && fabric.validate().isOk()) {
    sim::GnmiTargetOptions opts;
    opts.tls = sim::GnmiTls::kTls;
    opts.username = "admin";
    opts.password = "demo-" + std::to_string(std::random_device{}());
    gnmi.fleet = std::make_unique<sim::GnmiFleet>(sim::Fabric(fabric).switches(), opts);
    // The gateway reads the password from this variable: a reference, as in production configs.
    setenv("RDMAGW_DEMO_GNMI_PASSWORD", opts.password.c_str(), 1);
    gnmi.endpoint.username = opts.username;
    gnmi.endpoint.password_env = "RDMAGW_DEMO_GNMI_PASSWORD";
    sim::GnmiFleet* fleet = gnmi.fleet.get();
    sim.setTickObserver([fleet](const sim::Fabric& f) { fleet->publish(f, nowNs()); });
  }
  int rc = 0;
  if (Status st = sim.start(); !st.isOk()) {
    RDMAGW_LOG(kError, "demo") << "simulator: " << st.message();
    rc = 1;
  } else {
    Result<GatewayConfig> cfg = demoConfig(dir, listen, interval);
    if (cfg.isOk()) {
      // `rdmagw status --socket DIR/admin.sock` reads the demo like a service;
      // beside the simulated trees, so two demos never share it.
      cfg.value().admin.path = (fs::absolute(dir) / "admin.sock").string();
      cfg.value().admin.required = false;  // a --dir too deep for a socket path only loses `status`
    }
    if (cfg.isOk() && gnmi_listen != "off") {
      // The demo serves gNMI too: plain text, so on loopback only.
      cfg.value().gnmi_enabled = true;
      cfg.value().gnmi.listen = gnmi_listen;
      cfg.value().gnmi.insecure = true;
      if (Status st = cfg.value().gnmi.validate(); !st.isOk()) cfg = Status::invalidArgument("--gnmi-listen: " + st.message());
    }
    if (gnmi.fleet) {
      // The first start picks each server's port and writes its TLS files;
      // with --gnmi off or a --gnmi-delay the servers stop again at once, so
      // the leaves run on the SSH fallback until (if ever) they come back.
      sim::GnmiFleet& fleet = *gnmi.fleet;
      if (Status st = fleet.start(); !st.isOk()) {
        RDMAGW_LOG(kWarn, "demo") << "simulated gNMI servers: " << st.message() << " (SSH only)";
        gnmi.fleet.reset();
      } else {
        for (size_t i = 0; i < fleet.size(); ++i) {
          gnmi.endpoint.address[fleet.target(i).switchName()] = fleet.target(i).address();
        }
        gnmi.endpoint.ca_file = fleet.caFile();  // signed every leaf's certificate
        if (gnmi_mode == "off" || gnmi_delay.count() > 0) fleet.stop();
        if (gnmi_mode == "on" && gnmi_delay.count() > 0) {
          RDMAGW_LOG(kInfo, "demo") << "simulated gNMI servers start in " << gnmi_delay.count()
                                    << " ms: until then the leaves fall back to SSH";
          gnmi.starter = std::thread([&gnmi, gnmi_delay] {
            std::unique_lock lock(gnmi.mu);
            if (gnmi.cv.wait_for(lock, gnmi_delay, [&gnmi] { return gnmi.stopping; })) return;
            if (Status st = gnmi.fleet->start(); !st.isOk()) {
              RDMAGW_LOG(kWarn, "demo") << "simulated gNMI servers: " << st.message();
            } else {
              RDMAGW_LOG(kInfo, "demo") << "simulated gNMI servers are up: the leaves return to gNMI";
            }
          });
        }
      }
    }
    if (cfg.isOk()) {
      // Without root or sshd the demo goes on with the RDMA hosts alone.
      if (Status st = addSimSshDevices(dir, interval, sshd, cfg.value(), gnmi.fleet ? &gnmi.endpoint : nullptr);
          !st.isOk()) {
        RDMAGW_LOG(kWarn, "demo") << "simulated switches and ESXi hosts skipped: " << st.message();
      } else if (sshd.running()) {
        RDMAGW_LOG(kInfo, "demo") << "simulated switches and ESXi hosts answer over SSH on 127.0.0.1:"
                                  << sshd.port();
      }
    }
    // The verdicts over the simulator's cabling (analytics/).
    if (cfg.isOk()) addSimAnalytics(cfg.value(), sim::Fabric(fabric), interval);
    if (cfg.isOk() && hasFlag(args, "--kubernetes")) {
      if (Status st = kubernetes.start(dir, sim::Fabric(fabric), cfg.value()); !st.isOk()) cfg = st;
    }
    if (cfg.isOk() && hasFlag(args, "--gpus")) {
      const bool acs = scenario == sim::ScenarioKind::kAcsRedirect;
      if (Status st = startDemoGpus(dir, sim::Fabric(fabric), scenarioReceiver(fabric, scenario), acs, cfg.value());
          !st.isOk()) {
        cfg = st;
      }
    }
    if (cfg.isOk() && nexus_transport == "nxapi") {
      if (Status st = nxapi.start(dir, sim::Fabric(fabric)); !st.isOk()) {
        cfg = Status::unavailable("nxapi: " + st.message());
      } else {
        nxapi.applyTo(cfg.value());
      }
    }
    if (cfg.isOk() && snmp_mode == "on") {
      sim::SnmpdOptions opts;
      for (const TargetConfig& t : cfg.value().targets) opts.contexts.push_back(t.name);
      snmpd = std::make_unique<sim::SnmpdLauncher>(opts);
      startDemoSnmpd(dir, &cfg.value(), snmpd.get());
    }
    if (!cfg.isOk()) {
      RDMAGW_LOG(kError, "demo") << cfg.status().message();
      rc = 1;
    } else {
      const std::string snmp_howto = snmpd ? demoSnmpHowTo(*snmpd, cfg.value()) : "";
      Pipeline pipeline(std::move(cfg).value());
      if (Status st = pipeline.start(); !st.isOk()) {
        RDMAGW_LOG(kError, "demo") << "cannot start the gateway: " << st.message();
        rc = 1;
      } else {
        std::printf("rdmagw demo: %lld RDMA host(s) x %lld device(s), %lld switch(es), %lld ESXi host(s) under %s\n"
                    "rdmagw demo: metrics at http://127.0.0.1:%d/metrics  (Ctrl-C stops)\n",
                    hosts, devices, switches, esxi, dir.c_str(), pipeline.prometheusPort());
        if (const std::string gnmi = pipeline.gnmiAddress(); !gnmi.empty()) {
          std::printf("rdmagw demo: gnmi at %s\n", gnmi.c_str());
          // The demo's gNMI server is plain text on loopback: hence --insecure.
          std::printf("rdmagw demo: RoCE check: rdmagw check roce --address %s --insecure\n", gnmi.c_str());
        }
        if (const std::string admin = pipeline.adminSocket(); !admin.empty()) {
          std::printf("rdmagw demo: status: rdmagw status --socket %s\n", admin.c_str());
        }
        if (scenario) std::fputs(describeScenario(fabric, *scenario, pipeline.prometheusPort()).c_str(), stdout);
        std::fputs(snmp_howto.c_str(), stdout);
        std::fputs(nxapi.howTo().c_str(), stdout);
        std::fputs(kubernetes.howTo(pipeline.gnmiAddress(), scenarioReceiver(fabric, scenario)).c_str(), stdout);
        if (hasFlag(args, "--gpus")) {
          std::fputs(demoGpusHowTo(sim::Fabric(fabric), pipeline.prometheusPort(), pipeline.gnmiAddress()).c_str(),
                     stdout);
        }
        std::fflush(stdout);
        std::unique_ptr<DemoChurn> churner;
        if (churn.count() > 0) {
          DemoChurn::Parts parts;
          parts.runner = &sim;
          parts.fleet = gnmi.fleet.get();
          parts.sshd = sshd.running() ? &sshd : nullptr;
          parts.snmpd = snmpd && snmpd->running() ? snmpd.get() : nullptr;
          const sim::Fabric shape(fabric);
          for (const sim::Host& h : shape.hosts()) {
            for (const sim::Device& d : h.devices) parts.rdma_devices.emplace_back(h.name, d.name);
          }
          churner = std::make_unique<DemoChurn>(std::move(parts), churn, churn_for, dir + "/.churn-stats");
          churner->start();
        }
        int sig = waitForTerminationSignal();
        RDMAGW_LOG(kInfo, "demo") << "signal " << sig << ": stopping the gateway and the simulator";
        churner.reset();
        pipeline.stop();
      }
    }
  }
  if (snmpd) snmpd->stop();
  kubernetes.stop();
  nxapi.stop();
  sshd.stop();
  sim.stop();
  if (own_dir) {
    std::error_code ec;
    fs::remove_all(dir, ec);
  }
  return rc;
}

}  // namespace rdmagw::gateway
