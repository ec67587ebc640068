#include "southbound/gpu/gpu_config.h"

namespace rdmagw::southbound::gpu {

Status GpuConfig::validate() const {
  if (!enabled) return Status::ok();
  for (const auto& [what, path] : {std::pair<const char*, const std::string*>{"sysfs_root", &sysfs_root},
                                   {"proc_root", &proc_root},
                                   {"nccl_topology_file", &nccl_topology_file}}) {
    if (!path->empty() && path->front() != '/') {
      return Status::invalidArgument(std::string("gpu.") + what + " must be an absolute path, not '" + *path + "'");
    }
  }
  if (proc_root.empty()) return Status::invalidArgument("gpu.proc_root must be an absolute path");
  if (nvml_library.empty()) return Status::invalidArgument("gpu.nvml_library is empty");
  if (nvidia_smi.empty()) return Status::invalidArgument("gpu.nvidia_smi is empty");
  if (topology_interval < std::chrono::seconds(1)) {
    return Status::invalidArgument("gpu.topology_interval must be at least 1s");
  }
  if (retry_after < std::chrono::seconds(1)) return Status::invalidArgument("gpu.retry_after must be at least 1s");
  return Status::ok();
}

std::string_view gpuMetricsModeName(GpuMetricsMode mode) {
  switch (mode) {
    case GpuMetricsMode::kAuto:
      return "auto";
    case GpuMetricsMode::kNvml:
      return "nvml";
    case GpuMetricsMode::kNvidiaSmi:
      return "nvidia-smi";
    case GpuMetricsMode::kNone:
      return "none";
  }
  return "?";
}

}  // namespace rdmagw::southbound::gpu
