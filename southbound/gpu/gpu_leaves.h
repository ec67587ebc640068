#pragma once
// The GPU inventory as the model's leaves (module rdmagw-gpu): one entry
// per GPU under /gpus/gpu[uuid], its paths under nics/nic[name], and the
// collection's own state. The GPU list is written whole each poll, so a
// GPU that goes (unplugged, a re-keyed entry once the driver names it)
// leaves the store with that poll.

#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "models/update.h"
#include "southbound/gpu/gpu_inventory.h"

namespace rdmagw::southbound::gpu {

struct GpuCollectionState {
  bool metrics_up = false;
  bool topology_virtual = false;
  std::string peer_memory = "unknown";  // gpu_host_facts.h
  std::string iommu = "unknown";
  std::map<std::string, uint64_t> errors;  // by stage: nvml, nvidia-smi, topology
};

void writeGpuLeaves(const std::vector<GpuEntry>& gpus, const GpuCollectionState& state, TimestampNs ts,
                    PollBatch& batch);

}  // namespace rdmagw::southbound::gpu
