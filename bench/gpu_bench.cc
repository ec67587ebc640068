// What the GPU collector costs per host, on the simulator's boxes (no GPU
// is needed: the PCI trees are written as sysfs, NVML is the fake
// libnvidia-ml.so.1 of the tests, nvidia-smi their fake script).
//
//   BM_GpuTopologyRead/0 and /1   readHostTopology on pixBox8 (8 GPUs, 8 NICs,
//                                 a PCIe switch each) and nodeBox4 (4 + 4, no
//                                 switch): the local sysfs read, done once
//                                 per topology_interval (5 min by default)
//   BM_GpuPciDumpParse            parsePciDump of pixBox8's one-round-trip
//                                 dump text: the gateway's side of a remote
//                                 topology read
//   BM_GpuPciDumpShell            the dump command itself, run by /bin/sh
//                                 here: what the remote host spends
//   BM_GpuPciDumpOverSsh          the command through the SSH transport to a
//                                 real sshd on 127.0.0.1 (reused session),
//                                 then parsed: the whole round trip
//   BM_GpuPoll/0, /1 and /2       GpuSource::poll of pixBox8 with metrics from
//                                 NVML (8 GPUs, every field), from nvidia-smi
//                                 (one fork per poll) and none (tree only)
//
// The tree is read at the first poll and cached (topology_interval), so
// BM_GpuPoll is a steady-state poll. The fake NVML re-reads its answer file
// at each device count: a real driver's poll has no such file read, and has
// ioctls the fake does not.

#include <benchmark/benchmark.h>
#include <stdlib.h>
#include <unistd.h>

#include <chrono>
#include <filesystem>
#include <fstream>
#include <memory>
#include <string>
#include <vector>

#include "sim/gpu/pci_host.h"
#include "sim/sshd_launcher.h"
#include "southbound/gpu/gpu_bus_id.h"
#include "southbound/gpu/gpu_source.h"
#include "southbound/gpu/host_topology.h"
#include "southbound/gpu/pci_dump.h"
#include "southbound/rdma/local_tool.h"
#include "southbound/ssh/concurrency_limiter.h"
#include "southbound/ssh/ssh_connection.h"

namespace rdmagw::bench {
namespace {

namespace fs = std::filesystem;
namespace gpu = southbound::gpu;

constexpr size_t kGpus = 8;

// A simulated host written under a temp dir, removed at the end.
class Box {
 public:
  explicit Box(const sim::SimPciHost& host) {
    dir_ = (fs::temp_directory_path() / "rdmagw-gpu-bench-XXXXXX").string();
    if (mkdtemp(dir_.data()) == nullptr) {
      error_ = "mkdtemp failed";
      dir_.clear();
      return;
    }
    if (Status s = sim::writePciHost(host, dir_); !s.isOk()) error_ = s.message();
  }
  ~Box() {
    std::error_code ec;
    if (!dir_.empty()) fs::remove_all(dir_, ec);
  }
  Box(const Box&) = delete;
  Box& operator=(const Box&) = delete;

  const std::string& error() const { return error_; }
  std::string sys() const { return dir_ + "/sys"; }
  std::string proc() const { return dir_ + "/proc"; }
  std::string file(const std::string& name) const { return dir_ + "/" + name; }

