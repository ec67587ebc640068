#include "southbound/k8s/attribution_leaves.h"

#include <utility>
#include <vector>

#include "models/path.h"

namespace rdmagw::southbound::k8s {
namespace {

std::string entryPath(const std::string& device, const std::string& uid) {
  std::string path = "/rdma/devices/device[name=";
  appendEscapedKeyValue(&path, device);
  path += "]/pods/pod[uid=";
  appendEscapedKeyValue(&path, uid);
  path += "]/state/";
  return path;
}

// "mlx5_2,mlx5_3" (a function with two RDMA devices): each gets the entry.
std::vector<std::string> devicesOf(const AttributionRow& row) {
  std::vector<std::string> out;
  size_t start = 0;
  while (start < row.rdma_device.size()) {
    size_t comma = row.rdma_device.find(',', start);
    if (comma == std::string::npos) comma = row.rdma_device.size();
    if (comma > start) out.push_back(row.rdma_device.substr(start, comma - start));
    start = comma + 1;
  }
  if (out.empty()) out.push_back(row.device_id);
  return out;
}

}  // namespace

void writePodEntries(const Attribution& attribution, TimestampNs ts, PollBatch& batch) {
  batch.replaceSubtree(std::string(kPodEntriesRoot));
  for (const AttributionRow& row : attribution.rows) {
    const std::string uid = row.pod_uid.empty() ? "unknown" : row.pod_uid;
    const std::pair<const char*, std::string> leaves[] = {
        {"container", row.container},
        {"namespace", row.pod_namespace},
        {"pod", row.pod_name},
        {"resource", row.resource},
        {"device-id", row.device_id},
        {"pci", row.pci},
        {"pf", row.pf},
        {"vf", row.vf_index ? std::to_string(*row.vf_index) : ""},
        {"netdev", row.netdev},
        {"mode", std::string(attributionModeName(row.mode))},
        {"uplink", row.uplink},
        {"pf-device", row.pf_device},
    };
    for (const std::string& device : devicesOf(row)) {
      const std::string base = entryPath(device, uid);
      for (const auto& [leaf, value] : leaves) batch.add(base + leaf, value, ts);
    }
  }
}

void writeVfStats(const std::vector<PfVfStats>& pfs, TimestampNs ts, PollBatch& batch) {
  batch.replaceSubtree(std::string(kVfStatsRoot));
  for (const PfVfStats& pf : pfs) {
    for (const VfStats& vf : pf.vfs) {
      const std::pair<const char*, const std::optional<uint64_t>&> counters[] = {
          {"rx-packets", vf.rx_packets}, {"tx-packets", vf.tx_packets}, {"rx-bytes", vf.rx_bytes},
          {"tx-bytes", vf.tx_bytes},     {"rx-dropped", vf.rx_dropped}, {"tx-dropped", vf.tx_dropped},
          {"broadcast", vf.broadcast},   {"multicast", vf.multicast},
      };
      for (const std::string& device : pf.rdma_devices) {
        std::string base = "/rdma/devices/device[name=";
        appendEscapedKeyValue(&base, device);
        base += "]/vfs/vf[index=" + std::to_string(vf.vf) + "]/state/";
        for (const auto& [leaf, value] : counters) {
          if (value) batch.add(base + leaf, *value, ts);
        }
      }
    }
  }
}

void writeHealth(const AttributionHealth& health, const AttributionCounters& unattributed, TimestampNs ts,
                 PollBatch& batch) {
  batch.add("/rdma/kubernetes/state/podresources-up", uint64_t(health.podresources_up ? 1 : 0), ts);
  batch.add("/rdma/kubernetes/state/netns-handles", health.netns_handles, ts);
  for (const auto& [stage, count] : health.errors) {
    batch.add("/rdma/kubernetes/errors/stage[name=" + stage + "]/state/count", count, ts);
  }
  if (!health.podresources_up) return;  // the rest would describe no refresh
  batch.add("/rdma/kubernetes/state/pods", health.pods, ts);
  batch.add("/rdma/kubernetes/state/devices-attributed", health.devices_attributed, ts);
  const std::pair<const char*, uint64_t> reasons[] = {
      {"pod-without-uid", unattributed.pods_without_uid},
      {"pod-with-ambiguous-uid", unattributed.pods_with_ambiguous_uid},
      {"pod-without-netns", unattributed.pods_without_netns},
      {"netns-of-several-pods", unattributed.netns_of_several_pods},
      {"netns-of-no-pod", unattributed.netns_of_no_pod},
      {"netns-unreadable", unattributed.netns_unreadable},
      {"device-unconfirmed", unattributed.devices_unconfirmed},
      {"device-not-in-sysfs", unattributed.devices_not_in_sysfs},
      {"device-not-network", unattributed.devices_not_network},
      {"device-unknown", unattributed.devices_unknown},
  };
  for (const auto& [reason, count] : reasons) {
    batch.add(std::string("/rdma/kubernetes/unattributed/reason[name=") + reason + "]/state/count", count, ts);
  }
}

}  // namespace rdmagw::southbound::k8s
