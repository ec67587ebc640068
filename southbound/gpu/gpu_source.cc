#include "southbound/gpu/gpu_source.h"

#include <fstream>
#include <sstream>

#include "southbound/gpu/gpu_bus_id.h"
#include "southbound/gpu/gpu_host_facts.h"
#include "southbound/gpu/gpu_inventory.h"
#include "southbound/gpu/gpu_leaves.h"
#include "southbound/gpu/pci_dump.h"

namespace rdmagw::southbound::gpu {

GpuSource::GpuSource(PollSourcePtr host, GpuConfig config, std::string sysfs_root, CommandRunner runner, bool remote)
    : host_(std::move(host)),
      config_(std::move(config)),
      remote_(remote),
      runner_(runner),
      sys_root_(config_.sysfs_root.empty() ? std::move(sysfs_root) : config_.sysfs_root),
      nvml_(config_.nvml_library),
      nvidia_smi_(std::move(runner), config_.nvidia_smi) {
  // NVML is a library of this host: over SSH the remote tool is the source.
  if (remote_ && config_.metrics != GpuMetricsMode::kNone) config_.metrics = GpuMetricsMode::kNvidiaSmi;
  for (const char* stage : {"nvml", "nvidia-smi", "topology"}) errors_[stage] = 0;
}

void GpuSource::failed(const std::string& stage, const std::string& message, bool counted, PollBatch& batch) {
  if (!counted) return;
  ++errors_[stage];
  batch.error("gpu " + stage + ": " + message);
}

Result<HostTopology> GpuSource::readTopology(const HostTopologyOptions& options) {
  if (!remote_) return readHostTopology(options);
  Result<std::string> dump = runner_(pciDumpCommand(sys_root_, config_.proc_root));
  if (!dump.isOk()) return dump.status();
  return hostTopologyFromDump(dump.value(), options.nccl_topology_xml);
}

void GpuSource::refreshTopology(Clock::time_point now, PollBatch& batch) {
  if (topology_read_at_ && now - *topology_read_at_ < config_.topology_interval) return;
  topology_read_at_ = now;
  HostTopologyOptions options;
  options.sys_root = sys_root_;
  options.proc_root = config_.proc_root;
  if (!config_.nccl_topology_file.empty()) {
    std::ifstream in(config_.nccl_topology_file);
    std::stringstream text;
    text << in.rdbuf();
    if (!in) {
      failed("topology", "cannot read the NCCL topology file " + config_.nccl_topology_file, true, batch);
      return;
    }
    options.nccl_topology_xml = text.str();
  }
  Result<HostTopology> read = readTopology(options);
  if (!read.isOk()) {
    failed("topology", read.status().message(), true, batch);
    return;
  }
  // A file the tree could not read is one line, not a failed tree.
  if (!read->tree.problems.empty()) failed("topology", read->tree.problems.front(), true, batch);
  topology_ = std::move(read).value();
  acs_.clear();
  if (remote_) return;  // read from the host's own files only
  peer_memory_ = readPeerMemory(sys_root_);
  iommu_ = readIommu(sys_root_, config_.proc_root);
}

void GpuSource::fillAcs(std::vector<GpuEntry>& gpus, PollBatch& batch) {
  // A topology file's addresses are NCCL's, not this host's sysfs: unknown;
  // a remote host's bridges are not read (binary configuration space).
  if (!topology_ || topology_->from_nccl_topology_file || remote_) return;
  for (GpuEntry& gpu : gpus) {
    const PciDevice* g = gpu.address.empty() ? nullptr : topology_->tree.find(gpu.address);
    for (GpuNicEntry& nic : gpu.nics) {
      const PciDevice* n = topology_->tree.find(nic.address);
      if (g == nullptr || n == nullptr) continue;
      auto [it, fresh] = acs_.try_emplace({gpu.address, nic.address}, "unknown");
      if (fresh) {
        std::string why;
        it->second = acsRedirectOnPath(sys_root_, *g, *n, &why);
        // Unknown for want of root is the state of a non-root gateway: said
        // once per tree in the leaf, not counted; a damaged list is an error.
        if (it->second == "unknown" && why.find("needs root") == std::string::npos) {
          failed("topology", "ACS of " + gpu.address + " to " + nic.address + ": " + why, true, batch);
        }
      }
      nic.acs_redirect = it->second;
    }
  }
}

bool GpuSource::treeHasNoGpu() const {
  return topology_ && topology_->topology.gpus.empty() && !topology_->virtualization.virtual_machine;
}

std::optional<std::vector<GpuSample>> GpuSource::tryNvml(Clock::time_point now, PollBatch& batch) {
  if (!nvml_attempt_.due(now, config_.retry_after)) return std::nullopt;
  Result<std::vector<GpuSample>> samples = nvml_.poll();
  metrics_state_ = "nvml: " + nvml_.state();
  if (samples.isOk()) {
    nvml_attempt_.failed_at.reset();
    for (const GpuSample& s : samples.value()) {
      if (s.read_error) failed("nvml", s.pci_bus_id.value_or("a GPU") + ": " + *s.read_error, true, batch);
    }
    return std::move(samples).value();
  }
  nvml_attempt_.failed_at = now;
  // Auto mode on a host without the driver: a state, shown by metrics-up.
  const bool absent = nvml_.stateCode() == NvmlState::kLibraryMissing;
  failed("nvml", nvml_.state(), !(absent && config_.metrics == GpuMetricsMode::kAuto), batch);
  return std::nullopt;
}

std::optional<std::vector<GpuSample>> GpuSource::tryNvidiaSmi(Clock::time_point now, PollBatch& batch) {
  if (!smi_attempt_.due(now, config_.retry_after)) return std::nullopt;
  Result<std::vector<GpuSample>> samples = nvidia_smi_.poll();
  if (samples.isOk()) {
    smi_attempt_.failed_at.reset();
    metrics_state_ = "nvidia-smi: ready (" + nvidia_smi_.command() + ")";
    for (const std::string& line : nvidia_smi_.lineErrors()) failed("nvidia-smi", line, true, batch);
    return std::move(samples).value();
  }
  smi_attempt_.failed_at = now;
  metrics_state_ = "nvidia-smi: " + samples.status().message();
  const bool absent = samples.status().code() == Status::Code::kNotFound;
  failed("nvidia-smi", samples.status().message(), !(absent && config_.metrics == GpuMetricsMode::kAuto), batch);
  return std::nullopt;
}

std::optional<std::vector<GpuSample>> GpuSource::readMetrics(Clock::time_point now, std::string& source,
                                                             PollBatch& batch) {
  switch (config_.metrics) {
    case GpuMetricsMode::kNone:
      metrics_state_ = "none: metrics off";
      return std::nullopt;
    case GpuMetricsMode::kNvml:
      source = "nvml";
      return tryNvml(now, batch);
    case GpuMetricsMode::kNvidiaSmi:
      source = "nvidia-smi";
      return tryNvidiaSmi(now, batch);
    case GpuMetricsMode::kAuto:
      break;
  }
  if (treeHasNoGpu()) {
    metrics_state_ = "none: no NVIDIA GPU on the PCI tree";
    return std::nullopt;
  }
  source = "nvml";
  if (std::optional<std::vector<GpuSample>> samples = tryNvml(now, batch)) return samples;
  source = "nvidia-smi";
  return tryNvidiaSmi(now, batch);
}

Status GpuSource::poll(PollBatch& batch) {
  Status host = host_ ? host_->poll(batch) : Status::ok();
  const Clock::time_point now = Clock::now();
  const TimestampNs ts = nowNs();
  refreshTopology(now, batch);
  std::string source;
  std::optional<std::vector<GpuSample>> samples = readMetrics(now, source, batch);
  // A GPU the tree does not have yet (hot-plugged, or the tree was read
  // before its driver bound): read the tree again now, at most once per
  // retry_after (an address sysfs never shows must not re-read it each poll).
  if (samples && topology_ && !topology_->from_nccl_topology_file && topology_read_at_ &&
      now - *topology_read_at_ >= config_.retry_after) {
    for (const GpuSample& s : *samples) {
      const std::optional<std::string> address = s.pci_bus_id ? sysfsBusIdFromNvml(*s.pci_bus_id) : std::nullopt;
      if (address && topology_->tree.find(*address) == nullptr) {
        topology_read_at_.reset();
        refreshTopology(now, batch);
        break;
      }
    }
  }
  const std::vector<GpuSample> none;
  std::vector<GpuEntry> gpus =
      buildGpuInventory(topology_ ? &topology_->topology : nullptr, samples ? *samples : none, source);
  fillAcs(gpus, batch);
  GpuCollectionState state;
  state.peer_memory = peer_memory_;
  state.iommu = iommu_;
  state.metrics_up = samples.has_value();
  state.topology_virtual = topology_ && topology_->topology.distances_unknown;
  state.errors = errors_;
  writeGpuLeaves(gpus, state, ts, batch);
  return host;
}

}  // namespace rdmagw::southbound::gpu
