// SNMP northbound figures (printed, never asserted):
//   BM_SnmpSnapshotRefresh      time to rebuild the served snapshot from a
//                               store of 100k and 1M series (the refresh
//                               period's cost) and the heap one snapshot
//                               holds, per object served
//   BM_SnmpBulkWalkDemoFabric   snmpbulkwalk of every device context of the
//                               demo fabric (RDMA hosts polled by the real
//                               collector, Nexus leaves and ESXi hosts parsed
//                               from the simulator's CLI output) through a real
//                               snmpd, max-repetitions 10 and 50: varbinds/s
//                               including a tool start per device, as an NMS
//                               walking device by device would see it
//   BM_SnmpBulkWalkLargeContext one context of ~10k objects: the subagent's
//                               raw throughput through snmpd (anchor: snmpd's
//                               own tables give ~68k varbinds/s at r=10), with
//                               the AgentX fast path on (/1) and off (/0);
//                               rdmagw_agentx_ceiling_bench gives the ceiling
// Run: ./build/bench/rdmagw_snmp_bench

#include <benchmark/benchmark.h>
#include <malloc.h>
#include <stdlib.h>

#include <chrono>
#include <filesystem>
#include <memory>
#include <thread>

#include "bench/bench_data.h"
#include "bench/bulkwalk.h"
#include "northbound/snmp/snapshot_builder.h"
#include "northbound/snmp/snmp_agent.h"
#include "sim/cli_catalog.h"
#include "sim/fabric.h"
#include "sim/snmpd_launcher.h"
#include "sim/tree_writer.h"
#include "southbound/rdma/rdma_factory.h"
#include "southbound/ssh/profiles/esxi_profile.h"
#include "southbound/ssh/profiles/nexus_profile.h"

namespace rdmagw::bench {
namespace {

namespace fs = std::filesystem;

// Heap bytes in use (glibc: the main arena plus mmapped blocks, where the
// big arrays of a snapshot land); the benchmark thread allocates in the
// main arena.
size_t heapInUse() {
  struct mallinfo2 m = mallinfo2();
  return m.uordblks + m.hblkhd;
}

void BM_SnmpSnapshotRefresh(benchmark::State& state) {
  Store store;
  fillStore(store, size_t(state.range(0)));
  northbound::snmp::IfIndexRegistry registry;
  northbound::snmp::SnapshotBuilder builder(store, registry, nowNs());
  (void)builder.build();  // the first build assigns every ifIndex; refreshes do not
  size_t cells = 0;
  for (auto _ : state) {
    northbound::snmp::MibSnapshotPtr snap = builder.build();
    cells = snap->cells;
    benchmark::DoNotOptimize(snap);
  }
  // What one snapshot in service costs: measured outside the timed loop.
  const size_t before = heapInUse();
  northbound::snmp::MibSnapshotPtr held = builder.build();
  const size_t bytes = heapInUse() - before;
  state.counters["series"] = double(store.seriesCount());
  state.counters["objects"] = double(cells);
  state.counters["snapshot_MB"] = double(bytes) / 1e6;
  state.counters["bytes_per_object"] = double(bytes) / double(std::max<size_t>(cells, 1));
}
BENCHMARK(BM_SnmpSnapshotRefresh)->Arg(100000)->Unit(benchmark::kMillisecond)->UseRealTime()->Iterations(5);
BENCHMARK(BM_SnmpSnapshotRefresh)->Arg(1000000)->Unit(benchmark::kMillisecond)->UseRealTime()->Iterations(2);

// Runs the parsers of `commands` on the simulator's rendered output.
void applyCli(Store& store, const std::string& target, const std::vector<sim::RenderedCommand>& rendered,
              const std::vector<southbound::ssh::CliCommand>& commands) {
  PollBatch batch;
  for (const southbound::ssh::CliCommand& c : commands) {
    for (const sim::RenderedCommand& r : rendered) {
      if (r.command == c.command && c.parse != nullptr) (void)c.parse(r.output, nowNs(), batch);
    }
  }
  store.apply(target, batch.updates);
}

// The demo fabric (hosts x devices, leaves, ESXi hosts) in a store.
Status fillDemoFabric(Store& store, const sim::FabricConfig& cfg, const std::string& dir,
                      std::vector<std::string>* targets) {
  sim::Fabric fabric(cfg);
  fabric.step();
  fabric.step();
  if (Status st = sim::writeTree(fabric, dir); !st.isOk()) return st;
  for (const auto& entry : fs::directory_iterator(dir)) {
    if (!fs::exists(entry.path() / "sys")) continue;
    southbound::rdma::RdmaConfig rc;
    rc.sysfs_root = (entry.path() / "sys").string();
    rc.ethtool = southbound::rdma::RdmaConfig::EthtoolMode::kText;
    rc.ethtool_dir = (entry.path() / "ethtool").string();
    auto src = southbound::rdma::createRdmaSource(rc);
    if (!src.isOk()) return src.status();
    PollBatch batch;
    (void)(*src)->poll(batch);
    store.apply(entry.path().filename().string(), batch.updates);
    targets->push_back(entry.path().filename().string());
  }
  for (const sim::Switch& sw : fabric.switches()) {
    applyCli(store, sw.name, sim::renderSwitch(fabric, sw), southbound::ssh::nexusCommands());
    targets->push_back(sw.name);
  }
  for (const sim::EsxiHost& host : fabric.esxiHosts()) {
    applyCli(store, host.name, sim::renderEsxi(fabric, host), southbound::ssh::esxiCommands());
    targets->push_back(host.name);
  }
  for (const std::string& t : *targets) {
    TargetHealth h;
    h.kind = "bench";
    h.up = true;
    store.setHealth(t, h);
  }
  return Status::ok();
}

// One snmpd + subagent for all walks (Net-SNMP initialises once per process).
struct WalkRig {
  Store store;
  std::string dir;
  std::unique_ptr<sim::SnmpdLauncher> snmpd;
  std::unique_ptr<northbound::snmp::SnmpAgent> agent;
  std::vector<std::string> demo_targets;
  std::string error;
  bool fast_path_on = true;

