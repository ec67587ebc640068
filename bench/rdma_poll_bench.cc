// Time to poll a 64-host x 2-device simulated sysfs tree with the real RDMA
// collector (sysfs + ethtool text), as the gateway does every interval.
// Arg: rdma.config_interval in seconds; 0 reads each netdev's DCB
// configuration (MTU, DCQCN knobs, dcb pfc/app) every poll, 60 (the default)
// only on the first, so it shows what the configuration reads cost.

#include <benchmark/benchmark.h>
#include <stdlib.h>

#include <filesystem>

#include "sim/fabric.h"
#include "sim/tree_writer.h"
#include "southbound/rdma/rdma_factory.h"

namespace rdmagw::bench {
namespace {

namespace fs = std::filesystem;

void BM_RdmaPoll64x2(benchmark::State& state) {
  std::string dir = (fs::temp_directory_path() / "rdmagw-bench-XXXXXX").string();
  if (mkdtemp(dir.data()) == nullptr) {
    state.SkipWithError("mkdtemp failed");
    return;
  }
  sim::FabricConfig cfg;
  cfg.hosts = 64;
  cfg.devices_per_host = 2;
  sim::Fabric fabric(cfg);
  fabric.step();
  if (!sim::writeTree(fabric, dir).isOk()) {
    state.SkipWithError("writeTree failed");
    return;
  }
  std::vector<southbound::PollSourcePtr> sources;
  for (const auto& entry : fs::directory_iterator(dir)) {
    southbound::rdma::RdmaConfig rc;
    rc.sysfs_root = (entry.path() / "sys").string();
    rc.ethtool = southbound::rdma::RdmaConfig::EthtoolMode::kText;
    rc.ethtool_dir = (entry.path() / "ethtool").string();
    rc.config_interval = std::chrono::seconds(state.range(0));
    auto src = southbound::rdma::createRdmaSource(rc);
    if (!src.isOk()) {
      state.SkipWithError(src.status().message().c_str());
      return;
    }
    sources.push_back(std::move(src).value());
  }
  size_t updates = 0;
  for (auto _ : state) {
    updates = 0;
    for (auto& s : sources) {
      PollBatch batch;
      benchmark::DoNotOptimize(s->poll(batch));
      updates += batch.updates.size();
    }
  }
  state.counters["hosts"] = double(sources.size());
  state.counters["updates_per_poll"] = double(updates);
  state.counters["us_per_host"] = benchmark::Counter(double(sources.size()) * 1e-6,
                                                     benchmark::Counter::kIsIterationInvariantRate |
                                                         benchmark::Counter::kInvert);
  fs::remove_all(dir);
}
BENCHMARK(BM_RdmaPoll64x2)->Arg(0)->Arg(60)->Unit(benchmark::kMillisecond)->UseRealTime();

}  // namespace
}  // namespace rdmagw::bench
