// The reconnect storm: N simulated gNMI switches (TLS, one CA, an AAA delay
// per Capabilities) and M SSH devices behind one real sshd restart at the
// same moment, and the gateway's own sources bring them back. Prints, for
// each: time until every target is back (p50/p99/max), the most handshakes
// in progress at once as the devices saw them, connection attempts per
// device (min/median/max, total). A benchmark: figures, no asserts.
//
//   rdmagw_reconnect_storm [--switches 500] [--ssh 500] [--gnmi-cap 16] [--ssh-cap 16]
//                          [--polls 64] [--down-ms 2000] [--starting-ms 3000] [--aaa-ms 50]
//                          [--ssh-down-ms 12000]
//
// Run it from a Release build (build-rel); the simulated devices and the
// gateway share the process and the machine, so figures on a busy machine
// are upper bounds.

#include <sys/resource.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <map>
#include <memory>
#include <string>
#include <thread>
#include <vector>

#include "models/log.h"
#include "models/store.h"
#include "sim/fabric.h"
#include "sim/gnmi/gnmi_fleet.h"
#include "sim/sshd_launcher.h"
#include "southbound/gnmi/fallback_source.h"
#include "southbound/handshake_gate.h"
#include "southbound/poll_scheduler.h"
#include "southbound/ssh/cli_source.h"
#include "southbound/ssh/concurrency_limiter.h"
#include "southbound/ssh/ssh_connection.h"
#include "southbound/ssh/ssh_factory.h"

