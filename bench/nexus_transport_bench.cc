// The three ways the gateway reads a Cisco Nexus, side by side, for one
// switch and for a fleet: NX-API (southbound/nxapi: HTTPS POST /ins on a
// kept connection), the SSH CLI (southbound/ssh: one channel per command on
// a kept session) and gNMI (southbound/gnmi: a SAMPLE stream). Prints one
// Markdown table: requests and round trips per poll, response bytes, poll
// wall time, the wall time of a round of the whole fleet polled by a bounded
// worker pool (as the scheduler does), the gateway's CPU per poll, and the
// first poll (connect, TLS or key exchange, login) on its own.
//
// The simulated devices run in a forked child (bench/nexus_transport_devices.h),
// so getrusage(RUSAGE_SELF) here is the gateway side alone. Figures only;
// nothing is asserted. Run: ./build-rel/bench/rdmagw_nexus_transport_bench --help

#include <sys/resource.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cstdio>
#include <cstdlib>
#include <functional>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include "bench/nexus_transport_devices.h"
#include "bench/worker_pool.h"
#include "models/log.h"
#include "models/store.h"
#include "southbound/gnmi/gnmi_factory.h"
#include "southbound/nxapi/nxapi_source.h"
#include "southbound/ssh/cli_source.h"
#include "southbound/ssh/profiles/nexus_profile.h"
#include "southbound/ssh/ssh_connection.h"

