#pragma once
// A host's GPUs beside its RDMA collector: each poll reads the host as
// before, then the GPUs' metrics (NVML, else nvidia-smi, as the config
// says) and, every topology_interval, the PCI tree, and writes the joined
// inventory (gpu_leaves.h).
//
// A host without the NVIDIA driver is a normal state, not an error: in auto
// mode a missing library or tool only leaves metrics-up at 0, and a tree
// without an NVIDIA GPU is not asked at all. A source that failed is tried
// again after retry_after, so such a host does not run nvidia-smi every
// poll.

#include <chrono>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "southbound/gpu/gpu_config.h"
#include "southbound/gpu/gpu_inventory.h"
#include "southbound/gpu/host_topology.h"
#include "southbound/gpu/nvidia_smi_source.h"
#include "southbound/gpu/nvml_source.h"
#include "southbound/poll_source.h"

namespace rdmagw::southbound::gpu {

class GpuSource : public PollSource {
 public:
  // `host` may be null (GPUs alone). `sysfs_root`: the collector's, used
  // when the config names none. `runner` runs nvidia-smi. `remote`: the
  // runner is an SSH session to the host, which then also reads its PCI
  // tree (one round trip, pci_dump.h) and is the only metrics source (NVML
  // is loaded here, not there); peer memory, IOMMU and ACS stay unknown.
  GpuSource(PollSourcePtr host, GpuConfig config, std::string sysfs_root, CommandRunner runner, bool remote = false);

  std::string_view transport() const override { return host_ ? host_->transport() : "sysfs"; }
  Status poll(PollBatch& batch) override;

  // What the metrics source is doing: "nvml: ready (...)", "nvidia-smi: ...".
  const std::string& metricsState() const { return metrics_state_; }

 private:
  using Clock = std::chrono::steady_clock;
  struct Attempt {
    std::optional<Clock::time_point> failed_at;
    bool due(Clock::time_point now, std::chrono::milliseconds retry_after) const {
      return !failed_at || now - *failed_at >= retry_after;
    }
  };

  void refreshTopology(Clock::time_point now, PollBatch& batch);
  Result<HostTopology> readTopology(const HostTopologyOptions& options);
  // The samples and their source ("nvml", "nvidia-smi"); nullopt when none answered.
  std::optional<std::vector<GpuSample>> readMetrics(Clock::time_point now, std::string& source, PollBatch& batch);
  std::optional<std::vector<GpuSample>> tryNvml(Clock::time_point now, PollBatch& batch);
  std::optional<std::vector<GpuSample>> tryNvidiaSmi(Clock::time_point now, PollBatch& batch);
  void failed(const std::string& stage, const std::string& message, bool counted, PollBatch& batch);
  bool treeHasNoGpu() const;
  // ACS redirect of each GPU's path to each NIC, read once per tree.
  void fillAcs(std::vector<GpuEntry>& gpus, PollBatch& batch);

  PollSourcePtr host_;
  GpuConfig config_;
  bool remote_ = false;
  CommandRunner runner_;  // the remote tree's dump, when remote_
  std::string sys_root_;
  NvmlSource nvml_;
  NvidiaSmiSource nvidia_smi_;
  std::optional<HostTopology> topology_;
  // Read with the tree: they change with a module load or a reboot.
  std::string peer_memory_ = "unknown", iommu_ = "unknown";
  std::map<std::pair<std::string, std::string>, std::string> acs_;  // (GPU, NIC) address -> on|off|unknown
  std::optional<Clock::time_point> topology_read_at_;
  Attempt nvml_attempt_, smi_attempt_;
  std::map<std::string, uint64_t> errors_;
  std::string metrics_state_ = "not polled yet";
};

}  // namespace rdmagw::southbound::gpu