namespace {

using namespace rdmagw;
using Clock = std::chrono::steady_clock;
using std::chrono::milliseconds;

struct Options {
  int switches = 500;
  int ssh = 500;
  size_t gnmi_cap = southbound::HandshakeGate::kDefaultGnmiLimit;
  size_t ssh_cap = southbound::ssh::ConcurrencyLimiter::kDefaultLimit;
  size_t polls = 64;
  milliseconds down{2000};
  // Longer than the SSH poll interval (10 s): every device is polled, and
  // refused, while it is down, so the backoff (not the poll phase) decides
  // when each comes back.
  milliseconds ssh_down{12000};
  milliseconds starting{3000};
  milliseconds aaa{50};
};

bool parse(int argc, char** argv, Options* o) {
  for (int i = 1; i < argc; ++i) {
    const std::string a = argv[i];
    if (i + 1 >= argc) return false;
    const long v = std::atol(argv[++i]);
    if (a == "--switches") o->switches = int(v);
    else if (a == "--ssh") o->ssh = int(v);
    else if (a == "--gnmi-cap") o->gnmi_cap = size_t(v);
    else if (a == "--ssh-cap") o->ssh_cap = size_t(v);
    else if (a == "--polls") o->polls = size_t(v);
    else if (a == "--down-ms") o->down = milliseconds(v);
    else if (a == "--ssh-down-ms") o->ssh_down = milliseconds(v);
    else if (a == "--starting-ms") o->starting = milliseconds(v);
    else if (a == "--aaa-ms") o->aaa = milliseconds(v);
    else return false;
  }
  return true;
}

double seconds(Clock::duration d) { return std::chrono::duration<double>(d).count(); }

template <typename T>
T pick(std::vector<T> v, double q) {
  if (v.empty()) return T{};
  std::sort(v.begin(), v.end());
  const size_t i = std::min(v.size() - 1, size_t(q * double(v.size() - 1) + 0.5));
  return v[i];
}

void printTimes(const char* what, const std::vector<double>& t) {
  std::printf("  %-44s p50 %6.2f s  p99 %6.2f s  max %6.2f s\n", what, pick(t, 0.5), pick(t, 0.99), pick(t, 1.0));
}

void printCounts(const char* what, const std::vector<uint64_t>& c) {
  uint64_t total = 0;
  for (uint64_t x : c) total += x;
  std::printf("  %-44s min %4llu  median %4llu  max %4llu  total %llu\n", what,
              (unsigned long long)pick(c, 0.0), (unsigned long long)pick(c, 0.5),
              (unsigned long long)pick(c, 1.0), (unsigned long long)total);
}

// Waits until done(i) for every i, noting when each first was; returns the
// seconds from `t0` per target (-1: not within `limit`).
std::vector<double> timeUntilEach(size_t n, Clock::time_point t0, const std::function<bool(size_t)>& done,
                                  std::chrono::seconds limit, const std::function<void()>& each_round = nullptr) {
  std::vector<double> at(n, -1);
  size_t left = n;
  while (left > 0 && Clock::now() - t0 < limit) {
    if (each_round) each_round();
    for (size_t i = 0; i < n; ++i) {
      if (at[i] < 0 && done(i)) {
        at[i] = seconds(Clock::now() - t0);
        --left;
      }
    }
    std::this_thread::sleep_for(milliseconds(10));
  }
  if (left > 0) std::printf("  !! %zu target(s) not back within %lld s\n", left, (long long)limit.count());
  std::vector<double> got;
  for (double x : at) {
    if (x >= 0) got.push_back(x);
  }
  return got;
}

void gnmiStorm(const Options& o) {
  std::printf("gNMI: %d simulated switches (TLS, one CA, Capabilities answered after %lld ms of AAA), "
              "max_concurrent_gnmi_handshakes %zu\n",
              o.switches, (long long)o.aaa.count(), o.gnmi_cap);
  // A simulated fabric has at most 256 leaves: more switches reuse their
  // counters under new names.
  sim::FabricConfig fc;
  fc.switches = std::min(o.switches, 256);
  fc.hosts = 2;
  fc.esxi_hosts = 0;
  sim::Fabric fabric(fc);
  std::vector<sim::Switch> switches;
  for (int i = 0; i < o.switches; ++i) {
    const size_t k = fabric.switches().size();
    switches.push_back(fabric.switches()[size_t(i) % k]);
    if (size_t(i) >= k) switches.back().name += "-" + std::to_string(size_t(i) / k);
  }
  sim::GnmiTargetOptions to;
  to.tls = sim::GnmiTls::kTls;
  to.capabilities_delay = o.aaa;
  sim::GnmiFleet fleet(switches, to);
  if (Status st = fleet.start(); !st.isOk()) {
    std::printf("  cannot start the fleet: %s\n", st.message().c_str());
    return;
  }
  const auto publish = [&] {
    const TimestampNs ts = nowNs();
    for (size_t i = 0; i < fleet.size(); ++i) fleet.target(i).publish(switches[i], ts);
  };
  publish();
  southbound::setMaxConcurrentGnmiHandshakes(o.gnmi_cap);
  southbound::HandshakeGate& gate = southbound::HandshakeGate::gnmi();

  Store store;
  std::vector<std::unique_ptr<southbound::gnmi::FallbackSource>> sources;
  const size_t n = fleet.size();
  const Clock::time_point cold = Clock::now();
  for (size_t i = 0; i < n; ++i) {
    southbound::gnmi::GnmiConfig c;  // the gateway's defaults: backoff 1 s .. 60 s, dial_timeout 10 s
    c.address = fleet.target(i).address();
    c.ca_file = fleet.caFile();
    southbound::gnmi::FallbackOptions fo;
    fo.target = fleet.target(i).switchName();
    fo.config = c;
    sources.push_back(std::make_unique<southbound::gnmi::FallbackSource>(store, std::move(fo)));
    (void)sources.back()->start();
  }
  const auto up_after = [&](const std::vector<uint64_t>& dials) {
    return [&sources, dials](size_t i) {
      const auto s = sources[i]->stats();
      return s.up && s.dials > dials[i];
    };
  };
  std::vector<double> cold_times = timeUntilEach(n, cold, up_after(std::vector<uint64_t>(n, 0)), std::chrono::seconds(600));
  std::printf("cold start (all %zu dial at once):\n", n);
  printTimes("time until every switch streams", cold_times);
  std::printf("  %-44s %zu (gateway's gate: %zu)\n", "most handshakes in progress (switches saw)",
              fleet.handshakeMeter().peak(), gate.peak());

  std::vector<uint64_t> dials0(n), caps0(n), conns0(n);
  for (size_t i = 0; i < n; ++i) {
    dials0[i] = sources[i]->stats().dials;
    const sim::ConnectionCounts c = fleet.target(i).connectionCounts();
    caps0[i] = c.capabilities;
    conns0[i] = c.connections;
  }
  fleet.handshakeMeter().resetPeak();
  const size_t gate_peak_before = gate.peak();

  const Clock::time_point t0 = Clock::now();
  Status st = fleet.restart(o.down, o.starting);
  const double restart_s = seconds(Clock::now() - t0);
  publish();
  std::vector<double> times = timeUntilEach(n, t0, up_after(dials0), std::chrono::seconds(900));
  std::printf("restart of all %zu at one moment (down %.1f s incl. stopping them, then refusing RPCs for %.1f s "
              "while starting)%s:\n",
              n, restart_s, seconds(o.starting), st.isOk() ? "" : (" [restart: " + st.message() + "]").c_str());
  printTimes("time from the restart until each streams again", times);
  const double ready = restart_s + seconds(o.starting);
  std::vector<double> after_ready;
  for (double t : times) after_ready.push_back(std::max(0.0, t - ready));
  printTimes("... of which after the switches were ready", after_ready);
  std::printf("  %-44s %zu (cap %zu; gateway's gate peak %zu)\n", "most handshakes in progress (switches saw)",
              fleet.handshakeMeter().peak(), o.gnmi_cap, std::max(gate.peak(), gate_peak_before));
  std::vector<uint64_t> attempts, refused, conns, dials;
  for (size_t i = 0; i < n; ++i) {
    const sim::ConnectionCounts c = fleet.target(i).connectionCounts();
    attempts.push_back(c.capabilities - caps0[i]);
    refused.push_back(c.refused_starting);
    conns.push_back(c.connections - conns0[i]);
    dials.push_back(sources[i]->stats().dials - dials0[i]);
  }
  printCounts("attempts each switch saw (Capabilities RPCs)", attempts);
  printCounts("  of which refused while starting", refused);
  printCounts("connections each switch saw", conns);
  printCounts("dials by the gateway (refused TCP included)", dials);
  for (auto& s : sources) s->stop();
  sources.clear();
  fleet.stop();
}

void sshStorm(const Options& o) {
  std::printf("SSH: %d devices behind one real sshd (key auth, forced command per device), "
              "max_concurrent_ssh %zu, %zu poll workers, interval 10 s\n",
              o.ssh, o.ssh_cap, o.polls);
  sim::SshdOptions so;
  so.log_connections = true;
  sim::SshdLauncher sshd(so);
  if (Status st = sshd.start(); !st.isOk()) {
    std::printf("  cannot start sshd: %s\n", st.message().c_str());
    return;
  }
  const std::string known_hosts = sshd.dir() + "/client_known_hosts";
  {
    FILE* f = std::fopen(known_hosts.c_str(), "w");
    if (f == nullptr) return;
    std::fprintf(f, "%s\n", sshd.knownHostsLine().c_str());
    std::fclose(f);
  }
  southbound::ssh::setMaxConcurrentSsh(o.ssh_cap);
  southbound::ssh::ConcurrencyLimiter& limiter = southbound::ssh::ConcurrencyLimiter::process();
  Store store;
  southbound::PollScheduler sched(store, o.polls);
  std::vector<std::shared_ptr<southbound::ssh::SshConnection>> conns;
  std::vector<std::string> names;
  const auto parseUp = [](std::string_view text, TimestampNs ts, PollBatch& out) {
    out.add("/storm/device/state/up", uint64_t(text.find("up") != std::string_view::npos), ts);
    return Status::ok();
  };
  for (int i = 0; i < o.ssh; ++i) {
    const std::string name = "dev" + std::to_string(i);
    auto key = sshd.addDevice(name, "echo up");
    if (!key.isOk()) {
      std::printf("  addDevice: %s\n", key.status().message().c_str());
      return;
    }
    southbound::ssh::SshConfig c;  // the gateway's defaults: timeouts, keepalive
    c.host = "127.0.0.1";
    c.port = sshd.port();
    c.username = "root";
    c.key_file = key->private_key_file;
    c.known_hosts_file = known_hosts;
    auto conn = std::make_shared<southbound::ssh::SshConnection>(c);  // backoff 1 s .. 5 min
    conns.push_back(conn);
    names.push_back(name);
    sched.add(southbound::PollTarget{name, "nexus",
                                     std::make_unique<southbound::ssh::CliSource>(
                                         conn, std::vector<southbound::ssh::CliCommand>{{"show version", parseUp}}),
                                     std::chrono::seconds(10), std::chrono::minutes(10), {}});
  }
  const size_t n = names.size();
  std::map<std::string, size_t> index;
  for (size_t i = 0; i < n; ++i) index[names[i]] = i;
  std::vector<TargetHealth> healths(n);
  const auto refresh = [&] {  // one copy of the store's health per round, not one per target
    for (const TargetStatus& t : store.targets()) {
      auto it = index.find(t.name);
      if (it != index.end()) healths[it->second] = t.health;
    }
  };
  const auto health = [&](size_t i) { return healths[i]; };
  const Clock::time_point cold = Clock::now();
  sched.start();
  std::vector<double> cold_times =
      timeUntilEach(n, cold, [&](size_t i) { return health(i).up; }, std::chrono::seconds(600), refresh);
  std::printf("cold start (all %zu due at once):\n", n);
  printTimes("time until every device answered", cold_times);
  std::printf("  %-44s %zu (gateway's limiter: %zu)\n", "most handshakes in progress (sshd saw)",
              sshd.handshakeStats().peak_in_progress, limiter.peak());

  std::vector<uint64_t> attempts0(n), logins0(n);
  for (size_t i = 0; i < n; ++i) {
    const auto s = conns[i]->stats();
    attempts0[i] = s.connects + s.connect_failures;
    logins0[i] = sshd.connectionCount(names[i]);
  }
  const size_t log_from = sshd.logSize();
  const Clock::time_point t0 = Clock::now();
  sshd.stopServer();
  std::this_thread::sleep_for(o.ssh_down);
  Status st = sshd.start();
  const double down_s = seconds(Clock::now() - t0);
  const TimestampNs back = nowNs();
  std::vector<double> times = timeUntilEach(
      n, t0, [&](size_t i) { const TargetHealth h = health(i); return h.up && h.last_success_ns > back; },
      std::chrono::seconds(900), refresh);
  sched.stop();
  std::printf("restart of sshd with all %zu sessions (down %.1f s)%s:\n", n, down_s,
              st.isOk() ? "" : (" [start: " + st.message() + "]").c_str());
  printTimes("time from the restart until each answered again", times);
  std::vector<double> after_back;
  for (double t : times) after_back.push_back(std::max(0.0, t - down_s));
  printTimes("... of which after sshd was back", after_back);
  const sim::SshdHandshakeStats seen = sshd.handshakeStats(log_from);
  std::printf("  %-44s %zu (cap %zu; gateway's limiter peak %zu)\n", "most handshakes in progress (sshd saw)",
              seen.peak_in_progress, o.ssh_cap, limiter.peak());
  std::vector<uint64_t> attempts, logins;
  for (size_t i = 0; i < n; ++i) {
    const auto s = conns[i]->stats();
    attempts.push_back(s.connects + s.connect_failures - attempts0[i]);
    logins.push_back(sshd.connectionCount(names[i]) - logins0[i]);
  }
  printCounts("logins each device saw", logins);
  printCounts("connect attempts by the gateway (refused incl.)", attempts);
  std::printf("  %-44s %llu accepted, %llu authenticated\n", "sshd's count of the storm",
              (unsigned long long)seen.accepted, (unsigned long long)seen.authenticated);
}

}  // namespace

int main(int argc, char** argv) {
  Options o;
  if (!parse(argc, argv, &o)) {
    std::fprintf(stderr,
                 "usage: rdmagw_reconnect_storm [--switches N] [--ssh M] [--gnmi-cap C] [--ssh-cap C]\n"
                 "         [--polls W] [--down-ms MS] [--starting-ms MS] [--aaa-ms MS] [--ssh-down-ms MS]\n");
    return 2;
  }
  // Each switch is a listener plus a connection at both ends.
  rlimit nofile{};
  if (getrlimit(RLIMIT_NOFILE, &nofile) == 0) {
    nofile.rlim_cur = nofile.rlim_max;
    setrlimit(RLIMIT_NOFILE, &nofile);
  }
  setLogLevel(LogLevel::kError);  // a storm logs a failure per target: the figures are the output
  if (o.switches > 0) gnmiStorm(o);
  if (o.ssh > 0) sshStorm(o);
  return 0;
}