namespace rdmagw::bench {
namespace {

using Clock = std::chrono::steady_clock;
using std::chrono::milliseconds;
constexpr const char* kPasswordEnv = "RDMAGW_BENCH_NEXUS_PASSWORD";

struct Options {
  int fleet = 50;
  int workers = 16;             // the scheduler's default pool
  int polls_one = 30;           // timed polls of one switch (3 x every-10th commands)
  int rounds_fleet = 10;        // timed rounds of the fleet
  int gnmi_intervals = 10;      // sample intervals the gNMI CPU is measured over
  milliseconds interval{1000};  // gNMI sample interval and the simulator's tick
};

double cpuSeconds() {
  rusage ru{};
  getrusage(RUSAGE_SELF, &ru);
  return static_cast<double>(ru.ru_utime.tv_sec + ru.ru_stime.tv_sec) +
         static_cast<double>(ru.ru_utime.tv_usec + ru.ru_stime.tv_usec) / 1e6;
}

double msSince(Clock::time_point t0) { return std::chrono::duration<double, std::milli>(Clock::now() - t0).count(); }

double percentile(std::vector<double> v, double p) {
  if (v.empty()) return 0;
  std::sort(v.begin(), v.end());
  return v[std::min(v.size() - 1, static_cast<size_t>(p * static_cast<double>(v.size())))];
}

std::string fmt(const char* f, double v) {
  char buf[64];
  std::snprintf(buf, sizeof buf, f, v);
  return buf;
}

struct Row {
  std::string transport;
  size_t switches = 0;
  std::string requests, round_trips, bytes;
  std::string poll_p50 = "-", poll_p95 = "-", round_p50 = "-", cpu_per_poll, cpu_per_round, first;
  std::string note;
};

// What one poll of one source cost on the wire, read right after it.
struct PollCount {
  double requests = 0;
  double bytes = 0;
};

// Polls n sources: round 0 (the first: connect and login) on its own, one
// more untimed round, then `rounds` timed ones.
Row runPolled(const std::string& transport, std::vector<southbound::PollSourcePtr>& sources,
              const std::vector<std::string>& names, int rounds, int workers,
              const std::function<PollCount(size_t)>& count, double round_trips_per_request) {
  Store store;
  WorkerPool pool(std::min<int>(workers, static_cast<int>(sources.size())));
  std::vector<double> poll_ms, round_ms;
  std::mutex mu;
  std::atomic<size_t> failed{0};
  double requests = 0, bytes = 0;
  bool timed = false;
  const std::function<void(size_t)> pollOne = [&](size_t i) {
    const auto t0 = Clock::now();
    PollBatch batch;
    const Status st = sources[i]->poll(batch);
    store.apply(names[i], batch);
    const double ms = msSince(t0);
    const PollCount c = count(i);
    if (!st.isOk()) ++failed;
    std::lock_guard lock(mu);
    if (!timed) return;
    poll_ms.push_back(ms);
    requests += c.requests;
    bytes += c.bytes;
  };
  const auto first0 = Clock::now();
  pool.run(sources.size(), pollOne);
  const double first_ms = msSince(first0);
  const size_t first_failed = failed.exchange(0);
  pool.run(sources.size(), pollOne);
  failed = 0;
  timed = true;
  double cpu = 0;
  for (int r = 0; r < rounds; ++r) {
    const double c0 = cpuSeconds();
    const auto t0 = Clock::now();
    pool.run(sources.size(), pollOne);
    round_ms.push_back(msSince(t0));
    cpu += cpuSeconds() - c0;
  }
  const double polls = static_cast<double>(poll_ms.size());
  Row row;
  row.transport = transport;
  row.switches = sources.size();
  row.requests = fmt("%.1f", requests / polls);
  row.round_trips = fmt("%.1f", round_trips_per_request * requests / polls);
  row.bytes = fmt("%.0f", bytes / polls);
  row.poll_p50 = fmt("%.1f ms", percentile(poll_ms, 0.5));
  row.poll_p95 = fmt("%.1f ms", percentile(poll_ms, 0.95));
  if (sources.size() > 1) row.round_p50 = fmt("%.0f ms", percentile(round_ms, 0.5));
  row.cpu_per_poll = fmt("%.2f ms", 1000 * cpu / polls);
  row.cpu_per_round = fmt("%.1f ms", 1000 * cpu / rounds);
  row.first = fmt(sources.size() > 1 ? "%.0f ms (round)" : "%.0f ms", first_ms);
  if (failed > 0 || first_failed > 0) {
    row.note = std::to_string(failed) + " of " + std::to_string(poll_ms.size()) + " timed polls failed, " +
               std::to_string(first_failed) + " first";
  }
  return row;
}

Row runNxapi(const NexusDeviceEndpoints& ep, size_t n, const Options& o) {
  std::vector<southbound::PollSourcePtr> sources;
  std::vector<southbound::nxapi::NxapiSource*> nx;
  std::vector<std::string> names;
  for (size_t i = 0; i < n; ++i) {
    southbound::nxapi::NxapiConfig cfg;
    cfg.host = "127.0.0.1";
    cfg.port = ep.leaves[i].nxapi_port;
    cfg.username = "admin";
    cfg.password_env = kPasswordEnv;
    cfg.ca_file = ep.nxapi_ca;
    auto src = std::make_unique<southbound::nxapi::NxapiSource>(cfg, southbound::ssh::nexusCommands());
    nx.push_back(src.get());
    sources.push_back(std::move(src));
    names.push_back(ep.leaves[i].name);
  }
  // Each source is polled by one worker at a time and rounds do not
  // overlap, so its previous byte count needs no lock.
  std::vector<uint64_t> seen(n, 0);
  const auto count = [&nx, &seen](size_t i) {
    const uint64_t b = nx[i]->httpStats().bytes_received;
    PollCount c{static_cast<double>(nx[i]->stats().last_poll_requests), static_cast<double>(b - seen[i])};
    seen[i] = b;
    return c;
  };
  return runPolled("NX-API", sources, names, n > 1 ? o.rounds_fleet : o.polls_one, o.workers, count, 1.0);
}

// The runner createCliSource builds (a kept SshConnection), counted: each
// execute() is one channel open + exec + output to EOF on the session. The
// factory hides its runner, so the CliSource is built here; the keepalive
// registration it skips only acts on idle sessions, and these never idle.
class CountingRunner : public southbound::ssh::CommandRunner {
 public:
  explicit CountingRunner(southbound::ssh::SshConfig cfg)
      : conn_(std::make_shared<southbound::ssh::SshConnection>(std::move(cfg))) {}
  Result<southbound::ssh::CommandOutput> execute(const std::string& command) override {
    Result<southbound::ssh::CommandOutput> r = conn_->execute(command);
    ++commands;
    if (r.isOk()) bytes += r->text.size();
    return r;
  }
  uint64_t commands = 0, bytes = 0;  // touched by the polling worker only

