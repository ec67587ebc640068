// Prometheus exposition of 100k and 1M series: our direct writer against
// prometheus-cpp's stock TextSerializer on the same data.

#include <benchmark/benchmark.h>
#include <prometheus/metric_family.h>
#include <prometheus/text_serializer.h>

#include <chrono>
#include <ctime>

#include "bench/bench_data.h"
#include "northbound/prometheus/exposition.h"
#include "northbound/prometheus/gzip_body.h"

namespace rdmagw::bench {
namespace {

// This thread's CPU time: on a shared machine the wall clock of a single
// cold scrape says more about the neighbours than about the scrape.
double threadCpuMs() {
  timespec ts{};
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
  return double(ts.tv_sec) * 1e3 + double(ts.tv_nsec) / 1e6;
}

void BM_ExpositionDirect(benchmark::State& state) {
  Store store;
  fillStore(store, size_t(state.range(0)));
  northbound::prometheus::ExpositionWriter writer;
  // As the server does: one writer whose pooled buckets are reused across
  // scrapes, so the timed scrapes are the steady state an operator sees every
  // interval; the exposition is its pieces (the server writes them as they
  // are). The first scrape (no buffers yet: page faults, growth) is reported
  // apart as cold_ms.
  northbound::prometheus::Exposition text;
  const auto cold_start = std::chrono::steady_clock::now();
  const double cold_cpu_start = threadCpuMs();
  writer.build(store, &text);
  const double cold_cpu_ms = threadCpuMs() - cold_cpu_start;
  const double cold_ms =
      std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - cold_start).count();
  size_t bytes = 0;
  for (auto _ : state) {
    writer.build(store, &text);
    bytes = text.size();
    benchmark::DoNotOptimize(text.pieces().data());
  }
  state.counters["series"] = double(store.seriesCount());
  state.counters["bytes"] = double(bytes);
  state.counters["cold_ms"] = cold_ms;
  state.counters["cold_cpu_ms"] = cold_cpu_ms;
  state.SetItemsProcessed(state.iterations() * int64_t(store.seriesCount()));
}
BENCHMARK(BM_ExpositionDirect)->Arg(100000)->Arg(1000000)->Unit(benchmark::kMillisecond)->UseRealTime();

// What one gzip scrape costs when built on demand, and what one refresh of a
// prebuilt exposition costs its thread (northbound.prometheus.refresh_period):
// the steady build plus its gzip. cpu_ms is the thread's own CPU per round.
void BM_ExpositionBuildAndGzip(benchmark::State& state) {
  Store store;
  fillStore(store, size_t(state.range(0)));
  northbound::prometheus::ExpositionWriter writer;
  northbound::prometheus::Exposition text;
  writer.build(store, &text);  // warm the pooled buckets, as a running server has them
  size_t gz_bytes = 0;
  const double cpu_start = threadCpuMs();
  for (auto _ : state) {
    writer.build(store, &text);
    Result<std::string> gz = northbound::prometheus::gzipCompress(text.pieces());
    if (!gz.isOk()) {
      state.SkipWithError(gz.status().message().c_str());
      return;
    }
    gz_bytes = gz->size();
  }
  state.counters["cpu_ms"] = (threadCpuMs() - cpu_start) / double(state.iterations());
  state.counters["bytes"] = double(text.size());
  state.counters["gzip_bytes"] = double(gz_bytes);
  state.SetItemsProcessed(state.iterations() * int64_t(store.seriesCount()));
}
BENCHMARK(BM_ExpositionBuildAndGzip)->Arg(100000)->Arg(1000000)->Unit(benchmark::kMillisecond)->UseRealTime();

// A plain (not gzip) scrape of a prebuilt exposition: the gzip inflated in
// slices as it is sent (here into a sink that only counts).
void BM_PrebuiltPlainInflate(benchmark::State& state) {
  Store store;
  fillStore(store, size_t(state.range(0)));
  northbound::prometheus::ExpositionWriter writer;
  northbound::prometheus::Exposition text;
  writer.build(store, &text);
  Result<std::string> gz = northbound::prometheus::gzipCompress(text.pieces());
  if (!gz.isOk()) {
    state.SkipWithError(gz.status().message().c_str());
    return;
  }
  size_t out = 0;
  for (auto _ : state) {
    out = 0;
    Status st = northbound::prometheus::gunzipTo(*gz, [&out](std::string_view slice) {
      out += slice.size();
      return true;
    });
    if (!st.isOk()) {
      state.SkipWithError(st.message().c_str());
      return;
    }
  }
  state.counters["bytes"] = double(out);
  state.SetBytesProcessed(state.iterations() * int64_t(out));
}
BENCHMARK(BM_PrebuiltPlainInflate)->Arg(1000000)->Unit(benchmark::kMillisecond)->UseRealTime();

// The same series as prometheus-cpp MetricFamily objects, serialized by its
// stock TextSerializer (building the families is not timed).
void BM_ExpositionPrometheusCpp(benchmark::State& state) {
  Store store;
  fillStore(store, size_t(state.range(0)));
  std::map<std::string_view, prometheus::MetricFamily> by_name;
  store.forEach([&](const SeriesView& v) {
    if (v.schema == nullptr) return;
    prometheus::MetricFamily& f = by_name[v.schema->prom_name];
    f.name = std::string(v.schema->prom_name);
    f.help = std::string(v.schema->help);
    f.type = prometheus::MetricType::Counter;
    prometheus::ClientMetric m;
    m.label.push_back({"target", std::string(v.target)});
    auto names = SchemaTable::splitLabels(v.schema->labels);
    for (size_t i = 0; i < names.size() && i < v.label_values.size(); ++i) {
      m.label.push_back({std::string(names[i]), v.label_values[i]});
    }
    m.counter.value = double(std::get<uint64_t>(v.value));
    f.metric.push_back(std::move(m));
  });
  std::vector<prometheus::MetricFamily> families;
  for (auto& [name, f] : by_name) families.push_back(std::move(f));
  prometheus::TextSerializer serializer;
  size_t bytes = 0;
  for (auto _ : state) {
    std::string text = serializer.Serialize(families);
    bytes = text.size();
    benchmark::DoNotOptimize(text.data());
  }
  state.counters["bytes"] = double(bytes);
  state.SetItemsProcessed(state.iterations() * int64_t(store.seriesCount()));
}
BENCHMARK(BM_ExpositionPrometheusCpp)->Arg(100000)->Arg(1000000)->Unit(benchmark::kMillisecond)->UseRealTime()->Iterations(2);

}  // namespace
}  // namespace rdmagw::bench
