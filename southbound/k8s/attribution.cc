#include "southbound/k8s/attribution.h"

#include <map>
#include <set>
#include <utility>

namespace rdmagw::southbound::k8s {
namespace {

std::string joined(const std::vector<std::string>& names) {
  std::string out;
  for (const std::string& name : names) out += (out.empty() ? "" : ",") + name;
  return out;
}

// The facts indexed once per join, and the netns readings made during it
// (each netns is entered at most once).
class Join {
 public:
  Join(const NodeFacts& facts, const NetnsNetdevLookup& netdevs_in) : facts_(facts), netdevs_in_(netdevs_in) {
    for (const PhysicalFunction& pf : facts.sriov) {
      functions_.emplace(formatPciAddress(pf.function.address), &pf.function);
      for (const PciFunction& vf : pf.vfs) functions_.emplace(formatPciAddress(vf.address), &vf);
    }
    for (const PodIdentity& pod : facts.identities) uids_.emplace(std::pair(pod.pod_namespace, pod.pod_name), pod.pod_uid);
    for (const PodSandboxNetns& sandbox : facts.netns.sandboxes) {
      if (sandbox.ownership == NetnsOwnership::kOnePod) netns_of_uid_[sandbox.pod_uids.front()].push_back(sandbox.path);
      if (sandbox.ownership == NetnsOwnership::kSeveralPods) ++out_.unattributed.netns_of_several_pods;
      if (sandbox.ownership == NetnsOwnership::kNoPod) ++out_.unattributed.netns_of_no_pod;
    }
    for (const HostNetworkPod& pod : facts.netns.host_network_pods) host_network_.insert(pod.pod_uid);
  }

  Attribution run() && {
    for (const PodAssignment& pod : facts_.pods) attributePod(pod);
    return std::move(out_);
  }

 private:
  bool placed(const std::string& uid) const { return netns_of_uid_.count(uid) > 0 || host_network_.count(uid) > 0; }

  // A recreated pod (a StatefulSet's) leaves its old log directory for a
  // while: of several UIDs, the one that has a netns or host processes.
  std::string uidOf(const PodAssignment& pod) {
    const auto [first, last] = uids_.equal_range(std::pair(pod.pod_namespace, pod.pod_name));
    std::vector<std::string> candidates;
    std::vector<std::string> with_processes;
    for (auto it = first; it != last; ++it) {
      candidates.push_back(it->second);
      if (placed(it->second)) with_processes.push_back(it->second);
    }
    if (candidates.empty()) {
      ++out_.unattributed.pods_without_uid;
      return "";
    }
    if (candidates.size() == 1) return candidates.front();
    if (with_processes.size() == 1) return with_processes.front();
    ++out_.unattributed.pods_with_ambiguous_uid;
    return "";
  }

  const std::vector<NetnsNetdev>* netdevsIn(const std::string& netns_path) {
    auto cached = readings_.find(netns_path);
    if (cached == readings_.end()) {
      Result<std::vector<NetnsNetdev>> reading = netdevs_in_(netns_path);
      if (!reading.isOk()) ++out_.unattributed.netns_unreadable;
      cached = readings_.emplace(netns_path, reading.isOk() ? std::optional(std::move(reading).value()) : std::nullopt)
                   .first;
    }
    return cached->second ? &*cached->second : nullptr;
  }

  // The pod's own netns holding a netdev whose bus address is `bus_info`.
  void confirmInPodNetns(const std::string& uid, const std::string& bus_info, AttributionRow& row) {
    const auto netns = netns_of_uid_.find(uid);
    if (netns == netns_of_uid_.end()) return;
    for (const std::string& path : netns->second) {
      const std::vector<NetnsNetdev>* netdevs = netdevsIn(path);
      if (netdevs == nullptr) continue;
      for (const NetnsNetdev& netdev : *netdevs) {
        if (netdev.bus_info != bus_info) continue;
        row.mode = AttributionMode::kExclusive;
        row.netdev = netdev.name;
        row.netns = path;
        return;
      }
    }
  }