 private:
  std::shared_ptr<southbound::ssh::SshConnection> conn_;
};

Row runSsh(const NexusDeviceEndpoints& ep, size_t n, const Options& o) {
  std::vector<southbound::PollSourcePtr> sources;
  std::vector<std::shared_ptr<CountingRunner>> runners;
  std::vector<std::string> names;
  for (size_t i = 0; i < n; ++i) {
    southbound::ssh::SshConfig cfg;
    cfg.host = "127.0.0.1";
    cfg.port = ep.ssh_port;
    cfg.username = "root";
    cfg.key_file = ep.leaves[i].ssh_key_file;
    cfg.known_hosts_file = ep.known_hosts;
    runners.push_back(std::make_shared<CountingRunner>(cfg));
    sources.push_back(std::make_unique<southbound::ssh::CliSource>(runners.back(), southbound::ssh::nexusCommands()));
    names.push_back(ep.leaves[i].name);
  }
  std::vector<PollCount> seen(n);
  const auto count = [&runners, &seen](size_t i) {
    const PollCount now{static_cast<double>(runners[i]->commands), static_cast<double>(runners[i]->bytes)};
    const PollCount c{now.requests - seen[i].requests, now.bytes - seen[i].bytes};
    seen[i] = now;
    return c;
  };
  // Per command: the channel open and the exec request each wait for the
  // device's answer; the output and EOF follow the exec reply.
  return runPolled("SSH", sources, names, n > 1 ? o.rounds_fleet : o.polls_one, o.workers, count, 2.0);
}

Row runGnmi(NexusDeviceProcess& devices, size_t n, const Options& o) {
  const NexusDeviceEndpoints& ep = devices.endpoints();
  Row row;
  row.transport = "gNMI";
  row.switches = n;
  Store store;
  std::vector<southbound::StreamSourcePtr> sources;
  const auto t0 = Clock::now();
  for (size_t i = 0; i < n; ++i) {
    southbound::gnmi::GnmiConfig cfg;
    cfg.address = ep.leaves[i].gnmi_address;
    cfg.username = "admin";
    cfg.password_env = kPasswordEnv;
    cfg.ca_file = ep.gnmi_ca;
    cfg.sample_interval = o.interval;
    auto src = southbound::gnmi::createGnmiSource(ep.leaves[i].name, cfg, store);
    if (!src.isOk()) {
      row.note = "not run: " + src.status().message();
      return row;
    }
    sources.push_back(std::move(src).value());
    if (Status st = sources.back()->start(); !st.isOk()) row.note = st.message();
  }
  // "First poll": until every target's first samples are in the store.
  const auto allIn = [&store, n] {
    size_t in = 0;
    for (const TargetStatus& t : store.targets()) in += t.series > 0 ? 1 : 0;
    return in == n;
  };
  while (!allIn() && msSince(t0) < 60000) std::this_thread::sleep_for(milliseconds(5));
  const double first_ms = msSince(t0);
  std::this_thread::sleep_for(2 * o.interval);  // past the initial sync's burst
  Result<GnmiSent> s0 = devices.gnmiSent();
  const double c0 = cpuSeconds();
  const auto w0 = Clock::now();
  std::this_thread::sleep_for(o.gnmi_intervals * o.interval);
  const double cpu = cpuSeconds() - c0;
  const double intervals = msSince(w0) / static_cast<double>(o.interval.count());
  Result<GnmiSent> s1 = devices.gnmiSent();
  for (auto& s : sources) s->stop();
  const double per = intervals * static_cast<double>(n);  // switch-intervals
  if (s0.isOk() && s1.isOk()) {
    row.requests = fmt("0 (%.1f notif.", static_cast<double>(s1->notifications - s0->notifications) / per) +
                   fmt(", %.0f updates / interval)", static_cast<double>(s1->updates - s0->updates) / per);
  } else {
    row.requests = "0 (stream)";
  }
  row.round_trips = "0";
  row.bytes = "n/a";
  row.cpu_per_poll = fmt("%.2f ms", 1000 * cpu / per);
  row.cpu_per_round = fmt("%.1f ms", 1000 * cpu / intervals);
  row.first = fmt(n > 1 ? "%.0f ms (all)" : "%.0f ms", first_ms) + " to data";
  return row;
}

void printTable(const std::vector<Row>& rows, const Options& o) {
  std::printf(
      "\nMachine: %u cores (std::thread::hardware_concurrency); devices in a separate process; "
      "fleet rounds on %d worker threads; gNMI sample interval %lld ms.\n\n",
      std::thread::hardware_concurrency(), o.workers, static_cast<long long>(o.interval.count()));
  std::printf(
      "| transport | switches | requests/poll | round trips/poll | response bytes/poll | poll p50 | poll p95 | "
      "round p50 (all switches) | gateway CPU/poll | gateway CPU/round | first poll |\n");
  std::printf("|---|---:|---|---:|---:|---:|---:|---:|---:|---:|---|\n");
  for (const Row& r : rows) {
    std::printf("| %s | %zu | %s | %s | %s | %s | %s | %s | %s | %s | %s |\n", r.transport.c_str(), r.switches,
                r.requests.c_str(), r.round_trips.c_str(), r.bytes.c_str(), r.poll_p50.c_str(), r.poll_p95.c_str(),
                r.round_p50.c_str(), r.cpu_per_poll.c_str(), r.cpu_per_round.c_str(), r.first.c_str());
  }
  for (const Row& r : rows) {
    if (!r.note.empty()) std::printf("\n%s, %zu switch(es): %s", r.transport.c_str(), r.switches, r.note.c_str());
  }
  std::printf("\n");
}

int usage() {
  std::fprintf(stderr,
               "usage: rdmagw_nexus_transport_bench [--fleet N] [--workers W] [--polls P] [--rounds R]\n"
               "         [--gnmi-intervals I]\n"
               "  Polls 1 and N (default 50) simulated Nexus leaves over NX-API, SSH (needs root: sshd)\n"
               "  and gNMI; prints one Markdown table. About 2-4 minutes.\n");
  return 2;
}

}  // namespace
}  // namespace rdmagw::bench

