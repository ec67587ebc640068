#include "sim/k8s/sim_node.h"

#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <set>
#include <system_error>

namespace rdmagw::sim {
namespace {

namespace fs = std::filesystem;

Status makeDirs(const fs::path& dir) {
  std::error_code ec;
  fs::create_directories(dir, ec);
  return ec ? Status::ioError(dir.string() + ": " + ec.message()) : Status::ok();
}

Status writeText(const fs::path& file, const std::string& text) {
  std::ofstream out(file, std::ios::trunc);
  out << text;
  out.close();
  return out ? Status::ok() : Status::ioError(file.string() + ": cannot write");
}

// Replaces whatever is at `link` with a symlink to `to`.
Status relink(const fs::path& to, const fs::path& link) {
  std::error_code ec;
  fs::remove(link, ec);
  fs::create_directory_symlink(to, link, ec);
  return ec ? Status::ioError(link.string() + ": " + ec.message()) : Status::ok();
}

// A UID that stays the same for the same pod on every run (FNV-1a of its
// names), in the kubelet's 8-4-4-4-12 form.
std::string stableUid(const std::string& seed) {
  uint64_t h = 1469598103934665603ull;
  for (char c : seed) h = (h ^ uint8_t(c)) * 1099511628211ull;
  char buf[40];
  std::snprintf(buf, sizeof buf, "5eed%04x-%04x-4%03x-8%03x-%012llx", unsigned(h >> 48), unsigned(h >> 32) & 0xffff,
                unsigned(h >> 20) & 0xfff, unsigned(h >> 8) & 0xfff,
                static_cast<unsigned long long>(h & 0xffffffffffffull));
  return buf;
}

// The kubelet's cgroup v2 line for a pod's container (systemd driver,
// burstable QoS), as pod_cgroup.h reads it.
std::string cgroupLine(const std::string& uid) {
  std::string underscored = uid;
  for (char& c : underscored) c = c == '-' ? '_' : c;
  return "0::/kubepods.slice/kubepods-burstable.slice/kubepods-burstable-pod" + underscored +
         ".slice/cri-containerd-5eed.scope\n";
}

}  // namespace

SimKubernetesNode::SimKubernetesNode(std::string host_dir, const Host& host, int vfs_per_pf)
    : dir_(std::move(host_dir)),
      host_(host),
      vfs_per_pf_(std::clamp(vfs_per_pf, 0, 6)),
      kubelet_(std::make_unique<FakeKubelet>(dir_ + "/k8s/kubelet.sock")) {}

SimKubernetesNode::~SimKubernetesNode() { stop(); }

std::string SimKubernetesNode::pfAddress(size_t i) {
  char buf[16];
  std::snprintf(buf, sizeof buf, "0000:%02zx:00.0", 0x3b + i);
  return buf;
}

std::string SimKubernetesNode::vfAddress(size_t i, int vf) {
  char buf[16];
  std::snprintf(buf, sizeof buf, "0000:%02zx:00.%d", 0x3b + i, 2 + vf);
  return buf;
}

std::string SimKubernetesNode::vfRdmaDevice(size_t i, int vf) const {
  return "mlx5_" + std::to_string(host_.devices.size() + i * size_t(vfs_per_pf_) + size_t(vf));
}

SimNodePaths SimKubernetesNode::paths() const {
  const std::string k8s = dir_ + "/k8s";
  return {k8s + "/kubelet.sock", k8s + "/pods", k8s + "/proc", k8s + "/netns", k8s + "/ns/host", dir_ + "/sys"};
}

// VFs on every PF: a PF without virtfn links is no SR-IOV PF to the
// attribution, and real RDMA NICs on Kubernetes nodes have them.
Status SimKubernetesNode::writePciTree() {
  const fs::path sys = fs::path(dir_) / "sys";
  const fs::path bus = sys / "bus/pci/devices";
  const fs::path devices = sys / "devices/pci0000:3a";
  if (Status s = makeDirs(bus); !s.isOk()) return s;
  for (size_t i = 0; i < host_.devices.size(); ++i) {
    const Device& dev = host_.devices[i];
    const std::string pf = pfAddress(i);
    for (const fs::path& d : {devices / pf / "infiniband" / dev.name, devices / pf / "net" / dev.netdev}) {
      if (Status s = makeDirs(d); !s.isOk()) return s;
    }
    if (Status s = relink("../../../devices/pci0000:3a/" + pf, bus / pf); !s.isOk()) return s;
    for (int vf = 0; vf < vfs_per_pf_; ++vf) {
      const std::string addr = vfAddress(i, vf);
      // In the host's netns until a pod's netns takes it: its RDMA device
      // and netdev show under its PCI function, as mlx5 names them.
      for (const fs::path& d : {devices / addr / "infiniband" / vfRdmaDevice(i, vf),
                                devices / addr / "net" / (dev.netdev + "v" + std::to_string(vf))}) {
        if (Status s = makeDirs(d); !s.isOk()) return s;
      }
      if (Status s = relink("../../../devices/pci0000:3a/" + addr, bus / addr); !s.isOk()) return s;
      if (Status s = relink("../" + addr, devices / pf / ("virtfn" + std::to_string(vf))); !s.isOk()) return s;
      if (Status s = relink("../" + pf, devices / addr / "physfn"); !s.isOk()) return s;
    }
  }
  return Status::ok();
}

Status SimKubernetesNode::start() {
  const SimNodePaths p = paths();
  for (const std::string& d : {p.pod_logs_dir, p.proc_root, p.netns_dir, dir_ + "/k8s/ns"}) {
    if (Status s = makeDirs(d); !s.isOk()) return s;
  }
  if (Status s = writeText(p.host_netns_file, ""); !s.isOk()) return s;
  if (Status s = writePciTree(); !s.isOk()) return s;
  const std::string why = kubelet_->start();
  return why.empty() ? Status::ok() : Status::unavailable("simulated kubelet: " + why);
}

void SimKubernetesNode::stop() { kubelet_->stop(); }

Status SimKubernetesNode::setPods(std::vector<SimPod> pods) {
  const SimNodePaths p = paths();
  std::error_code ec;
  // Gone pods leave no log directory or process behind.
  std::set<std::string> keep_logs, keep_procs;
  for (SimPod& pod : pods) {
    if (pod.pid == 0) pod.pid = next_pid_++;
    keep_logs.insert(pod.pod_namespace + "_" + pod.name + "_" + pod.uid);
    keep_procs.insert(std::to_string(pod.pid));
  }
  for (const auto& [dir, keep] : {std::pair{p.pod_logs_dir, &keep_logs}, std::pair{p.proc_root, &keep_procs}}) {
    for (const auto& entry : fs::directory_iterator(dir, ec)) {
      if (!keep->count(entry.path().filename().string())) fs::remove_all(entry.path(), ec);
    }
  }
  std::vector<FakePod> served;
  for (const SimPod& pod : pods) {
    if (Status s = makeDirs(fs::path(p.pod_logs_dir) / (pod.pod_namespace + "_" + pod.name + "_" + pod.uid) / "main");
        !s.isOk()) {
      return s;
    }
    const fs::path proc = fs::path(p.proc_root) / std::to_string(pod.pid);
    if (Status s = makeDirs(proc / "ns"); !s.isOk()) return s;
    if (Status s = writeText(proc / "cgroup", cgroupLine(pod.uid)); !s.isOk()) return s;
    fs::remove(proc / "ns/net", ec);
    fs::create_hard_link(p.host_netns_file, proc / "ns/net", ec);
    if (ec) return Status::ioError((proc / "ns/net").string() + ": " + ec.message());
    served.push_back({pod.pod_namespace, pod.name, {{"main", {{pod.resource, pod.device_ids, {0}}}}}});
  }
  pods_ = std::move(pods);
  kubelet_->setPods(std::move(served));
  return Status::ok();
}

std::vector<SimPod> SimKubernetesNode::workerPods(const Host& host) {
  std::vector<SimPod> pods;
  for (size_t i = 0; i < host.devices.size(); ++i) {
    const std::string name = host.name + "-worker-" + std::to_string(i);
    pods.push_back({"training", name, stableUid("training/" + name), "rdma/hca_pf", {pfAddress(i)}, 0});
  }
  // And one on a VF of the first device, where a VF pod's congestion shows:
  // on its PF's counters and its PF's cable.
  if (!host.devices.empty()) {
    const std::string name = host.name + "-vf-worker-0";
    pods.push_back({"training", name, stableUid("training/" + name), "nvidia.com/sriov_rdma_vf", {vfAddress(0, 0)}, 0});
  }
  return pods;
}

}  // namespace rdmagw::sim
