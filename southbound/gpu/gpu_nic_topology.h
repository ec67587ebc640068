#pragma once
// The relations `nvidia-smi topo -m` prints between GPUs and RDMA NICs,
// computed from the PCI tree alone. What sysfs cannot know is left out, not
// guessed: NVLink (NV#) is a property of the GPUs' own links, visible only
// through NVML, so GPU<->GPU cells here are the PCIe path the two would take
// without NVLink. A virtual machine's tree is the hypervisor's invention, so
// its cells are kUnknown unless a topology file (NCCL's) says otherwise.

#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

#include "southbound/gpu/pci_tree.h"

namespace rdmagw::southbound::gpu {

// Nearest first, as NCCL orders its PATH_ types.
enum class PathType {
  kSelf,  // X
  kPix,   // at most one PCIe bridge (one switch level)
  kPxb,   // several bridges, not through the host bridge
  kPhb,   // through the host bridge of one root complex
  kNode,  // between host bridges of one NUMA node
  kSys,   // across NUMA nodes (the CPUs' interconnect)
  kUnknown,
};

// "X", "PIX", "PXB", "PHB", "NODE", "SYS", "unknown".
std::string_view pathTypeName(PathType type);

// NCCL's default NCCL_NET_GDR_LEVEL: GPUDirect RDMA when the path is PXB or nearer.
inline constexpr PathType kDefaultGdrLevel = PathType::kPxb;

// The path between two functions of one tree. A PCIe switch is one level,
// as NCCL counts it: its upstream port and the downstream port below it are
// a single hop, so two devices under different downstream ports of one
// switch are PIX. Root ports are a level of their own (nvidia-smi calls two
// functions under one root port PIX). A NUMA node of -1 (unknown) matches
// only another -1.
PathType classifyPath(const PciDevice& a, const PciDevice& b);

struct TopologyDevice {
  std::string name;         // "GPU0", "NIC0", as nvidia-smi numbers them
  std::string address;      // PCI address of the function
  // NICs: the ibdev ("mlx5_0"); empty for GPUs, and for a NIC that only
  // NCCL's topology file names (by address).
  std::string rdma_device;
  // NICs: the card's PCI device without the function ("0000:21:00"): two
  // ports of a dual-port card share it, which is how NCCL merges them.
  std::string card;
  int numa_node = -1;
};

struct NearestNics {
  size_t gpu = 0;            // index into gpus
  std::vector<size_t> nics;  // indices into nics, every one at the nearest distance
  PathType path = PathType::kUnknown;
  bool gdr_by_default = false;  // path within kDefaultGdrLevel
};

struct GpuNicTopology {
  std::vector<TopologyDevice> gpus;  // by PCI address, as nvidia-smi's default order
  std::vector<TopologyDevice> nics;  // one per RDMA device, by ibdev name (mlx5_2 before mlx5_10), then address
  // Square, over gpus then nics: cells[i][j] is the row device to the column one.
  std::vector<std::vector<PathType>> cells;
  // Set when the host is a virtual machine and no topology file was given:
  // every off-diagonal cell is then kUnknown.
  bool distances_unknown = false;
  std::string why_unknown;

  PathType gpuToNic(size_t gpu, size_t nic) const { return cells[gpu][gpus.size() + nic]; }
  PathType gpuToGpu(size_t a, size_t b) const { return cells[a][b]; }
  PathType nicToNic(size_t a, size_t b) const { return cells[gpus.size() + a][gpus.size() + b]; }
};

// Classifies every pair of GPUs and RDMA NICs in `tree`. With
// `distances_unknown` set (a VM: see virtualization.h) the devices are still
// listed but their paths are kUnknown, `why` kept as why_unknown.
GpuNicTopology buildTopology(const PciTree& tree, bool distances_unknown = false, std::string why = "");

// For every GPU, the NICs at its smallest distance (ties all kept); none
// when the distances are unknown or there is no NIC.
std::vector<NearestNics> nearestNics(const GpuNicTopology& topology);

// The matrix as `nvidia-smi topo -m` lays it out (without its affinity
// columns), then its NIC legend: a header line of GPU and NIC names, one
// row per device, cells tab-separated; unknown cells read "?".
std::string formatTopoMatrix(const GpuNicTopology& topology);

// "0000:21:00.0" -> "0000:21:00".
std::string cardOf(const std::string& address);

}  // namespace rdmagw::southbound::gpu
