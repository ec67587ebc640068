// Prometheus exposition of 100k and 1M series: our direct writer against
// prometheus-cpp's stock TextSerializer on the same data.

#include <benchmark/benchmark.h>
#include <prometheus/metric_family.h>
#include <prometheus/text_serializer.h>

#include "bench/bench_data.h"
#include "northbound/prometheus/exposition.h"

namespace rdmagw::bench {
namespace {

void BM_ExpositionDirect(benchmark::State& state) {
  Store store;
  fillStore(store, size_t(state.range(0)));
  northbound::ExpositionWriter writer;
  // As the server does: one output buffer reused across scrapes.
  std::string text;
  size_t bytes = 0;
  for (auto _ : state) {
    writer.buildInto(store, &text);
    bytes = text.size();
    benchmark::DoNotOptimize(text.data());
  }
  state.counters["series"] = double(store.seriesCount());
  state.counters["bytes"] = double(bytes);
  state.SetItemsProcessed(state.iterations() * int64_t(store.seriesCount()));
}
BENCHMARK(BM_ExpositionDirect)->Arg(100000)->Arg(1000000)->Unit(benchmark::kMillisecond)->UseRealTime();

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
