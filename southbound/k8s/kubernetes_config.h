#pragma once
// Where a Kubernetes node keeps what pod attribution reads: the kubelet's
// PodResources socket, the runtimes' pinned network namespaces, the pod log
// directories, /proc and /sys. The defaults are a kubelet's and containerd's
// (CRI-O pins under /var/run/netns too, dockershim under /var/run/docker/netns).

#include <chrono>
#include <string>
#include <vector>

#include "models/status.h"
#include "southbound/k8s/podresources_client.h"

namespace rdmagw::southbound::k8s {

// Per-process QP counters (qp_counters.h): off; read the counters someone
// bound; auto: also set every RDMA port to auto mode per PID at start, which
// changes the device's state for every other reader.
enum class QpCountersMode { kOff, kRead, kAuto };

struct KubernetesConfig {
  bool enabled = false;
  std::string kubelet_socket = std::string(kKubeletPodResourcesSocket);
  std::chrono::milliseconds kubelet_timeout{5000};
  std::vector<std::string> netns_dirs = {"/var/run/netns", "/var/run/docker/netns"};
  std::string pod_logs_dir = "/var/log/pods";
  std::string proc_root = "/proc";
  // The host's netns file; empty: <proc_root>/1/ns/net. A container sees
  // the host's PID 1 only with hostPID.
  std::string host_netns_file;
  // Where the PCI devices' sysfs lives (SR-IOV physfn/virtfn links):
  // the collector's sysfs root unless set.
  std::string sysfs_root;
  // Per-VF traffic statistics from each PF's netdev (IFLA_VF_STATS): "on",
  // "off" or "auto" (on when the PCI devices are read from /sys itself: a
  // copied or simulated tree names netdevs this kernel does not have).
  std::string vf_stats = "auto";
  QpCountersMode qp_counters = QpCountersMode::kOff;

  // Relative paths, an empty socket or netns list, a timeout under 100 ms.
  Status validate() const;
  bool operator==(const KubernetesConfig&) const = default;
};

}  // namespace rdmagw::southbound::k8s
