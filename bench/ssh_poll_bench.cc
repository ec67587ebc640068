// Time to poll 50 SSH targets (a real OpenSSH sshd on loopback, one client
// key and forced command per device) concurrently, as the gateway does:
// the first round includes connect + key exchange + auth; later rounds reuse
// the sessions. Each device answers `show interface priority-flow-control`
// with a recorded N5K output, parsed by the real NX-OS parser.

#include <benchmark/benchmark.h>
#include <unistd.h>

#include <fstream>
#include <future>

#include "sim/sshd_launcher.h"
#include "southbound/ssh/parsers/nxos_pfc.h"
#include "southbound/ssh/ssh_factory.h"

namespace rdmagw::bench {
namespace {

constexpr int kTargets = 50;

struct Fleet {
  sim::SshdLauncher sshd;
  std::vector<southbound::PollSourcePtr> sources;
  std::string error;

  Fleet() {
    if (geteuid() != 0) {
      error = "needs root (sshd)";
      return;
    }
    if (Status st = sshd.start(); !st.isOk()) {
      error = st.message();
      return;
    }
    const std::string fixture = std::string(RDMAGW_SOURCE_DIR) +
                                "/tests/fixtures/nxos/nxos_n5k_show_interface_priority-flow-control__oswalt_blog.txt";
    const std::string known_hosts = sshd.dir() + "/bench_known_hosts";
    std::ofstream(known_hosts) << sshd.knownHostsLine() << "\n";
    southbound::ssh::setMaxConcurrentSsh(16);
    for (int i = 0; i < kTargets; ++i) {
      auto key = sshd.addDevice("sw" + std::to_string(i), "cat '" + fixture + "'");
      if (!key.isOk()) {
        error = key.status().message();
        return;
      }
      southbound::ssh::SshConfig cfg;
      cfg.host = "127.0.0.1";
      cfg.port = sshd.port();
      cfg.username = "root";
      cfg.key_file = key->private_key_file;
      cfg.known_hosts_file = known_hosts;
      auto src = southbound::ssh::createCliSource(
          cfg, {southbound::ssh::CliCommand("show interface priority-flow-control", southbound::ssh::parsePfc)});
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
    for (auto& s : sources) {
      polls.push_back(std::async(std::launch::async, [&s] {
        PollBatch b;
        return s->poll(b).isOk() && !b.updates.empty();
      }));
    }
    int ok = 0;
    for (auto& p : polls) ok += p.get() ? 1 : 0;
    return ok;
  }
};

void BM_SshPoll50Targets(benchmark::State& state) {
  Fleet fleet;
  if (!fleet.error.empty()) {
    state.SkipWithError(fleet.error.c_str());
    return;
  }
  const auto t0 = std::chrono::steady_clock::now();
  const int first_ok = fleet.pollAll();  // connects + auth
  const double first_ms =
      std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
  int ok = 0;
  for (auto _ : state) ok = fleet.pollAll();
  state.counters["targets"] = kTargets;
  state.counters["ok_first_round"] = first_ok;
  state.counters["ok_per_round"] = ok;
  state.counters["first_round_ms_with_connect"] = first_ms;
}
BENCHMARK(BM_SshPoll50Targets)->Unit(benchmark::kMillisecond)->UseRealTime()->Iterations(10);

}  // namespace
}  // namespace rdmagw::bench
