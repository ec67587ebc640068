#pragma once
// The host's GPUs as the model lists them: the metrics source's samples
// joined to the PCI tree's GPUs by bus address, each with its path to every
// RDMA NIC. A GPU the tree has and no source reported (no driver, a GPU the
// driver lost) is still listed, keyed "PCI-<bus id>"; a sample whose GPU the
// tree lacks (a VM's flat tree with a topology file naming others) keeps its
// metrics without paths.
//
// Pure: tested on tables.

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "southbound/gpu/gpu_nic_topology.h"
#include "southbound/gpu/gpu_sample.h"

namespace rdmagw::southbound::gpu {

struct GpuNicEntry {
  std::string nic;      // the RDMA device, "mlx5_0"
  std::string address;  // its PCI function, sysfs form
  // ACS P2P redirect on a bridge between the two: on, off, unknown (filled
  // by the caller, who reads the bridges; gpu_host_facts.h).
  std::string acs_redirect = "unknown";
  PathType path = PathType::kUnknown;
  std::string rank;  // nearest, nearest-tied, farther, unknown
  int nic_numa_node = -1;
  int gpu_numa_node = -1;
};

struct GpuEntry {
  std::string uuid;  // the key: NVML's UUID, else "PCI-" and the NVML-form bus id
  std::optional<uint32_t> index;
  std::string model_name;
  std::string pci_bus_id;  // NVML form; empty when no one knows it
  std::string source;      // nvml, nvidia-smi, pci
  std::string address;     // the tree's PCI function, sysfs form; empty when not in the tree
  std::vector<std::string> nearest_nics;
  PathType nearest_path = PathType::kUnknown;
  bool gpudirect_rdma = false;  // the nearest NIC is within NCCL's default GDR level
  std::optional<GpuSample> sample;
  std::vector<GpuNicEntry> nics;  // empty without the tree
};

// `source`: where the samples came from ("nvml", "nvidia-smi"); ignored
// when there are none. `topology` may be null (not read yet, or failed).
// Entries are ordered by index, then by bus id.
std::vector<GpuEntry> buildGpuInventory(const GpuNicTopology* topology, const std::vector<GpuSample>& samples,
                                        std::string_view source);

// NCCL's rank of a path, nearer smaller: PIX 1 ... SYS 5; nullopt for
// self and unknown.
std::optional<uint64_t> ncclDistance(PathType path);

}  // namespace rdmagw::southbound::gpu
