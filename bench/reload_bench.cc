// Config reloads of a running gateway of 1,000 polled targets: the time a
// reload takes when 1, 100 or all 1,000 targets changed (read, validate,
// diff, stop the changed ones, start them anew), and the process's RSS
// across 200 cycles that add and remove 100 targets (flat RSS: nothing is
// kept of a removed target). The targets read the simulator's sysfs trees
// (no root, no sshd needed). Run: ./build-rel/bench/rdmagw_reload_bench

#include <benchmark/benchmark.h>
#include <malloc.h>

#include <filesystem>
#include <fstream>
#include <memory>
#include <string>
#include <thread>

#include "gateway/config/config.h"
#include "gateway/runtime/pipeline.h"
#include "gateway/runtime/reloader.h"
#include "models/log.h"
#include "sim/sim_runner.h"

namespace rdmagw::bench {
namespace {

namespace fs = std::filesystem;
using gateway::GatewayConfig;
using gateway::Pipeline;
using gateway::Reloader;

// After malloc_trim: memory freed back to glibc's heap but kept by it is not
// what a leak looks like.
long rssKb() {
  malloc_trim(0);
  std::ifstream in("/proc/self/status");
  for (std::string line; std::getline(in, line);) {
    if (line.rfind("VmRSS:", 0) == 0) return std::stol(line.substr(6));
  }
  return -1;
}

// A gateway on a main file whose targets_dir holds targets.yaml.
class Bed {
 public:
  Bed() {
    char tmpl[] = "/tmp/rdmagw-reload-bench-XXXXXX";
    dir_ = mkdtemp(tmpl);
    fs::create_directories(dir_ + "/targets.d");
    sim::FabricConfig fc;
    fc.hosts = 4;
    fc.esxi_hosts = 0;
    sim_ = std::make_unique<sim::SimRunner>(fc, dir_ + "/sim", std::chrono::milliseconds(1000));
    (void)sim_->start();
    std::ofstream(dir_ + "/rdmagw.yaml") << "targets_dir: targets.d\nnorthbound:\n  prometheus: {listen: \"127.0.0.1:0\"}\n";
  }
  ~Bed() {
    reloader_.reset();
    if (pipeline_) pipeline_->stop();
    sim_->stop();
    fs::remove_all(dir_);
  }
  // `n` targets named t<first>..; `changed` of them (from the start) carry another label.
  void write(int first, int n, int changed, int generation) {
    std::ofstream out(dir_ + "/targets.d/targets.yaml");
    for (int i = first; i < first + n; ++i) {
      const std::string host = "host0" + std::to_string(1 + i % 4);
      out << "- name: t" << i << "\n  kind: rdma-host\n  interval: 60s\n  labels: {gen: \"" << (i - first < changed ? generation : 0)
          << "\"}\n  rdma: {sysfs_root: " << dir_ << "/sim/" << host << "/sys, ethtool: text, ethtool_dir: " << dir_
          << "/sim/" << host << "/ethtool, lldp: off}\n";
    }
  }
  void start() {
    Result<GatewayConfig> cfg = gateway::loadConfigFile(dir_ + "/rdmagw.yaml");
    if (!cfg.isOk()) std::abort();
    GatewayConfig loaded = cfg.value();
    pipeline_ = std::make_unique<Pipeline>(std::move(cfg).value());
    if (!pipeline_->start().isOk()) std::abort();
    gateway::ReloaderOptions o;
    o.watch_files = false;
    reloader_ = std::make_unique<Reloader>(*pipeline_, dir_ + "/rdmagw.yaml", std::move(loaded), o);
  }
  Reloader& reloader() { return *reloader_; }
  // Until every target has been polled once: a reload is timed on a
  // gateway at rest, not during the first polls of the targets it started.
  void settle() {
    for (;;) {
      size_t polled = 0, all = 0;
      for (const TargetStatus& t : pipeline_->store().targets()) {
        ++all;
        if (t.health.polls > 0) ++polled;
      }
      if (polled == all) return;
      std::this_thread::sleep_for(std::chrono::milliseconds(20));
    }
  }

 private:
  std::string dir_;
  std::unique_ptr<sim::SimRunner> sim_;
  std::unique_ptr<Pipeline> pipeline_;
  std::unique_ptr<Reloader> reloader_;
};

void BM_ReloadChangedOf1000(benchmark::State& state) {
  setLogLevel(LogLevel::kWarn);
  const int changed = int(state.range(0));
  Bed bed;
  bed.write(0, 1000, 0, 0);
  bed.start();
  int generation = 0;
  for (auto _ : state) {
    state.PauseTiming();
    bed.settle();
    bed.write(0, 1000, changed, ++generation);
    state.ResumeTiming();
    gateway::ReloadResult r = bed.reloader().reload("bench");
    if (!r.ok || int(r.changed) != changed) state.SkipWithError(r.summary().c_str());
  }
  state.counters["targets_changed"] = changed;
}
BENCHMARK(BM_ReloadChangedOf1000)->Arg(1)->Arg(100)->Arg(1000)->Iterations(5)->Unit(benchmark::kMillisecond)->UseRealTime();

// 200 cycles of adding 100 targets to 100 running ones and removing them.
void BM_ReloadAddRemoveCyclesRss(benchmark::State& state) {
  setLogLevel(LogLevel::kWarn);
  Bed bed;
  bed.write(0, 100, 0, 0);
  bed.start();
  long first = 0, mid = 0, last = 0;
  for (auto _ : state) {
    for (int cycle = 0; cycle < 200; ++cycle) {
      bed.write(0, 200, 0, 0);
      if (!bed.reloader().reload("bench add").ok) state.SkipWithError("add refused");
      bed.write(0, 100, 0, 0);
      if (!bed.reloader().reload("bench remove").ok) state.SkipWithError("remove refused");
      if (cycle == 0) first = rssKb();
      if (cycle == 99) mid = rssKb();
    }
    last = rssKb();
  }
  state.counters["rss_kB_after_1"] = double(first);
  state.counters["rss_kB_after_100"] = double(mid);
  state.counters["rss_kB_after_200"] = double(last);
}
BENCHMARK(BM_ReloadAddRemoveCyclesRss)->Iterations(1)->Unit(benchmark::kMillisecond)->UseRealTime();

}  // namespace
}  // namespace rdmagw::bench
