#include "southbound/gpu/gpu_nic_topology.h"

#include <algorithm>
#include <cctype>
#include <utility>

namespace rdmagw::southbound::gpu {
namespace {

// The switch level of a bridge at `depth` below the host bridge (1: the root
// port). A PCIe switch shows as an upstream port with downstream ports below
// it, so levels pair depths 2-3, 4-5, ...: the root port is level 0 and each
// switch one more.
size_t switchLevel(size_t depth, bool bridges_are_levels) { return bridges_are_levels ? depth : depth / 2; }

size_t commonBridges(const PciDevice& a, const PciDevice& b) {
  size_t n = 0;
  while (n < a.bridges.size() && n < b.bridges.size() && a.bridges[n] == b.bridges[n]) ++n;
  return n;
}

PathType classify(const PciDevice& a, const PciDevice& b, bool bridges_are_levels) {
  if (a.address == b.address) return PathType::kSelf;
  if (a.host_bridge != b.host_bridge) return a.numa_node == b.numa_node ? PathType::kNode : PathType::kSys;
  const size_t common = commonBridges(a, b);
  if (common == 0) return PathType::kPhb;
  const size_t top = switchLevel(common, bridges_are_levels);
  const size_t levels = (switchLevel(a.bridges.size(), bridges_are_levels) - top) +
                        (switchLevel(b.bridges.size(), bridges_are_levels) - top) + 1;
  return levels <= 1 ? PathType::kPix : PathType::kPxb;
}

// "mlx5_2" before "mlx5_10": the digits at the end compare as numbers.
bool naturalLess(const std::string& a, const std::string& b) {
  auto split = [](const std::string& s) {
    size_t i = s.size();
    while (i > 0 && std::isdigit(static_cast<unsigned char>(s[i - 1]))) --i;
    const std::string digits = s.substr(i);
    return std::make_pair(s.substr(0, i), digits.empty() || digits.size() > 9 ? -1L : std::stol(digits));
  };
  const auto sa = split(a);
  const auto sb = split(b);
  if (sa != sb) return sa < sb;
  return a < b;
}

}  // namespace

std::string_view pathTypeName(PathType type) {
  switch (type) {
    case PathType::kSelf:
      return "X";
    case PathType::kPix:
      return "PIX";
    case PathType::kPxb:
      return "PXB";
    case PathType::kPhb:
      return "PHB";
    case PathType::kNode:
      return "NODE";
    case PathType::kSys:
      return "SYS";
    case PathType::kUnknown:
      break;
  }
  return "unknown";
}

PathType classifyPath(const PciDevice& a, const PciDevice& b) { return classify(a, b, false); }

std::string cardOf(const std::string& address) {
  const size_t dot = address.rfind('.');
  return dot == std::string::npos ? address : address.substr(0, dot);
}

GpuNicTopology buildTopology(const PciTree& tree, bool distances_unknown, std::string why) {
  GpuNicTopology topology;
  topology.distances_unknown = distances_unknown;
  topology.why_unknown = std::move(why);
  std::vector<const PciDevice*> members;
  for (const PciDevice& device : tree.devices) {
    if (!device.isNvidiaGpu() && !(tree.from_nccl_topology_file && device.isGpuClass())) continue;
    topology.gpus.push_back({"", device.address, "", "", device.numa_node});
    members.push_back(&device);
  }
  std::vector<std::pair<std::string, const PciDevice*>> rdma;
  for (const PciDevice& device : tree.devices) {
    for (const std::string& ibdev : device.rdma_devices) rdma.emplace_back(ibdev, &device);
    const bool network_class = device.class_code && (*device.class_code >> 16) == 0x02;
    if (tree.from_nccl_topology_file && device.rdma_devices.empty() && network_class) rdma.emplace_back("", &device);
  }
  std::sort(rdma.begin(), rdma.end(), [](const auto& x, const auto& y) {
    if (x.first != y.first) return naturalLess(x.first, y.first);
    return x.second->address < y.second->address;
  });
  for (const auto& entry : rdma) {
    topology.nics.push_back(
        {"", entry.second->address, entry.first, cardOf(entry.second->address), entry.second->numa_node});
    members.push_back(entry.second);
  }
  for (size_t i = 0; i < topology.gpus.size(); ++i) topology.gpus[i].name = "GPU" + std::to_string(i);
  for (size_t i = 0; i < topology.nics.size(); ++i) topology.nics[i].name = "NIC" + std::to_string(i);
  topology.cells.assign(members.size(), std::vector<PathType>(members.size(), PathType::kUnknown));
  for (size_t i = 0; i < members.size(); ++i) {
    for (size_t j = 0; j < members.size(); ++j) {
      // Two ibdevs of one function (rare, but mlx4 had them) are still two NICs.
      if (i == j) {
        topology.cells[i][j] = PathType::kSelf;
      } else if (!distances_unknown) {
        const PathType path = classify(*members[i], *members[j], tree.from_nccl_topology_file);
        topology.cells[i][j] = path == PathType::kSelf ? PathType::kPix : path;
      }
    }
  }
  return topology;
}

std::string formatTopoMatrix(const GpuNicTopology& topology) {
  std::vector<const TopologyDevice*> devices;
  for (const TopologyDevice& gpu : topology.gpus) devices.push_back(&gpu);
  for (const TopologyDevice& nic : topology.nics) devices.push_back(&nic);
  std::string out;
  for (const TopologyDevice* device : devices) out += "\t" + device->name;
  out += "\n";
  for (size_t i = 0; i < devices.size(); ++i) {
    out += devices[i]->name;
    for (size_t j = 0; j < devices.size(); ++j) {
      const PathType path = topology.cells[i][j];
      out += "\t" + std::string(path == PathType::kUnknown ? "?" : pathTypeName(path));
    }
    out += "\n";
  }
  if (!topology.nics.empty()) out += "\nNIC Legend:\n\n";
  for (const TopologyDevice& nic : topology.nics) {
    out += "  " + nic.name + ": " + (nic.rdma_device.empty() ? nic.address : nic.rdma_device) + "\n";
  }
  return out;
}

std::vector<NearestNics> nearestNics(const GpuNicTopology& topology) {
  std::vector<NearestNics> out;
  if (topology.distances_unknown || topology.nics.empty()) return out;
  for (size_t g = 0; g < topology.gpus.size(); ++g) {
    NearestNics nearest;
    nearest.gpu = g;
    for (size_t n = 0; n < topology.nics.size(); ++n) {
      const PathType path = topology.gpuToNic(g, n);
      if (path < nearest.path) {
        nearest.path = path;
        nearest.nics.clear();
      }
      if (path == nearest.path && path != PathType::kUnknown) nearest.nics.push_back(n);
    }
    nearest.gdr_by_default = nearest.path <= kDefaultGdrLevel;
    out.push_back(std::move(nearest));
  }
  return out;
}

}  // namespace rdmagw::southbound::gpu
