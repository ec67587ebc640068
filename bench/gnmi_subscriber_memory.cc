// What one gNMI subscriber costs the gateway's server, in memory: the
// server runs here over a store of --leaves leaves (bench/bench_data.h);
// the subscribers run in another process (rdmagw_scale_probe: K ON_CHANGE
// streams, of the whole tree by default), so this process's RSS growth is the server's
// part alone -- its sessions, gRPC/HTTP/2 buffers and the initial sync's
// queue (freed after the sync, but glibc keeps most of it: the growth
// measured is close to the high-water mark).
//
//   ./build-rel/bench/rdmagw_gnmi_subscriber_memory [--leaves N] [--subscribers K]
//                                                   [--connections shared|own] [--path P]
//
// --path (default "/", the whole tree) narrows every stream: a path the
// store does not hold gives a stream's bare cost.
//
// shared: all K streams on one HTTP/2 connection (a collector's several
// subscriptions to one device); own: a connection per stream. Prints one
// line: leaves, subscribers, RSS before/after and the growth per subscriber.
// Run each K in a fresh process (RSS does not go back down).

#include <signal.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <string>
#include <thread>
#include <vector>

#include "bench/bench_data.h"
#include "models/log.h"
#include "northbound/gnmi/gnmi_server.h"

extern char** environ;

namespace {

using Clock = std::chrono::steady_clock;

size_t rssBytes() {
  std::ifstream in("/proc/self/statm");
  size_t pages = 0, resident = 0;
  in >> pages >> resident;
  return resident * size_t(sysconf(_SC_PAGESIZE));
}

double mib(double bytes) { return bytes / (1024.0 * 1024.0); }

}  // namespace

int main(int argc, char** argv) {
  size_t leaves = 2000;
  int subscribers = 16;
  std::string connections = "own";
  std::string path = "/";
  for (int i = 1; i + 1 < argc; i += 2) {
    const std::string a = argv[i], v = argv[i + 1];
    if (a == "--leaves") leaves = size_t(std::atoll(v.c_str()));
    else if (a == "--subscribers") subscribers = std::atoi(v.c_str());
    else if (a == "--connections") connections = v;
    else if (a == "--path") path = v;
    else {
      std::fprintf(stderr, "usage: rdmagw_gnmi_subscriber_memory [--leaves N] [--subscribers K] [--connections shared|own] [--path P]\n");
      return 2;
    }
  }
  if (leaves == 0 || subscribers <= 0 || (connections != "shared" && connections != "own")) {
    std::fprintf(stderr, "rdmagw_gnmi_subscriber_memory: bad arguments\n");
    return 2;
  }
  rdmagw::setLogLevel(rdmagw::LogLevel::kWarn);
  rdmagw::Store store;
  rdmagw::bench::fillStore(store, leaves);
  rdmagw::northbound::gnmi::GnmiServerConfig c;
  c.listen = "127.0.0.1:0";
  c.insecure = true;
  c.max_subscriptions = size_t(subscribers) + 1;
  c.max_subscriptions_per_client = size_t(subscribers) + 1;
  rdmagw::northbound::gnmi::GnmiServer server(store, c);
  if (rdmagw::Status st = server.start(); !st.isOk()) {
    std::fprintf(stderr, "rdmagw_gnmi_subscriber_memory: %s\n", st.message().c_str());
    return 1;
  }
  // The server's threads and gRPC's first allocations exist before the baseline.
  std::this_thread::sleep_for(std::chrono::milliseconds(500));
  const size_t before = rssBytes();

  const std::string address = server.address(), k = std::to_string(subscribers);
  std::vector<std::string> args = {RDMAGW_SCALE_PROBE, "--gnmi", address, "--subscribers", k,
                                   "--seconds", "600", "--path", path, "--connections", connections};
  std::vector<char*> argv_c;
  for (std::string& s : args) argv_c.push_back(s.data());
  argv_c.push_back(nullptr);
  pid_t probe = 0;
  if (posix_spawn(&probe, argv_c[0], nullptr, nullptr, argv_c.data(), environ) != 0) {
    std::fprintf(stderr, "rdmagw_gnmi_subscriber_memory: cannot run %s\n", RDMAGW_SCALE_PROBE);
    return 1;
  }
  // Every stream has its request in and its initial sync written: the
  // server's notification count stops moving.
  const auto deadline = Clock::now() + std::chrono::seconds(120);
  uint64_t sent = 0;
  int still = 0;
  bool ready = false;
  while (Clock::now() < deadline) {
    std::this_thread::sleep_for(std::chrono::milliseconds(100));
    const uint64_t now_sent = server.stats().notifications_sent.load();
    const bool all_in = server.stats().subscribers_stream.load() == subscribers;
    still = (all_in && now_sent == sent && server.queuedLeaves() == 0) ? still + 1 : 0;
    sent = now_sent;
    if (still >= 10) {
      ready = true;
      break;
    }
  }
  const size_t after = rssBytes();
  kill(probe, SIGKILL);
  waitpid(probe, nullptr, 0);
  if (!ready) {
    std::fprintf(stderr, "rdmagw_gnmi_subscriber_memory: %lld of %d streams synced within 120 s\n",
                 (long long)server.stats().subscribers_stream.load(), subscribers);
    return 1;
  }
  std::printf("leaves=%zu path=%s subscribers=%d connections=%s notifications=%llu rss_before_mib=%.1f rss_after_mib=%.1f "
              "per_subscriber_kib=%.0f\n",
              leaves, path.c_str(), subscribers, connections.c_str(), (unsigned long long)sent, mib(double(before)),
              mib(double(after)), (double(after) - double(before)) / subscribers / 1024.0);
  server.stop();
  return 0;
}
