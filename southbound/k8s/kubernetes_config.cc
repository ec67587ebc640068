#include "southbound/k8s/kubernetes_config.h"

namespace rdmagw::southbound::k8s {

namespace {

Status absolute(const std::string& path, const std::string& what) {
  if (path.empty() || path.front() != '/') {
    return Status::invalidArgument("kubernetes." + what + " must be an absolute path, not '" + path + "'");
  }
  return Status::ok();
}

}  // namespace

Status KubernetesConfig::validate() const {
  if (!enabled) return Status::ok();
  Status st = absolute(kubelet_socket, "kubelet_socket");
  if (st.isOk()) st = absolute(pod_logs_dir, "pod_logs_dir");
  if (st.isOk()) st = absolute(proc_root, "proc_root");
  if (st.isOk() && !host_netns_file.empty()) st = absolute(host_netns_file, "host_netns_file");
  if (st.isOk() && !sysfs_root.empty()) st = absolute(sysfs_root, "sysfs_root");
  for (const std::string& dir : netns_dirs) {
    if (st.isOk()) st = absolute(dir, "netns_dirs");
  }
  if (!st.isOk()) return st;
  if (vf_stats != "auto" && vf_stats != "on" && vf_stats != "off") {
    return Status::invalidArgument("kubernetes.vf_stats must be auto, on or off, not '" + vf_stats + "'");
  }
  if (netns_dirs.empty()) return Status::invalidArgument("kubernetes.netns_dirs lists no directory");
  if (kubelet_timeout < std::chrono::milliseconds(100)) {
    return Status::invalidArgument("kubernetes.kubelet_timeout must be at least 100ms");
  }
  if (qp_counters != QpCountersMode::kOff && qp_counters != QpCountersMode::kRead &&
      qp_counters != QpCountersMode::kAuto) {
    return Status::invalidArgument("kubernetes.qp_counters must be off, read or auto");
  }
  return Status::ok();
}

}  // namespace rdmagw::southbound::k8s
