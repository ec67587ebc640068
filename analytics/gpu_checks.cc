#include "analytics/gpu_checks.h"

#include <algorithm>
#include <limits>
#include <set>
#include <vector>

namespace rdmagw::analytics {
namespace {

constexpr uint64_t kPxbDistance = 2;      // NCCL_NET_GDR_LEVEL's default, PXB
constexpr uint64_t kActivePortState = 4;  // IB port state ACTIVE
constexpr uint64_t kUnderLoadPercent = 50;

const char* pathName(uint64_t distance) {
  static const char* const kNames[] = {"X", "PIX", "PXB", "PHB", "NODE", "SYS"};
  return distance < 6 ? kNames[distance] : "?";
}

// Up, or not known to be down: some port of the device is ACTIVE, or none
// of its ports' state is collected.
bool linkUp(const GpuInventory& gpus, const std::string& target, const std::string& device) {
  bool any = false;
  for (auto it = gpus.rdma_port_state.lower_bound({target, device, ""});
       it != gpus.rdma_port_state.end() && it->first.target == target && it->first.device == device; ++it) {
    any = true;
    if (it->second == kActivePortState) return true;
  }
  return !any;
}

std::string gpuName(const std::string& uuid, const GpuFacts& gpu) {
  return gpu.index ? "GPU" + std::to_string(*gpu.index) : uuid;
}

void checkHost(const std::string& target, const HostGpuFacts& host, CheckResults& results) {
  if (host.peer_memory && *host.peer_memory != "unknown") {
    const bool loaded = *host.peer_memory == "nvidia-peermem" || *host.peer_memory == "nv-peer-mem";
    results.judge(loaded, CheckStatus::kWarn, target, CheckGroup::kGpu, "peer-memory", "host",
                  "nvidia_peermem loaded (or a DMA-BUF capable driver stack)",
                  "no peer-memory module: GPUDirect RDMA only through DMA-BUF");
  }
  if (host.iommu && *host.iommu != "unknown") {
    results.judge(*host.iommu != "translated", CheckStatus::kWarn, target, CheckGroup::kGpu, "iommu", "host",
                  "IOMMU off or passthrough (iommu=pt)",
                  "IOMMU translating DMA: GPU-NIC peer traffic goes up through the root complex");
  }
}

void checkLink(const std::string& target, const std::string& name, const GpuFacts& gpu, CheckResults& results) {
  if (!gpu.utilization || *gpu.utilization < kUnderLoadPercent) return;
  if (!gpu.link_gen || !gpu.link_gen_max || !gpu.link_width || !gpu.link_width_max) return;
  const bool full = *gpu.link_gen >= *gpu.link_gen_max && *gpu.link_width >= *gpu.link_width_max;
  results.judge(full, CheckStatus::kWarn, target, CheckGroup::kGpu, "pcie-link", name,
                "gen " + std::to_string(*gpu.link_gen_max) + " x" + std::to_string(*gpu.link_width_max) + " under load",
                "gen " + std::to_string(*gpu.link_gen) + " x" + std::to_string(*gpu.link_width) + " at " +
                    std::to_string(*gpu.utilization) + " % utilization");
}

void checkGpu(const std::string& target, const HostGpuFacts& host, const std::string& uuid, const GpuFacts& gpu,
              const GpuInventory& gpus, CheckResults& results) {
  const std::string name = gpuName(uuid, gpu);
  checkLink(target, name, gpu, results);
  if (gpu.nics.empty()) return;
  if (host.topology_virtual.value_or(0) == 1) {
    results.warn(target, CheckGroup::kGpu, "gpudirect-rdma", name, "the GPU-NIC paths known",
                 "virtual machine: its PCI tree hides them (give gpu.nccl_topology_file)");
    return;
  }
  uint64_t best_up = std::numeric_limits<uint64_t>::max(), best_any = best_up;
  std::vector<std::string> nearest_up, down_nearer;
  for (const auto& [nic, facts] : gpu.nics) {
    if (!facts.distance) continue;
    best_any = std::min(best_any, *facts.distance);
    if (!linkUp(gpus, target, nic)) continue;
    if (*facts.distance < best_up) nearest_up.clear();
    if (*facts.distance <= best_up) {
      best_up = *facts.distance;
      nearest_up.push_back(nic);
    }
  }
  for (const auto& [nic, facts] : gpu.nics) {
    if (facts.distance && *facts.distance < best_up && !linkUp(gpus, target, nic)) {
      down_nearer.push_back(nic + " at " + pathName(*facts.distance) + " is down");
    }
  }
  if (best_any == std::numeric_limits<uint64_t>::max()) return;  // paths unknown: nothing to judge
  std::string found = nearest_up.empty()
                          ? "no RDMA NIC with its link up"
                          : "nearest NIC with its link up: " + nearest_up.front() + " at " + pathName(best_up);
  for (const std::string& d : down_nearer) found += "; " + d;
  results.judge(best_up <= kPxbDistance, CheckStatus::kFail, target, CheckGroup::kGpu, "gpudirect-rdma", name,
                "an RDMA NIC within PXB with its link up (NCCL's default GPUDirect RDMA level)", found);
  if (nearest_up.empty()) return;
  bool same_node = false, known = false;
  std::string gpu_node, nic_nodes;
  std::set<std::string> acs;
  for (const std::string& nic : nearest_up) {
    const GpuNicFacts& f = gpu.nics.at(nic);
    if (f.acs_redirect) acs.insert(*f.acs_redirect);
    if (!f.gpu_numa_node || !f.nic_numa_node || f.gpu_numa_node->empty() || f.nic_numa_node->empty()) continue;
    known = true;
    gpu_node = *f.gpu_numa_node;
    nic_nodes += (nic_nodes.empty() ? "" : ", ") + nic + " on node " + *f.nic_numa_node;
    same_node = same_node || *f.gpu_numa_node == *f.nic_numa_node;
  }
  if (known) {
    results.judge(same_node, CheckStatus::kWarn, target, CheckGroup::kGpu, "numa", name,
                  "its nearest NIC on its NUMA node (" + gpu_node + ")", nic_nodes);
  }
  if (best_up > kPxbDistance || acs.empty()) return;  // past the host bridge ACS changes nothing
  const std::string expected = "no ACS redirect between the GPU and " + nearest_up.front();
  if (acs.count("on")) {
    results.fail(target, CheckGroup::kGpu, "acs-redirect", name, expected,
                 "ACS redirect on: peer requests forced up to the root complex");
  } else if (acs.count("unknown")) {
    results.warn(target, CheckGroup::kGpu, "acs-redirect", name, expected,
                 "unknown: a bridge's ACS control is readable by root only");
  } else {
    results.pass(target, CheckGroup::kGpu, "acs-redirect", name);
  }
}

}  // namespace

void checkGpuReadiness(const RunContext& ctx, CheckResults& results) {
  for (const auto& [target, host] : ctx.inv.gpus.hosts) {
    if (host.gpus.empty()) continue;
    checkHost(target, host, results);
    for (const auto& [uuid, gpu] : host.gpus) checkGpu(target, host, uuid, gpu, ctx.inv.gpus, results);
  }
}

}  // namespace rdmagw::analytics
