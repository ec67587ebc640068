// The simulator half of the scale run (bench/scale_run.sh), as its own
// process so its cost stays out of the gateway's figures: N simulated Nexus
// leaves streaming over gNMI (TLS, credentials, the full leaf set on SAMPLE)
// and M RDMA hosts as sysfs trees, the same SimRunner and GnmiFleet that
// `rdmagw-demo` runs, plus the loopback snmpd the gateway joins as AgentX
// subagent. It writes the gateway's config and keeps a count of the updates
// it sent; the gateway under test is a separate `rdmagw run`.
//
// Files under --dir: gateway.yaml, gnmi-password, scale.env (how to reach
// snmpd), sim-stats (rewritten every second: notifications and updates
// sent, ticks), ready.

#include <signal.h>
#include <unistd.h>

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <memory>
#include <mutex>
#include <random>
#include <string>
#include <thread>

#include "bench/scale_config.h"
#include "models/log.h"
#include "sim/fabric.h"
#include "sim/gnmi/gnmi_fleet.h"
#include "sim/sim_runner.h"
#include "sim/device_shell.h"
#include "sim/snmpd_launcher.h"
#include "sim/sshd_launcher.h"

namespace {

using namespace rdmagw;
using std::chrono::milliseconds;
using std::chrono::seconds;

struct Options {
  std::string dir;
  int switches = 4;
  int hosts = 16;
  int devices = 8;
  int hosts_per_leaf = 32;
  seconds period{10};
  std::string prometheus = "127.0.0.1:9464";
  std::string gnmi_listen = "127.0.0.1:9339";
  bool snmp = true;
  int flap_percent = 0;  // switches whose streams reset every flap_every
  seconds flap_every{30};
  bool ssh = false;        // the leaves' CLI over a real sshd too (needs root)
  bool analytics = false;  // the gateway runs its analytics (and the RoCE check)
  bool roce_checks = true;
  bool calm = false;  // no hot spots, no slow hosts: no pause trees
};

const char* kUsage =
    "usage: rdmagw_scale_sim --dir DIR [--switches N] [--hosts M] [--devices D]\n"
    "         [--hosts-per-leaf P] [--period SECONDS] [--prometheus ADDR]\n"
    "         [--gnmi-listen ADDR|off] [--snmp on|off] [--flap PERCENT] [--flap-every SECONDS]\n"
    "         [--ssh on|off] [--analytics on|off] [--roce-checks on|off]\n"
    "--ssh on: the leaves answer their CLI over a real sshd (root), so the gateway\n"
    "reads what NX-OS has only there (running-config ipqos: the RoCE configuration).\n"
    "Runs until SIGTERM/SIGINT. See bench/scale_run.sh.\n";

bool parse(int argc, char** argv, Options* o) {
  for (int i = 1; i < argc; ++i) {
    const std::string a = argv[i];
    if (i + 1 >= argc) return false;
    const std::string v = argv[++i];
    if (a == "--dir") o->dir = v;
    else if (a == "--switches") o->switches = std::atoi(v.c_str());
    else if (a == "--hosts") o->hosts = std::atoi(v.c_str());
    else if (a == "--devices") o->devices = std::atoi(v.c_str());
    else if (a == "--hosts-per-leaf") o->hosts_per_leaf = std::atoi(v.c_str());
    else if (a == "--period") o->period = seconds(std::atoi(v.c_str()));
    else if (a == "--prometheus") o->prometheus = v;
    else if (a == "--gnmi-listen") o->gnmi_listen = v == "off" ? "" : v;
    else if (a == "--snmp") o->snmp = v == "on";
    else if (a == "--flap") o->flap_percent = std::atoi(v.c_str());
    else if (a == "--flap-every") o->flap_every = seconds(std::atoi(v.c_str()));
    else if (a == "--ssh") o->ssh = v == "on";
    else if (a == "--analytics") o->analytics = v == "on";
    else if (a == "--roce-checks") o->roce_checks = v == "on";
    else if (a == "--calm")
      o->calm = v == "on";
    else return false;
  }
  return !o->dir.empty() && o->period.count() > 0;
}

bool writeFile(const std::string& path, const std::string& text) {
  // Write then rename: the script never reads half a file.
  const std::string tmp = path + ".tmp";
  {
    std::ofstream out(tmp);
    out << text;
    if (!out) return false;
  }
  return std::rename(tmp.c_str(), path.c_str()) == 0;
}

// 20 % flapping: every flap_every, half of the flapping leaves reset their
// streams (the gateway reconnects at once) and the other half refuse
// connections for a third of the period (the gateway backs off and retries).
class Flapper {
 public:
  Flapper(sim::GnmiFleet& fleet, int percent, seconds every) : fleet_(fleet), every_(every) {
    const size_t n = fleet.size() * size_t(percent) / 100;
    for (size_t i = 0; i < n; ++i) flapping_.push_back(i * fleet.size() / n);  // spread out
    if (!flapping_.empty()) thread_ = std::thread([this] { run(); });
  }
  ~Flapper() {
    {
      std::lock_guard lock(mu_);
      stop_ = true;
    }
    cv_.notify_all();
    if (thread_.joinable()) thread_.join();
  }
  uint64_t flaps() const { return flaps_.load(); }

