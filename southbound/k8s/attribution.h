#pragma once
// The join that says which pod holds which RDMA/SR-IOV device, from node-local
// facts only: what the kubelet assigned (PodResources, by namespace/name),
// which UID that pod has (its /var/log/pods directory), which netns is that
// pod's (the cgroups of the processes inside), what sysfs says of each PCI
// function, and which netdevs the kernel confirms inside each netns.
//
// A netns is tied to a device only when it holds the device the kubelet says
// the pod owns, found by bus address; what cannot be confirmed is reported
// as unconfirmed and counted, never attributed by a guess. Pure: the netns
// reading is handed in, so the join is tested on tables.

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "models/status.h"
#include "southbound/k8s/device_id.h"
#include "southbound/k8s/netns_netdevs.h"
#include "southbound/k8s/pod_logs.h"
#include "southbound/k8s/pod_netns.h"
#include "southbound/k8s/pod_resources.h"
#include "southbound/k8s/sriov_sysfs.h"

namespace rdmagw::southbound::k8s {

enum class AttributionMode {
  kExclusive,    // the device's netdev is confirmed in the pod's own netns
  kHostNetwork,  // a hostNetwork pod: the device's netdev is in the host's netns
  kShared,       // a shared RDMA plugin slot: the pod shares the resource's HCAs
  kUnconfirmed,  // the kubelet names the device, no netns of the pod shows it
};

struct AttributionRow {
  std::string pod_namespace;
  std::string pod_name;
  std::string container;
  std::string pod_uid;  // empty when no log directory names the pod
  std::string resource;
  DeviceKind device_kind = DeviceKind::kUnknown;
  std::string device_id;  // as the kubelet reported it
  std::string pci;        // the function's address, for a PCI function
  std::string pf;         // its PF's address, for a VF
  std::optional<uint32_t> vf_index;
  std::string rdma_device;  // as the host's sysfs shows it; empty when not visible
  std::string netdev;       // the name in `netns` (exclusive) or the host's
  std::string netns;        // the confirmed netns file (exclusive only)
  // The host netdev cabled to the switch for it: the PF's for a VF, the
  // function's own otherwise; how the fabric's links find its switch port.
  std::string uplink;
  // A VF's PF's RDMA device(s) as the host's sysfs shows them; empty
  // otherwise. Joins the PF's counters and its VF stats to the VF's pod.
  std::string pf_device;
  AttributionMode mode = AttributionMode::kUnconfirmed;
  bool operator==(const AttributionRow&) const = default;
};

// What could not be attributed, and why.
struct AttributionCounters {
  uint64_t pods_without_uid = 0;       // no /var/log/pods directory for it
  uint64_t pods_with_ambiguous_uid = 0;  // several, none told apart by a netns
  uint64_t pods_without_netns = 0;     // UID known, no netns of its own, not hostNetwork
  uint64_t netns_of_several_pods = 0;  // never attributed to any of them
  uint64_t netns_of_no_pod = 0;
  uint64_t netns_unreadable = 0;       // the netdev lookup failed
  uint64_t devices_unconfirmed = 0;    // rows with mode unconfirmed
  uint64_t devices_not_in_sysfs = 0;   // a PCI function sysfs does not list
  uint64_t devices_not_network = 0;    // GPUs and MIG instances: skipped
  uint64_t devices_unknown = 0;        // IDs no plugin form fits: skipped
  bool operator==(const AttributionCounters&) const = default;
};

struct Attribution {
  std::vector<AttributionRow> rows;  // in the kubelet's order
  AttributionCounters unattributed;
};

// The node facts the join reads.
struct NodeFacts {
  std::vector<PodAssignment> pods;        // PodResourcesClient::list()
  std::vector<PodIdentity> identities;    // scanPodLogDirs()
  PodNetnsScan netns;                     // scanPodNetns()
  std::vector<PhysicalFunction> sriov;    // SriovSysfs::physicalFunctions()
};

// listNetnsNetdevs in production; a table in tests.
using NetnsNetdevLookup = std::function<Result<std::vector<NetnsNetdev>>(const std::string& netns_path)>;

Attribution attributeDevices(const NodeFacts& facts, const NetnsNetdevLookup& netdevs_in);

// "exclusive", "host-network", "shared", "unconfirmed".
std::string_view attributionModeName(AttributionMode mode);

}  // namespace rdmagw::southbound::k8s