int main(int argc, char** argv) {
  using namespace rdmagw;
  using namespace rdmagw::bench;
  Options o;
  for (int i = 1; i < argc; ++i) {
    const std::string a = argv[i];
    if (i + 1 >= argc) return usage();
    const int v = std::atoi(argv[++i]);
    if (a == "--fleet")
      o.fleet = v;
    else if (a == "--workers")
      o.workers = v;
    else if (a == "--polls")
      o.polls_one = v;
    else if (a == "--rounds")
      o.rounds_fleet = v;
    else if (a == "--gnmi-intervals")
      o.gnmi_intervals = v;
    else
      return usage();
    if (v < 1) return usage();
  }
  setLogLevel(LogLevel::kError);
  const std::string password = "nexus-bench-" + std::to_string(getpid());
  setenv(kPasswordEnv, password.c_str(), 1);
  // Fork before this process starts any thread (gRPC, libcurl, workers).
  NexusDeviceProcess devices;
  if (Status st = devices.start(o.fleet, o.interval, password); !st.isOk()) {
    std::fprintf(stderr, "rdmagw_nexus_transport_bench: %s\n", st.message().c_str());
    return 1;
  }
  const NexusDeviceEndpoints& ep = devices.endpoints();
  std::vector<Row> rows;
  for (size_t n : {size_t{1}, static_cast<size_t>(o.fleet)}) {
    std::fprintf(stderr, "%zu switch(es): NX-API...\n", n);
    rows.push_back(runNxapi(ep, n, o));
    if (ep.ssh_skip.empty()) {
      std::fprintf(stderr, "%zu switch(es): SSH...\n", n);
      rows.push_back(runSsh(ep, n, o));
    } else {
      Row skipped;
      skipped.transport = "SSH";
      skipped.switches = n;
      skipped.requests = "skipped";
      skipped.note = "skipped: " + ep.ssh_skip;
      rows.push_back(skipped);
    }
    std::fprintf(stderr, "%zu switch(es): gNMI...\n", n);
    rows.push_back(runGnmi(devices, n, o));
  }
  devices.stop();
  printTable(rows, o);
  return 0;
}
