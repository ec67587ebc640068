#include "southbound/gpu/gpu_inventory.h"

#include <algorithm>
#include <cctype>
#include <map>

#include "southbound/gpu/gpu_bus_id.h"

namespace rdmagw::southbound::gpu {
namespace {

std::string lower(std::string text) {
  std::transform(text.begin(), text.end(), text.begin(), [](unsigned char c) { return std::tolower(c); });
  return text;
}

// A sample's sysfs-form address ("0000:3b:00.0"), lower case, or empty.
std::string sysfsAddressOf(const GpuSample& sample) {
  if (!sample.pci_bus_id) return "";
  std::optional<std::string> sysfs = sysfsBusIdFromNvml(*sample.pci_bus_id);
  return sysfs ? lower(*sysfs) : "";
}

// The topology's paths from GPU `g` to every NIC, with each NIC's rank.
void addPaths(const GpuNicTopology& topology, size_t g, const std::vector<NearestNics>& nearest, GpuEntry& entry) {
  const NearestNics* mine = nullptr;
  for (const NearestNics& n : nearest) {
    if (n.gpu == g) mine = &n;
  }
  entry.address = topology.gpus[g].address;
  if (mine != nullptr) {
    for (size_t nic : mine->nics) entry.nearest_nics.push_back(topology.nics[nic].rdma_device);
    entry.nearest_path = mine->path;
    entry.gpudirect_rdma = mine->gdr_by_default;
  }
  for (size_t n = 0; n < topology.nics.size(); ++n) {
    GpuNicEntry nic;
    nic.nic = topology.nics[n].rdma_device.empty() ? topology.nics[n].name : topology.nics[n].rdma_device;
    nic.address = topology.nics[n].address;
    nic.path = topology.gpuToNic(g, n);
    nic.gpu_numa_node = topology.gpus[g].numa_node;
    nic.nic_numa_node = topology.nics[n].numa_node;
    const bool is_nearest = mine != nullptr && std::count(mine->nics.begin(), mine->nics.end(), n) > 0;
    if (topology.distances_unknown || nic.path == PathType::kUnknown) {
      nic.rank = "unknown";
    } else if (is_nearest) {
      nic.rank = mine->nics.size() > 1 ? "nearest-tied" : "nearest";
    } else {
      nic.rank = "farther";
    }
    entry.nics.push_back(std::move(nic));
  }
}

}  // namespace

std::optional<uint64_t> ncclDistance(PathType path) {
  switch (path) {
    case PathType::kPix:
      return 1;
    case PathType::kPxb:
      return 2;
    case PathType::kPhb:
      return 3;
    case PathType::kNode:
      return 4;
    case PathType::kSys:
      return 5;
    case PathType::kSelf:
    case PathType::kUnknown:
      return std::nullopt;
  }
  return std::nullopt;
}

std::vector<GpuEntry> buildGpuInventory(const GpuNicTopology* topology, const std::vector<GpuSample>& samples,
                                        std::string_view source) {
  std::vector<GpuEntry> out;
  std::map<std::string, size_t> tree_gpu_of_address;
  std::vector<NearestNics> nearest;
  if (topology != nullptr) {
    for (size_t g = 0; g < topology->gpus.size(); ++g) tree_gpu_of_address[lower(topology->gpus[g].address)] = g;
    nearest = nearestNics(*topology);
  }
  std::vector<bool> sampled(topology != nullptr ? topology->gpus.size() : 0, false);
  for (const GpuSample& sample : samples) {
    GpuEntry entry;
    entry.index = sample.index;
    entry.model_name = sample.model_name.value_or("");
    entry.pci_bus_id = sample.pci_bus_id.value_or("");
    entry.source = std::string(source);
    if (sample.uuid && !sample.uuid->empty()) {
      entry.uuid = *sample.uuid;
    } else if (!entry.pci_bus_id.empty()) {
      entry.uuid = "PCI-" + entry.pci_bus_id;
    } else {
      entry.uuid = "index-" + (sample.index ? std::to_string(*sample.index) : std::to_string(out.size()));
    }
    entry.sample = sample;
    const auto in_tree = tree_gpu_of_address.find(sysfsAddressOf(sample));
    if (in_tree != tree_gpu_of_address.end()) {
      sampled[in_tree->second] = true;
      addPaths(*topology, in_tree->second, nearest, entry);
    }
    out.push_back(std::move(entry));
  }
  for (size_t g = 0; g < sampled.size(); ++g) {
    if (sampled[g]) continue;
    GpuEntry entry;
    entry.pci_bus_id = nvmlBusIdFromSysfs(topology->gpus[g].address).value_or(topology->gpus[g].address);
    entry.uuid = "PCI-" + entry.pci_bus_id;
    entry.source = "pci";
    addPaths(*topology, g, nearest, entry);
    out.push_back(std::move(entry));
  }
  std::stable_sort(out.begin(), out.end(), [](const GpuEntry& a, const GpuEntry& b) {
    if (a.index.has_value() != b.index.has_value()) return a.index.has_value();
    if (a.index && *a.index != *b.index) return *a.index < *b.index;
    return a.pci_bus_id < b.pci_bus_id;
  });
  return out;
}

}  // namespace rdmagw::southbound::gpu
