// Parse throughput (MB/s) of every southbound parser on a recorded output,
// through the same registry `rdmagw parse` uses. Inputs are the fixtures as
// recorded (1 KiB to 400 KiB), so small ones include per-call overhead.

#include <benchmark/benchmark.h>

#include "common/file_text.h"
#include "gateway/runtime/registry.h"

namespace rdmagw::bench {
namespace {

struct Case {
  const char* format;
  const char* fixture;  // under tests/fixtures/
};

const Case kCases[] = {
    {"sysfs-dump", "rdma/sysfs_infiniband_mlx5_procfs_fixture.txt"},
    {"ethtool-s", "rdma/ethtool_S_mlx5_core_cx4lx_ethq.txt"},
    {"nxos-pfc", "nxos/nxos_n5k_show_interface_priority-flow-control__oswalt_blog.txt"},
    {"nxos-queuing", "nxos/nxos_n5k_show_queuing_interface_legacy__oswalt_blog.txt"},
    {"nxos-queuing-json", "nxos/SYNTHETIC_nxos_show_queuing_interface_json__built_from_schema.json"},
    {"nxos-interface", "nxos/nxos_n93180_7.0.3.I7.2_show_interface__napalm.txt"},
    {"nxos-interface-json", "nxos/nxos_n9000_show_interface_json__napalm_N9000.json"},
    {"nxos-interface-counters", "nxos/nxos_show_interface_counters__genie_golden1.txt"},
    {"nxos-interface-counters-errors", "nxos/nxos_show_interface_counters_errors__genie_golden.txt"},
    {"esxi-nic-stats", "esxi/esxi_esxcli_network_nic_stats_get_vmnic2__broadcom_kb341594.txt"},
    {"esxi-vsish-stats", "esxi/SYNTHETIC_nmlx5_vsish_pNics_stats.txt"},
    {"esxi-nic-list", "esxi/SYNTHETIC_esxcli_network_nic_list.txt"},
};

std::string readFixture(const std::string& rel) {
  return common::readFileText(std::string(RDMAGW_SOURCE_DIR) + "/tests/fixtures/" + rel).text;
}

void BM_Parse(benchmark::State& state, const Case& c) {
  const gateway::ParserEntry* parser = gateway::findParser(c.format);
  const std::string text = readFixture(c.fixture);
  if (parser == nullptr || text.empty()) {
    state.SkipWithError("format or fixture missing");
    return;
  }
  size_t updates = 0;
  for (auto _ : state) {
    PollBatch batch;
    benchmark::DoNotOptimize(parser->parse(text, 1, batch));
    updates = batch.updates.size();
  }
  state.SetBytesProcessed(state.iterations() * int64_t(text.size()));
  state.counters["input_bytes"] = double(text.size());
  state.counters["updates"] = double(updates);
}

const bool kRegistered = [] {
  for (const Case& c : kCases) {
    benchmark::RegisterBenchmark((std::string("BM_Parse/") + c.format).c_str(), BM_Parse, c);
  }
  return true;
}();

}  // namespace
}  // namespace rdmagw::bench