  void describePciFunction(const PciAddress& address, AttributionRow& row) {
    row.pci = formatPciAddress(address);
    const auto found = functions_.find(row.pci);
    if (found == functions_.end()) {
      ++out_.unattributed.devices_not_in_sysfs;
      return;
    }
    const PciFunction& function = *found->second;
    if (function.physfn) row.pf = formatPciAddress(*function.physfn);
    row.vf_index = function.vf_index;
    row.rdma_device = joined(function.rdma_devices);
    row.uplink = joined(function.netdevs);
    if (function.physfn) {
      const auto pf = functions_.find(row.pf);
      row.uplink = pf == functions_.end() ? "" : joined(pf->second->netdevs);
      row.pf_device = pf == functions_.end() ? "" : joined(pf->second->rdma_devices);
    }
    if (host_network_.count(row.pod_uid) > 0 && !function.netdevs.empty()) {
      row.mode = AttributionMode::kHostNetwork;
      row.netdev = joined(function.netdevs);
    }
  }

  void attributeDevice(const DeviceId& device, AttributionRow row) {
    row.device_kind = device.kind;
    row.device_id = device.raw;
    switch (device.kind) {
      case DeviceKind::kGpu:
      case DeviceKind::kMigDevice:
        ++out_.unattributed.devices_not_network;
        return;
      case DeviceKind::kUnknown:
        ++out_.unattributed.devices_unknown;
        return;
      case DeviceKind::kSharedRdmaSlot:
        row.mode = AttributionMode::kShared;
        break;
      case DeviceKind::kPciFunction:
        describePciFunction(*device.pci, row);
        if (row.mode != AttributionMode::kHostNetwork) confirmInPodNetns(row.pod_uid, row.pci, row);
        break;
      case DeviceKind::kSubFunction:
        // An SF's netdev reports its auxiliary device name as bus-info, the
        // same string its device plugin hands the kubelet.
        confirmInPodNetns(row.pod_uid, device.raw, row);
        break;
    }
    if (row.mode == AttributionMode::kUnconfirmed) ++out_.unattributed.devices_unconfirmed;
    out_.rows.push_back(std::move(row));
  }

  void attributePod(const PodAssignment& pod) {
    const std::string uid = uidOf(pod);
    if (!uid.empty() && !placed(uid)) ++out_.unattributed.pods_without_netns;
    for (const ContainerAssignment& container : pod.containers) {
      for (const AssignedDevices& resource : container.devices) {
        for (const DeviceId& device : resource.devices) {
          AttributionRow row;
          row.pod_namespace = pod.pod_namespace;
          row.pod_name = pod.pod_name;
          row.container = container.name;
          row.pod_uid = uid;
          row.resource = resource.resource_name;
          attributeDevice(device, std::move(row));
        }
      }
    }
  }

  const NodeFacts& facts_;
  const NetnsNetdevLookup& netdevs_in_;
  std::map<std::string, const PciFunction*> functions_;                     // by PCI address
  std::multimap<std::pair<std::string, std::string>, std::string> uids_;    // (namespace, name) -> UID
  std::map<std::string, std::vector<std::string>> netns_of_uid_;            // one-pod netns paths
  std::set<std::string> host_network_;                                      // UIDs
  std::map<std::string, std::optional<std::vector<NetnsNetdev>>> readings_;  // by netns path
  Attribution out_;
};

}  // namespace

Attribution attributeDevices(const NodeFacts& facts, const NetnsNetdevLookup& netdevs_in) {
  return Join(facts, netdevs_in).run();
}

std::string_view attributionModeName(AttributionMode mode) {
  switch (mode) {
    case AttributionMode::kExclusive:
      return "exclusive";
    case AttributionMode::kHostNetwork:
      return "host-network";
    case AttributionMode::kShared:
      return "shared";
    case AttributionMode::kUnconfirmed:
      return "unconfirmed";
  }
  return "unconfirmed";
}

}  // namespace rdmagw::southbound::k8s
