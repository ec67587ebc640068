#pragma once
// The GPU leaves of one host (module rdmagw-gpu) and its RDMA ports' link
// state, as readFabric takes them row by row: what the GPUDirect readiness
// checks (gpu_checks.h) judge. A leaf not collected is absent here too.

#include <map>
#include <optional>
#include <string>
#include <vector>

#include "analytics/port_ref.h"
#include "models/store.h"

namespace rdmagw::analytics {

struct GpuNicFacts {
  std::optional<std::string> path;   // PIX ... SYS, unknown
  std::optional<uint64_t> distance;  // NCCL's rank, 1 PIX ... 5 SYS
  std::optional<std::string> acs_redirect, nic_numa_node, gpu_numa_node;
};

struct GpuFacts {
  std::optional<uint64_t> index, utilization;
  std::optional<uint64_t> link_gen, link_gen_max, link_width, link_width_max;
  std::map<std::string, GpuNicFacts> nics;  // by RDMA device
};

struct HostGpuFacts {
  std::optional<std::string> peer_memory, iommu;
  std::optional<uint64_t> topology_virtual;
  std::map<std::string, GpuFacts> gpus;  // by UUID
};

struct GpuInventory {
  std::map<std::string, HostGpuFacts> hosts;        // by target
  std::map<RdmaPortRef, uint64_t> rdma_port_state;  // IB port state: 4 is ACTIVE
};

// Takes a GPU leaf or an RDMA port's state-id; true when the series was one.
bool readGpuLeaf(const std::string& target, const SeriesView& s, GpuInventory& gpus);
// The rows readGpuLeaf takes.
std::vector<std::string> gpuRowPaths();

}  // namespace rdmagw::analytics