 private:
  bool sleepFor(std::chrono::milliseconds d) {
    std::unique_lock lock(mu_);
    return !cv_.wait_for(lock, d, [this] { return stop_; });
  }
  void run() {
    while (sleepFor(every_)) {
      for (size_t k = 0; k < flapping_.size(); ++k) {
        sim::GnmiTarget& t = fleet_.target(flapping_[k]);
        if (k % 2 == 0) t.resetStreams();
        else t.stop();
      }
      flaps_ += flapping_.size();
      if (!sleepFor(every_ / 3)) break;
      for (size_t k = 1; k < flapping_.size(); k += 2) {
        if (Status st = fleet_.target(flapping_[k]).start(); !st.isOk()) {
          RDMAGW_LOG(kWarn, "scale-sim") << "restart: " << st.message();
        }
      }
    }
  }

  sim::GnmiFleet& fleet_;
  const seconds every_;
  std::vector<size_t> flapping_;
  std::thread thread_;
  std::mutex mu_;
  std::condition_variable cv_;
  bool stop_ = false;
  std::atomic<uint64_t> flaps_{0};
};

}  // namespace

int main(int argc, char** argv) {
  Options o;
  if (!parse(argc, argv, &o)) {
    std::fputs(kUsage, stderr);
    return 2;
  }
  setLogLevel(LogLevel::kWarn);
  sigset_t sigs;
  sigemptyset(&sigs);
  sigaddset(&sigs, SIGTERM);
  sigaddset(&sigs, SIGINT);
  pthread_sigmask(SIG_BLOCK, &sigs, nullptr);  // before any thread starts

  sim::FabricConfig fabric;
  fabric.hosts = o.hosts;
  fabric.devices_per_host = o.devices;
  fabric.switches = o.switches;
  fabric.esxi_hosts = 0;
  fabric.hosts_per_leaf = o.hosts_per_leaf;
  fabric.calm = o.calm;
  if (Status st = fabric.validate(); !st.isOk()) {
    std::fprintf(stderr, "rdmagw_scale_sim: %s\n", st.message().c_str());
    return 2;
  }
  const sim::Fabric shape(fabric);

  sim::GnmiTargetOptions gopts;
  gopts.tls = sim::GnmiTls::kTls;
  // One user for both transports: a target's credentials serve SSH and gNMI
  // alike, and the simulator's sshd lets its keys in as root.
  gopts.username = o.ssh ? "root" : "admin";
  gopts.password = "scale-" + std::to_string(std::random_device{}());
  gopts.stamp_at_send = true;
  sim::GnmiFleet fleet(shape.switches(), gopts);

  sim::SimRunner runner(fabric, o.dir, milliseconds(o.period));
  runner.setTickObserver([&fleet](const sim::Fabric& f) { fleet.publish(f, nowNs()); });
  if (Status st = runner.start(); !st.isOk()) {
    std::fprintf(stderr, "rdmagw_scale_sim: simulator: %s\n", st.message().c_str());
    return 1;
  }
  if (Status st = fleet.start(); !st.isOk()) {
    std::fprintf(stderr, "rdmagw_scale_sim: gNMI targets: %s\n", st.message().c_str());
    return 1;
  }

  bench::ScaleGatewaySpec spec;
  spec.gnmi_username = gopts.username;
  spec.gnmi_password_file = o.dir + "/gnmi-password";
  spec.interval = o.period;
  spec.prometheus_listen = o.prometheus;
  spec.gnmi_listen = o.gnmi_listen;
  for (size_t i = 0; i < fleet.size(); ++i) {
    sim::GnmiTarget& t = fleet.target(i);
    bench::ScaleSwitch sw;
    sw.name = t.switchName();
    sw.address = t.address();
    sw.ca_file = t.tlsFiles().ca_cert;
    spec.switches.push_back(std::move(sw));
  }
  for (const sim::Host& h : shape.hosts()) spec.hosts.push_back({h.name, o.dir + "/" + h.name});
  spec.analytics = o.analytics;
  spec.roce_checks = o.roce_checks;
  spec.no_drop_priority = fabric.roce_priority;

  sim::SshdLauncher sshd;
  if (o.ssh) {
    const std::string shell = sim::defaultShellPath();
    if (shell.empty() || geteuid() != 0) {
      std::fprintf(stderr, "rdmagw_scale_sim: --ssh on needs root and rdmagw-sim-shell\n");
      return 2;
    }
    if (Status st = sshd.start(); !st.isOk()) {
      std::fprintf(stderr, "rdmagw_scale_sim: sshd: %s\n", st.message().c_str());
      return 1;
    }
    const std::string known_hosts = o.dir + "/.known_hosts";
    if (!writeFile(known_hosts, sshd.knownHostsLine() + "\n")) return 1;
    for (bench::ScaleSwitch& s : spec.switches) {
      Result<sim::ClientKey> key = sshd.addDevice(s.name, shell + " --dir " + o.dir + " --device " + s.name);
      if (!key.isOk()) {
        std::fprintf(stderr, "rdmagw_scale_sim: %s: %s\n", s.name.c_str(), key.status().message().c_str());
        return 1;
      }
      s.ssh_key_file = key->private_key_file;
      s.ssh_port = sshd.port();
      s.known_hosts_file = known_hosts;
    }
  }

  std::unique_ptr<sim::SnmpdLauncher> snmpd;
  std::string env;
  if (o.snmp) {
    sim::SnmpdOptions sopts;
    for (const auto& s : spec.switches) sopts.contexts.push_back(s.name);
    for (const auto& h : spec.hosts) sopts.contexts.push_back(h.name);
    snmpd = std::make_unique<sim::SnmpdLauncher>(sopts);
    if (Status st = snmpd->start(); !st.isOk()) {
      std::fprintf(stderr, "rdmagw_scale_sim: snmpd did not start, SNMP left out: %s\n", st.message().c_str());
      snmpd.reset();
    } else {
      spec.snmp_agentx_socket = snmpd->agentxSocket();
      spec.snmp_state_dir = o.dir + "/snmp-state";
      env += "SNMP_CLIENT_ENV='" + snmpd->clientEnv() + "'\n";
      // The first leaf's context: every leaf has the same tables.
      env += "SNMP_SWITCH=" + spec.switches.front().name + "\n";
      env += "SNMP_COMMUNITY=" + snmpd->communityFor(spec.switches.front().name) + "\n";
      env += "SNMP_ADDR=" + snmpd->address() + "\n";
    }
  }
  env += "SWITCHES=" + std::to_string(spec.switches.size()) + "\nHOSTS=" + std::to_string(spec.hosts.size()) + "\n";
  if (!writeFile(spec.gnmi_password_file, gopts.password + "\n") ||
      !writeFile(o.dir + "/gateway.yaml", bench::scaleGatewayYaml(spec)) ||
      !writeFile(o.dir + "/scale.env", env)) {
    std::fprintf(stderr, "rdmagw_scale_sim: cannot write under %s\n", o.dir.c_str());
    return 1;
  }
  Flapper flapper(fleet, o.flap_percent, o.flap_every);

  const auto sent = [&fleet](bool notifications) {
    uint64_t n = 0;
    for (size_t i = 0; i < fleet.size(); ++i) {
      n += notifications ? fleet.target(i).notificationsSent() : fleet.target(i).updatesSent();
    }
    return n;
  };
  const auto writeStats = [&] {
    int streams = 0;
    for (size_t i = 0; i < fleet.size(); ++i) streams += fleet.target(i).openStreams();
    writeFile(o.dir + "/sim-stats", "sent=" + std::to_string(sent(true)) + "\nupdates_sent=" + std::to_string(sent(false)) + "\ntick=" +
                                        std::to_string(runner.writtenTick()) + "\nlast_tick_ms=" +
                                        std::to_string(runner.lastTickCost().count() / 1000) +
                                        "\nopen_streams=" + std::to_string(streams) +
                                        "\nflaps=" + std::to_string(flapper.flaps()) + "\n");
  };
  writeStats();
  writeFile(o.dir + "/ready", "1\n");
  std::printf("rdmagw_scale_sim: %zu leaves over gNMI, %zu RDMA hosts under %s\n", spec.switches.size(),
              spec.hosts.size(), o.dir.c_str());
  std::fflush(stdout);

  const timespec one_second{1, 0};
  while (sigtimedwait(&sigs, nullptr, &one_second) < 0) writeStats();
  // Stop sending first: the final count is what the gateway can have received.
  fleet.stop();
  writeStats();
  runner.stop();
  if (snmpd) snmpd->stop();
  sshd.stop();
  return 0;
}
