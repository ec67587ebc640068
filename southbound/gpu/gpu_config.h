#pragma once
// What a host's `gpu:` block says: where its GPU metrics come from and
// where its PCI tree is. The default reads NVML when the driver's library
// is there, nvidia-smi when only the tool is, and the PCI tree alone when
// neither: a host without a GPU driver still shows its GPUs and their
// distance to its NICs.

#include <chrono>
#include <string>

#include "models/status.h"

namespace rdmagw::southbound::gpu {

enum class GpuMetricsMode { kAuto, kNvml, kNvidiaSmi, kNone };

struct GpuConfig {
  bool enabled = false;
  GpuMetricsMode metrics = GpuMetricsMode::kAuto;
  // dlopen's name or a path (a driver installed outside the loader's path).
  std::string nvml_library = "libnvidia-ml.so.1";
  std::string nvidia_smi = "nvidia-smi";
  // The PCI tree's root ("/sys"), and /proc for the hypervisor flag: the
  // collector's sysfs root and /proc unless set (a simulated host keeps
  // both in its tree).
  std::string sysfs_root;
  std::string proc_root = "/proc";
  // An NCCL topology file (NCCL_TOPO_FILE): a VM's real GPU/NIC placement.
  std::string nccl_topology_file;
  // The tree is re-read this often (a hot-plugged or re-bound device); a
  // GPU set that changes re-reads it at once.
  std::chrono::milliseconds topology_interval{std::chrono::minutes(5)};
  // A metrics source that failed is tried again after this long, not at
  // every poll: a host without the driver would otherwise run nvidia-smi
  // (a fork) every poll only to hear that again.
  std::chrono::milliseconds retry_after{std::chrono::seconds(60)};

  // Relative paths, intervals under a second.
  Status validate() const;
  bool operator==(const GpuConfig&) const = default;
};

std::string_view gpuMetricsModeName(GpuMetricsMode mode);

}  // namespace rdmagw::southbound::gpu
