#pragma once
// `rdmagw-demo --kubernetes`: every simulated RDMA host is also a Kubernetes
// node (sim/k8s/sim_node.h): a kubelet serving PodResources and one
// hostNetwork training pod per RDMA device, and the host's target gets a
// kubernetes: block on those files, so /metrics, gNMI and SNMP name each
// device's pod and `rdmagw fabric --pod` finds its switch port.

#include <map>
#include <memory>
#include <string>
#include <vector>

#include "gateway/config/config.h"
#include "sim/fabric.h"
#include "sim/k8s/sim_node.h"

namespace rdmagw::gateway {

class DemoKubernetes {
 public:
  // Starts a node for each host of `fabric` whose tree is under `dir`, and
  // turns attribution on for the matching rdma-host targets of `cfg`.
  Status start(const std::string& dir, const sim::Fabric& fabric, GatewayConfig& cfg);
  void stop();

  // The lines the demo prints: the pods, and the one on the scenario's
  // receiver (`receiver`: "host01:mlx5_0", empty without a scenario).
  std::string howTo(const std::string& gnmi_address, const std::string& receiver) const;

 private:
  std::vector<std::unique_ptr<sim::SimKubernetesNode>> nodes_;
  std::map<std::string, std::string> pod_of_endpoint_;  // "host01:mlx5_0" -> "training/host01-worker-0"
};

}  // namespace rdmagw::gateway
