#pragma once
// `rdmagw fabric --pod NAMESPACE/NAME`: a pod's RDMA devices (the
// attribution's entries under /rdma/devices/device[name]/pods, read from
// every target), the switch port each one's uplink is cabled to (the
// fabric's links), and what the fabric's verdicts say on that path: the
// DCQCN chain of the pod's devices, PFC (pause trees, balance, lossless
// drops) on both ends of each cable, and the RoCE check findings of those
// ports. Only what needs looking at is listed as a problem, so a healthy
// pod's answer is its path and no problem.
//
// Pure: the gNMI replies are handed in, so the join is tested on tables.

#include <string>
#include <vector>

#include "gateway/cli/fabric_view.h"
#include "gnmi.pb.h"

namespace rdmagw::gateway {

// One device attribution entry of a pod container on one target.
struct PodDevice {
  std::string target, device, uid;
  Leaves leaves;  // container, namespace, pod, mode, netdev, uplink, ...
};

// The entries of every pod in a Get of /rdma/devices/device/pods (module
// prefixes ignored); `target` comes from each notification's prefix.
std::vector<PodDevice> podDevicesOf(const ::gnmi::GetResponse& response);

// "ns/name" -> the entries of that pod; a pod name alone matches it in any
// namespace.
std::vector<PodDevice> devicesOfPod(const std::vector<PodDevice>& all, const std::string& pod);

// One cable of the pod's path: the host end (the device's uplink) and the
// switch end, "-" when the fabric knows no link there.
struct PodHop {
  PodDevice device;
  std::string uplink;  // the host netdev the device's traffic leaves by
  std::string peer_target, peer_interface;
};

struct PodProblem {
  std::string where;  // "leaf01 Ethernet1/5 prio 3", "host01 mlx5_0 port 1"
  std::string what;   // "PFC", "DCQCN", "RoCE check"
  std::string verdict;
  std::string detail;
};

struct PodPath {
  std::vector<PodHop> hops;
  std::vector<PodProblem> problems;
};

PodPath podPath(const std::vector<PodDevice>& devices, const FabricView& fabric);

// The tables `rdmagw fabric --pod` prints.
std::string formatPodPath(const std::string& pod, const PodPath& path);

}  // namespace rdmagw::gateway
