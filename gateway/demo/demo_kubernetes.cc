#include "gateway/demo/demo_kubernetes.h"

#include <filesystem>

namespace rdmagw::gateway {

Status DemoKubernetes::start(const std::string& dir, const sim::Fabric& fabric, GatewayConfig& cfg) {
  for (const sim::Host& host : fabric.hosts()) {
    auto node = std::make_unique<sim::SimKubernetesNode>((std::filesystem::path(dir) / host.name).string(), host);
    const std::vector<sim::SimPod> pods = sim::SimKubernetesNode::workerPods(host);
    for (size_t i = 0; i < pods.size() && i < host.devices.size(); ++i) {
      pod_of_endpoint_[host.name + ":" + host.devices[i].name] = pods[i].pod_namespace + "/" + pods[i].name;
    }
    if (Status s = node->start(); !s.isOk()) return s;
    if (Status s = node->setPods(pods); !s.isOk()) return s;
    const sim::SimNodePaths paths = node->paths();
    for (TargetConfig& t : cfg.targets) {
      if (t.name != host.name || t.kind != "rdma-host") continue;
      t.kubernetes.enabled = true;
      t.kubernetes.kubelet_socket = paths.kubelet_socket;
      t.kubernetes.pod_logs_dir = paths.pod_logs_dir;
      t.kubernetes.proc_root = paths.proc_root;
      t.kubernetes.netns_dirs = {paths.netns_dir};
      t.kubernetes.host_netns_file = paths.host_netns_file;
      t.kubernetes.sysfs_root = paths.sysfs_root;
    }
    nodes_.push_back(std::move(node));
  }
  return Status::ok();
}

void DemoKubernetes::stop() {
  for (auto& node : nodes_) node->stop();
}

std::string DemoKubernetes::howTo(const std::string& gnmi_address, const std::string& receiver) const {
  if (pod_of_endpoint_.empty()) return "";
  auto on_receiver = pod_of_endpoint_.find(receiver);
  const std::string pod =
      on_receiver != pod_of_endpoint_.end() ? on_receiver->second : pod_of_endpoint_.begin()->second;
  std::string out = "rdmagw demo: kubernetes: " + std::to_string(pod_of_endpoint_.size()) +
                    " hostNetwork pod(s) on a PF and " + std::to_string(nodes_.size()) + " on a VF, on " +
                    std::to_string(nodes_.size()) +
                    " simulated node(s), each device's pod in /metrics, gNMI and SNMP\n";
  if (!gnmi_address.empty()) {
    out += "rdmagw demo: kubernetes: why is " + pod +
           (on_receiver != pod_of_endpoint_.end() ? " (the scenario's receiver)" : "") + " slow: rdmagw fabric --pod " +
           pod + " --address " + gnmi_address + " --insecure\n";
  }
  return out;
}

}  // namespace rdmagw::gateway
