#pragma once
// The attribution as the model's leaves: one entry per RDMA device and pod
// under /rdma/devices/device[name]/pods/pod[uid]/state (a device goes to
// one container of a pod), and the attribution's health under
// /rdma/kubernetes. Pure, so the paths are tested without a node.

#include <cstdint>
#include <map>
#include <string>

#include "models/update.h"
#include "southbound/k8s/attribution.h"
#include "southbound/k8s/vf_stats.h"

namespace rdmagw::southbound::k8s {

// Where every poll's pod entries live: read whole, so a pod that went
// leaves with the poll that no longer sees it.
inline constexpr std::string_view kPodEntriesRoot = "/rdma/devices/device[name=*]/pods";

// The pod entries of one attribution. A row whose RDMA device the host
// cannot see is named by the kubelet's device ID; a pod whose UID no log
// directory gives is keyed "unknown" (its namespace and name still say who).
void writePodEntries(const Attribution& attribution, TimestampNs ts, PollBatch& batch);

// Where every poll's VF stats live, read whole like the pod entries, so a
// VF that was disabled leaves.
inline constexpr std::string_view kVfStatsRoot = "/rdma/devices/device[name=*]/vfs";

// Each PF's VF counters under /rdma/devices/device[name]/vfs/vf[index]/state,
// for each RDMA device of the PF: the counters the kernel sent, no others.
void writeVfStats(const std::vector<PfVfStats>& pfs, TimestampNs ts, PollBatch& batch);

// The health of one refresh.
struct AttributionHealth {
  bool podresources_up = false;
  uint64_t pods = 0;                // pods the kubelet listed
  uint64_t devices_attributed = 0;  // rows confirmed in a netns, host-network or shared
  uint64_t netns_handles = 0;       // pods' netns held open to read their counters
  // Since the source started, by stage: podresources, pod-logs, netns-scan,
  // sriov-sysfs, netns-read, netns-counters, vf-stats.
  std::map<std::string, uint64_t> errors;
};
void writeHealth(const AttributionHealth& health, const AttributionCounters& unattributed, TimestampNs ts,
                 PollBatch& batch);

}  // namespace rdmagw::southbound::k8s