 private:
  std::string dir_, error_;
};

Result<std::string> runShell(const std::string& command, const std::string& what) {
  return southbound::rdma::runLocalTool({"/bin/sh", "-c", command}, what);
}

void BM_GpuTopologyRead(benchmark::State& state) {
  Box box(state.range(0) == 0 ? sim::pixBox8() : sim::nodeBox4());
  if (!box.error().empty()) return state.SkipWithError(box.error().c_str());
  gpu::HostTopologyOptions options;
  options.sys_root = box.sys();
  options.proc_root = box.proc();
  size_t gpus = 0, nics = 0, functions = 0;
  for (auto _ : state) {
    Result<gpu::HostTopology> topology = gpu::readHostTopology(options);
    if (!topology.isOk()) return state.SkipWithError(topology.status().message().c_str());
    gpus = topology->topology.gpus.size();
    nics = topology->topology.nics.size();
    functions = topology->tree.devices.size();
    benchmark::DoNotOptimize(topology->topology.cells.data());
  }
  state.SetLabel(state.range(0) == 0 ? "pixBox8" : "nodeBox4");
  state.counters["gpus"] = double(gpus);
  state.counters["nics"] = double(nics);
  state.counters["functions"] = double(functions);
}
BENCHMARK(BM_GpuTopologyRead)->Arg(0)->Arg(1)->Unit(benchmark::kMicrosecond)->UseRealTime();

void BM_GpuPciDumpParse(benchmark::State& state) {
  Box box(sim::pixBox8());
  if (!box.error().empty()) return state.SkipWithError(box.error().c_str());
  Result<std::string> text = runShell(gpu::pciDumpCommand(box.sys(), box.proc()), "pci dump");
  if (!text.isOk()) return state.SkipWithError(text.status().message().c_str());
  size_t functions = 0;
  for (auto _ : state) {
    Result<gpu::PciDump> dump = gpu::parsePciDump(*text);
    if (!dump.isOk()) return state.SkipWithError(dump.status().message().c_str());
    functions = dump->tree.devices.size();
    benchmark::DoNotOptimize(dump->tree.devices.data());
  }
  state.counters["dump_bytes"] = double(text->size());
  state.counters["functions"] = double(functions);
}
BENCHMARK(BM_GpuPciDumpParse)->Unit(benchmark::kMicrosecond)->UseRealTime();

void BM_GpuPciDumpShell(benchmark::State& state) {
  Box box(sim::pixBox8());
  if (!box.error().empty()) return state.SkipWithError(box.error().c_str());
  const std::string command = gpu::pciDumpCommand(box.sys(), box.proc());
  size_t bytes = 0;
  for (auto _ : state) {
    Result<std::string> text = runShell(command, "pci dump");
    if (!text.isOk()) return state.SkipWithError(text.status().message().c_str());
    bytes = text->size();
  }
  state.counters["dump_bytes"] = double(bytes);
}
BENCHMARK(BM_GpuPciDumpShell)->Unit(benchmark::kMillisecond)->UseRealTime();

void BM_GpuPciDumpOverSsh(benchmark::State& state) {
  if (geteuid() != 0) return state.SkipWithError("needs root (sshd): SSH round trip not measured");
  Box box(sim::pixBox8());
  if (!box.error().empty()) return state.SkipWithError(box.error().c_str());
  sim::SshdLauncher sshd;
  if (Status s = sshd.start(); !s.isOk()) return state.SkipWithError(("sshd: " + s.message()).c_str());
  // The host runs what the gateway sends, as a login shell would.
  Result<sim::ClientKey> key = sshd.addDevice("gpuhost", "exec /bin/sh -c \"$SSH_ORIGINAL_COMMAND\"");
  if (!key.isOk()) return state.SkipWithError(key.status().message().c_str());
  const std::string known_hosts = sshd.dir() + "/bench_known_hosts";
  std::ofstream(known_hosts) << sshd.knownHostsLine() << "\n";
  southbound::ssh::SshConfig config;
  config.host = "127.0.0.1";
  config.port = sshd.port();
  config.username = "root";
  config.key_file = key->private_key_file;
  config.known_hosts_file = known_hosts;
  southbound::ssh::ConcurrencyLimiter limiter(1);
  southbound::ssh::ConnectionOptions options;
  options.limiter = &limiter;
  southbound::ssh::SshConnection connection(config, options);
  if (!connection.execute("true").isOk()) return state.SkipWithError("first command (connect + auth) failed");
  const std::string command = gpu::pciDumpCommand(box.sys(), box.proc());
  size_t bytes = 0, functions = 0;
  for (auto _ : state) {
    Result<southbound::ssh::CommandOutput> out = connection.execute(command);
    if (!out.isOk()) return state.SkipWithError(out.status().message().c_str());
    Result<gpu::PciDump> dump = gpu::parsePciDump(out->text);
    if (!dump.isOk()) return state.SkipWithError(dump.status().message().c_str());
    bytes = out->text.size();
    functions = dump->tree.devices.size();
  }
  state.counters["dump_bytes"] = double(bytes);
  state.counters["functions"] = double(functions);
  state.counters["connects"] = double(connection.stats().connects);
}
BENCHMARK(BM_GpuPciDumpOverSsh)->Unit(benchmark::kMillisecond)->UseRealTime();

// Every field the fake answers, for the 8 GPUs at pixBox8's addresses.
std::string nvmlConfig(const std::vector<std::string>& bus_ids) {
  std::string c = "count=" + std::to_string(bus_ids.size()) + "\n";
  for (size_t i = 0; i < bus_ids.size(); ++i) {
    const std::string g = "gpu." + std::to_string(i) + ".";
    c += g + "index=" + std::to_string(i) + "\n";
    c += g + "uuid=GPU-00000000-0000-4000-8000-00000000000" + std::to_string(i) + "\n";
    c += g + "name=NVIDIA H100 80GB HBM3\n";
    c += g + "bus_id=" + bus_ids[i] + "\n";
    c += g + "temperature=" + std::to_string(50 + i) + "\n";
    c += g + "util_gpu=97\n" + g + "util_memory=40\n";
    c += g + "memory_total=85520809984\n" + g + "memory_used=20780679168\n";
    c += g + "power=631950\n" + g + "power_limit=700000\n";
    c += g + "pcie_tx_kib=1200\n" + g + "pcie_rx_kib=3400\n";
    for (const char* kind : {"corrected", "uncorrected"}) {
      for (const char* counter : {"volatile", "aggregate"}) c += g + "ecc." + kind + "." + counter + "=0\n";
    }
    c += g + "retired_sbe=0\n" + g + "retired_dbe=0\n" + g + "retired_pending=0\n";
    c += g + "remapped_correctable=0\n" + g + "remapped_uncorrectable=0\n";
    c += g + "remapped_pending=0\n" + g + "remapped_failure=0\n";
    c += g + "link_gen=5\n" + g + "link_gen_max=5\n" + g + "link_width=16\n" + g + "link_width_max=16\n";
    c += g + "mig=0\n";
  }
  return c;
}

// The same GPUs as nvidia-smi's CSV rows (the field list the gateway sends).
std::string smiCsv(const std::vector<std::string>& bus_ids) {
  std::string csv;
  for (size_t i = 0; i < bus_ids.size(); ++i) {
    csv += std::to_string(i) + ", GPU-00000000-0000-4000-8000-00000000000" + std::to_string(i) + ", " + bus_ids[i] +
           ", " + std::to_string(50 + i) +
           ", 97, 40, 19818, 81559, 631.95, 700.00, 0, 0, 0, 0, 0, 0, No, 0, 0, No, No, 5, 5, 16, 16, Disabled, "
           "NVIDIA H100 80GB HBM3\n";
  }
  return csv;
}

void BM_GpuPoll(benchmark::State& state) {
  Box box(sim::pixBox8());
  if (!box.error().empty()) return state.SkipWithError(box.error().c_str());
  gpu::HostTopologyOptions topology_options;
  topology_options.sys_root = box.sys();
  topology_options.proc_root = box.proc();
  Result<gpu::HostTopology> topology = gpu::readHostTopology(topology_options);
  if (!topology.isOk()) return state.SkipWithError(topology.status().message().c_str());
  std::vector<std::string> bus_ids;
  for (const gpu::TopologyDevice& device : topology->topology.gpus) {
    bus_ids.push_back(gpu::nvmlBusIdFromSysfs(device.address).value_or(device.address));
  }
  if (bus_ids.size() != kGpus) return state.SkipWithError("pixBox8 has not 8 GPUs");
  std::ofstream(box.file("nvml.conf")) << nvmlConfig(bus_ids);
  std::ofstream(box.file("smi.csv")) << smiCsv(bus_ids);
  ::setenv("FAKE_NVML_CONFIG", box.file("nvml.conf").c_str(), 1);
  ::setenv("FAKE_NVIDIA_SMI_OUTPUT", box.file("smi.csv").c_str(), 1);

  static constexpr gpu::GpuMetricsMode kModes[] = {gpu::GpuMetricsMode::kNvml, gpu::GpuMetricsMode::kNvidiaSmi,
                                                   gpu::GpuMetricsMode::kNone};
  const gpu::GpuMetricsMode mode = kModes[state.range(0)];
  gpu::GpuConfig config;
  config.enabled = true;
  config.metrics = mode;
  config.nvml_library = FAKE_NVML_LIBRARY;
  config.nvidia_smi = std::string(RDMAGW_SOURCE_DIR) + "/tests/southbound/gpu/fake_nvidia_smi.sh";
  config.proc_root = box.proc();
  gpu::GpuSource source(nullptr, config, box.sys(),
                        [](const std::string& command) { return runShell(command, "nvidia-smi"); });
  {
    PollBatch first;  // reads the tree (cached for topology_interval) and loads NVML
    if (Status s = source.poll(first); !s.isOk()) return state.SkipWithError(s.message().c_str());
    if (!first.errors.empty()) return state.SkipWithError(first.errors.front().c_str());
  }
  size_t updates = 0, errors = 0;
  const auto t0 = std::chrono::steady_clock::now();
  for (auto _ : state) {
    PollBatch batch;
    benchmark::DoNotOptimize(source.poll(batch));
    updates = batch.updates.size();
    errors += batch.errors.size();
  }
  const double us = std::chrono::duration<double, std::micro>(std::chrono::steady_clock::now() - t0).count();
  ::unsetenv("FAKE_NVML_CONFIG");
  ::unsetenv("FAKE_NVIDIA_SMI_OUTPUT");
  state.SetLabel(std::string(gpu::gpuMetricsModeName(mode)));
  state.counters["gpus"] = double(kGpus);
  state.counters["updates"] = double(updates);
  state.counters["errors"] = double(errors);
  // A plain number: an inverted rate counter would print microseconds with a seconds suffix.
  state.counters["us_per_gpu"] = us / double(state.iterations()) / double(kGpus);
}
BENCHMARK(BM_GpuPoll)->Arg(0)->Arg(1)->Arg(2)->Unit(benchmark::kMicrosecond)->UseRealTime();

}  // namespace
}  // namespace rdmagw::bench
