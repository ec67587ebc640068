// Store ingest throughput (one writer thread) and memory per stored series.

#include <benchmark/benchmark.h>
#include <malloc.h>

#include "bench/bench_data.h"

namespace rdmagw::bench {
namespace {

// Steady state: every update hits an existing series (the common case once a
// target has been polled once).
void BM_StoreIngestExisting(benchmark::State& state) {
  Store store;
  // 1000 distinct paths: 8 devices x 125 ports.
  std::vector<Update> batch;
  for (int i = 0; i < 1000; ++i) {
    batch.push_back(Update{"/rdma/devices/device[name=mlx5_" + std::to_string(i % 8) + "]/ports/port[port-num=" +
                               std::to_string(i / 8) + "]/state/hw-counters/np-cnp-sent",
                           uint64_t(i), 1, {}});
  }
  store.apply("host", batch);
  uint64_t v = 1000;
  for (auto _ : state) {
    for (auto& u : batch) u.value = ++v;
    benchmark::DoNotOptimize(store.apply("host", batch));
  }
  state.SetItemsProcessed(state.iterations() * int64_t(batch.size()));
}
BENCHMARK(BM_StoreIngestExisting);

// First sight of each series: path parse, schema lookup, label binding.
void BM_StoreIngestNewSeries(benchmark::State& state) {
  for (auto _ : state) {
    state.PauseTiming();
    Store store;
    state.ResumeTiming();
    fillStore(store, 10000);
    benchmark::DoNotOptimize(store.seriesCount());
  }
  state.SetItemsProcessed(state.iterations() * 10000);
}
BENCHMARK(BM_StoreIngestNewSeries)->Unit(benchmark::kMillisecond);

void BM_StoreMemoryPerSeries(benchmark::State& state) {
  const size_t n = size_t(state.range(0));
  double per_series = 0;
  for (auto _ : state) {
    malloc_trim(0);
    size_t before = mallinfo2().uordblks;
    auto store = std::make_unique<Store>();
    fillStore(*store, n);
    size_t after = mallinfo2().uordblks;
    per_series = double(after - before) / double(n);
    benchmark::DoNotOptimize(store->seriesCount());
  }
  state.counters["bytes_per_series"] = per_series;
}
BENCHMARK(BM_StoreMemoryPerSeries)->Arg(100000)->Iterations(1)->Unit(benchmark::kMillisecond);

}  // namespace
}  // namespace rdmagw::bench
