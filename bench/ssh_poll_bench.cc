// SSH southbound against a real OpenSSH sshd on loopback (one client key and
// forced command per device), as the gateway uses it:
//  - BM_SshCommandLatencyReused: one device, one reused session, one
//    trivial command after another: the cost of a command once connected
//    (median and p99), which should be about one sshd fork, not a fixed wait.
//  - BM_SshPoll50Targets/<cap>: 50 targets polled at once under a cap of
//    <cap> concurrent SSH operations. The first round includes connect, key
//    exchange and auth; the timed rounds reuse the sessions. Each device
//    answers `show interface priority-flow-control` with a recorded N5K
//    output, parsed by the real NX-OS parser.

#include <benchmark/benchmark.h>
#include <unistd.h>

#include <algorithm>
#include <fstream>
#include <future>

#include "sim/sshd_launcher.h"
#include "southbound/nxos/nxos_pfc.h"
#include "southbound/ssh/ssh_connection.h"
#include "southbound/ssh/ssh_factory.h"

namespace rdmagw::bench {
namespace {

using Clock = std::chrono::steady_clock;

double msSince(Clock::time_point t0) {
  return std::chrono::duration<double, std::milli>(Clock::now() - t0).count();
}

double percentile(std::vector<double> v, double p) {
  if (v.empty()) return 0;
  std::sort(v.begin(), v.end());
  const size_t i = std::min(v.size() - 1, static_cast<size_t>(p * static_cast<double>(v.size())));
  return v[i];
}

// A started sshd with a known_hosts file trusting it, or why not.
struct Sshd {
  sim::SshdLauncher sshd;
  std::string known_hosts;
  std::string error;

  Sshd() {
    if (geteuid() != 0) {
      error = "needs root (sshd)";
      return;
    }
    if (Status st = sshd.start(); !st.isOk()) {
      error = st.message();
      return;
    }
    known_hosts = sshd.dir() + "/bench_known_hosts";
    std::ofstream(known_hosts) << sshd.knownHostsLine() << "\n";
  }

  southbound::ssh::SshConfig config(const std::string& key_file) const {
    southbound::ssh::SshConfig cfg;
    cfg.host = "127.0.0.1";
    cfg.port = sshd.port();
    cfg.username = "root";
    cfg.key_file = key_file;
    cfg.known_hosts_file = known_hosts;
    return cfg;
  }
};

void BM_SshCommandLatencyReused(benchmark::State& state) {
  Sshd s;
  if (!s.error.empty()) {
    state.SkipWithError(s.error.c_str());
    return;
  }
  auto key = s.sshd.addDevice("nx", "echo 'ok 1'");
  if (!key.isOk()) {
    state.SkipWithError(key.status().message().c_str());
    return;
  }
  southbound::ssh::ConcurrencyLimiter limiter(1);
  southbound::ssh::ConnectionOptions opts;
  opts.limiter = &limiter;
  southbound::ssh::SshConnection conn(s.config(key->private_key_file), opts);
  if (!conn.execute("warm-up").isOk()) {  // connect + auth, not measured
    state.SkipWithError("first command failed");
    return;
  }
  std::vector<double> ms;
  size_t failed = 0;
  for (auto _ : state) {
    const auto t0 = Clock::now();
    failed += conn.execute("show version").isOk() ? 0 : 1;
    ms.push_back(msSince(t0));
  }
  state.counters["median_ms"] = percentile(ms, 0.5);
  state.counters["p99_ms"] = percentile(ms, 0.99);
  state.counters["failed"] = static_cast<double>(failed);
  state.counters["connects"] = static_cast<double>(conn.stats().connects);
}
BENCHMARK(BM_SshCommandLatencyReused)->Unit(benchmark::kMillisecond)->UseRealTime()->Iterations(100);

struct Fleet {
  static constexpr int kTargets = 50;
  Sshd s;
  southbound::ssh::ConcurrencyLimiter limiter;
  std::vector<southbound::PollSourcePtr> sources;
  std::string error;

  explicit Fleet(size_t cap) : limiter(cap) {
    error = s.error;
    if (!error.empty()) return;
    const std::string fixture = std::string(RDMAGW_SOURCE_DIR) +
                                "/tests/fixtures/nxos/nxos_n5k_show_interface_priority-flow-control__oswalt_blog.txt";
    for (int i = 0; i < kTargets; ++i) {
      auto key = s.sshd.addDevice("sw" + std::to_string(i), "cat '" + fixture + "'");
      if (!key.isOk()) {
        error = key.status().message();
        return;
      }
      southbound::ssh::ConnectionOptions opts;
      opts.limiter = &limiter;
      auto src = southbound::ssh::createCliSource(
          s.config(key->private_key_file),
          {southbound::ssh::CliCommand("show interface priority-flow-control", southbound::nxos::parsePfc)},
          opts);
      if (!src.isOk()) {
        error = src.status().message();
        return;
      }
      sources.push_back(std::move(src).value());
    }
  }

  // Polls every target at once; returns the number that succeeded.
  int pollAll() {
    std::vector<std::future<bool>> polls;
    for (auto& src : sources) {
      polls.push_back(std::async(std::launch::async, [&src] {
        PollBatch b;
        return src->poll(b).isOk() && !b.updates.empty();
      }));
    }
    int ok = 0;
    for (auto& p : polls) ok += p.get() ? 1 : 0;
    return ok;
  }
};

void BM_SshPoll50Targets(benchmark::State& state) {
  Fleet fleet(static_cast<size_t>(state.range(0)));
  if (!fleet.error.empty()) {
    state.SkipWithError(fleet.error.c_str());
    return;
  }
  const auto t0 = Clock::now();
  const int first_ok = fleet.pollAll();  // connects + auth
  const double first_ms = msSince(t0);
  int ok_min = Fleet::kTargets;
  for (auto _ : state) ok_min = std::min(ok_min, fleet.pollAll());
  state.counters["targets"] = Fleet::kTargets;
  state.counters["cap"] = static_cast<double>(state.range(0));
  state.counters["ok_first_round"] = first_ok;
  state.counters["ok_min_per_round"] = ok_min;
  state.counters["first_round_ms_with_connect"] = first_ms;
}
BENCHMARK(BM_SshPoll50Targets)->Arg(8)->Arg(16)->Unit(benchmark::kMillisecond)->UseRealTime()->Iterations(3);

}  // namespace
}  // namespace rdmagw::bench
