#include "analytics/gpu_rows.h"

#include <string_view>

namespace rdmagw::analytics {
namespace {

constexpr std::string_view kGpuState = "/gpus/state/";
constexpr std::string_view kGpu = "/gpus/gpu/state/";
constexpr std::string_view kGpuNic = "/gpus/gpu/nics/nic/state/";
constexpr std::string_view kPortStateId = "/rdma/devices/device/ports/port/state/state-id";

std::optional<uint64_t> number(const SeriesView& s) {
  double v = 0;
  if (!valueAsDouble(s.value, &v) || v < 0) return std::nullopt;
  return uint64_t(v);
}

std::optional<std::string> text(const SeriesView& s) {
  const auto* t = std::get_if<std::string>(&s.value);
  return t ? std::optional(*t) : std::nullopt;
}

}  // namespace

std::vector<std::string> gpuRowPaths() {
  std::vector<std::string> out = {std::string(kPortStateId)};
  for (const char* leaf : {"peer-memory", "iommu", "topology-virtual"}) out.push_back(std::string(kGpuState) + leaf);
  for (const char* leaf :
       {"index", "utilization", "pcie-link-gen", "pcie-link-gen-max", "pcie-link-width", "pcie-link-width-max"}) {
    out.push_back(std::string(kGpu) + leaf);
  }
  for (const char* leaf : {"path", "distance", "acs-redirect", "nic-numa-node", "gpu-numa-node"}) {
    out.push_back(std::string(kGpuNic) + leaf);
  }
  return out;
}

bool readGpuLeaf(const std::string& target, const SeriesView& s, GpuInventory& gpus) {
  const std::string_view path = s.schema->path;
  const auto& labels = s.label_values;
  if (path == kPortStateId) {
    if (auto v = number(s); v && labels.size() == 2) gpus.rdma_port_state[{target, labels[0], labels[1]}] = *v;
    return true;
  }
  if (!path.starts_with("/gpus/")) return false;
  HostGpuFacts& host = gpus.hosts[target];
  if (path.starts_with(kGpuState)) {
    const std::string_view leaf = path.substr(kGpuState.size());
    if (leaf == "peer-memory") host.peer_memory = text(s);
    if (leaf == "iommu") host.iommu = text(s);
    if (leaf == "topology-virtual") host.topology_virtual = number(s);
    return true;
  }
  if (path.starts_with(kGpu) && labels.size() == 1) {
    GpuFacts& gpu = host.gpus[labels[0]];
    const std::string_view leaf = path.substr(kGpu.size());
    if (leaf == "index") gpu.index = number(s);
    if (leaf == "utilization") gpu.utilization = number(s);
    if (leaf == "pcie-link-gen") gpu.link_gen = number(s);
    if (leaf == "pcie-link-gen-max") gpu.link_gen_max = number(s);
    if (leaf == "pcie-link-width") gpu.link_width = number(s);
    if (leaf == "pcie-link-width-max") gpu.link_width_max = number(s);
    return true;
  }
  if (path.starts_with(kGpuNic) && labels.size() == 2) {
    GpuNicFacts& nic = host.gpus[labels[0]].nics[labels[1]];
    const std::string_view leaf = path.substr(kGpuNic.size());
    if (leaf == "path") nic.path = text(s);
    if (leaf == "distance") nic.distance = number(s);
    if (leaf == "acs-redirect") nic.acs_redirect = text(s);
    if (leaf == "nic-numa-node") nic.nic_numa_node = text(s);
    if (leaf == "gpu-numa-node") nic.gpu_numa_node = text(s);
    return true;
  }
  return true;  // another GPU leaf: not an analytics input
}

}  // namespace rdmagw::analytics
