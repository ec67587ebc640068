#pragma once
// What the kubelet says a node's pods were given, as plain structs: the
// collectors that attribute counters to pods read these and never see
// protobuf. Only device plugin devices are carried for now; the kubelet's
// CPU, memory and DRA assignments are not needed to place an RDMA device.

#include <cstdint>
#include <string>
#include <vector>

#include "southbound/k8s/device_id.h"

namespace rdmagw::southbound::k8s {

// The devices one resource (e.g. "rdma/hca_shared_devices_a") gave a
// container, or, in the allocatable list, that the node can hand out.
struct AssignedDevices {
  std::string resource_name;
  std::vector<DeviceId> devices;
  std::vector<int64_t> numa_nodes;  // empty when the plugin reports no topology
  bool operator==(const AssignedDevices&) const = default;
};

struct ContainerAssignment {
  std::string name;
  std::vector<AssignedDevices> devices;
  bool operator==(const ContainerAssignment&) const = default;
};

struct PodAssignment {
  std::string pod_namespace;
  std::string pod_name;
  std::vector<ContainerAssignment> containers;
  bool operator==(const PodAssignment&) const = default;
};

}  // namespace rdmagw::southbound::k8s