  WalkRig() {
    dir = (fs::temp_directory_path() / "rdmagw-snmp-bench-XXXXXX").string();
    if (mkdtemp(dir.data()) == nullptr) {
      error = "mkdtemp failed";
      return;
    }
    sim::FabricConfig cfg;  // the demo's defaults: 4 hosts x 2 devices, 1 leaf, 2 ESXi hosts
    cfg.hosts = 16;
    if (Status st = fillDemoFabric(store, cfg, dir + "/fabric", &demo_targets); !st.isOk()) {
      error = st.message();
      return;
    }
    // The large context: one target with 30k objects.
    std::vector<Update> big;
    for (int port = 1; port <= 96; ++port) {
      const std::string itf = "/interfaces/interface[name=Ethernet1/" + std::to_string(port) + "]";
      for (int p = 0; p < 8; ++p) {
        const std::string prio = itf + "/ethernet/pfc/priorities/priority[id=" + std::to_string(p) + "]/state/counters/";
        for (const char* c : {"in-pause-frames", "out-pause-frames", "in-pause-duration", "out-pause-duration",
                              "in-pause-transitions", "in-octets", "out-octets", "in-pkts", "out-pkts", "in-discards"}) {
          big.push_back(Update{prio + c, uint64_t(port * 1000 + p), nowNs(), {}});
        }
      }
      for (const char* c : {"in-octets", "out-octets", "in-unicast-pkts", "out-unicast-pkts", "in-errors"}) {
        big.push_back(Update{itf + "/state/counters/" + c, uint64_t(port), nowNs(), {}});
      }
    }
    store.apply("bigleaf", big);
    sim::SnmpdOptions opts;
    opts.contexts = demo_targets;
    opts.contexts.push_back("bigleaf");
    snmpd = std::make_unique<sim::SnmpdLauncher>(opts);
    if (Status st = snmpd->start(); !st.isOk()) {
      error = st.message();
      return;
    }
    if (Status st = startAgent(true); !st.isOk()) error = st.message();
  }

  // (Re)starts the subagent answering on the AgentX session (fast path) or
  // through Net-SNMP's agent; returns once bigleaf is served.
  Status startAgent(bool fast_path) {
    agent.reset();
    northbound::snmp::SnmpConfig sc;
    sc.agentx_socket = snmpd->agentxSocket();
    sc.state_dir = dir + "/state";
    sc.refresh_period = std::chrono::seconds(60);
    sc.agentx_fast_path = fast_path;
    agent = std::make_unique<northbound::snmp::SnmpAgent>(store, sc);
    if (Status st = agent->start(); !st.isOk()) return st;
    fast_path_on = fast_path;
    for (int i = 0; i < 120 && walk("bigleaf", 10, ".1.3.6.1.2.1.31.1.1.1.1") == 0; ++i) {
      std::this_thread::sleep_for(std::chrono::milliseconds(500));
    }
    return Status::ok();
  }
  ~WalkRig() {
    agent.reset();
    snmpd.reset();
    std::error_code ec;
    fs::remove_all(dir, ec);
  }

  // Varbinds returned by one snmpbulkwalk of `root` in `context`.
  size_t walk(const std::string& context, int repetitions, const std::string& root = ".1") {
    return bulkWalk(*snmpd, context, repetitions, root);
  }
};

WalkRig& rig() {
  static WalkRig r;  // one per process; its destructor stops the subagent and snmpd at exit
  return r;
}

void BM_SnmpBulkWalkDemoFabric(benchmark::State& state) {
  WalkRig& r = rig();
  if (!r.error.empty()) {
    state.SkipWithError(r.error.c_str());
    return;
  }
  size_t varbinds = 0;
  for (auto _ : state) {
    for (const std::string& t : r.demo_targets) varbinds += r.walk(t, int(state.range(0)));
  }
  state.counters["contexts"] = double(r.demo_targets.size());
  state.counters["varbinds_per_s"] = benchmark::Counter(double(varbinds), benchmark::Counter::kIsRate);
}
BENCHMARK(BM_SnmpBulkWalkDemoFabric)->Arg(10)->Arg(50)->Unit(benchmark::kMillisecond)->UseRealTime()->Iterations(3);

void BM_SnmpBulkWalkLargeContext(benchmark::State& state) {
  WalkRig& r = rig();
  if (!r.error.empty()) {
    state.SkipWithError(r.error.c_str());
    return;
  }
  const bool fast = state.range(1) != 0;
  if (r.fast_path_on != fast) {
    if (Status st = r.startAgent(fast); !st.isOk()) {
      state.SkipWithError(st.message().c_str());
      return;
    }
  }
  size_t varbinds = 0;
  const double cpu0 = processCpuSeconds();  // the subagent thread's CPU is in this process
  for (auto _ : state) varbinds += r.walk("bigleaf", int(state.range(0)));
  reportWalks(state, varbinds, processCpuSeconds() - cpu0);
}
// Second argument: 1 = answered on the AgentX session (the default), 0 =
// through Net-SNMP's internal agent (what every request cost before).
BENCHMARK(BM_SnmpBulkWalkLargeContext)
    ->ArgsProduct({{10, 50}, {1, 0}})
    ->Unit(benchmark::kMillisecond)
    ->UseRealTime()
    ->Iterations(3);

}  // namespace
}  // namespace rdmagw::bench
