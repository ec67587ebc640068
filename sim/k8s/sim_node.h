#pragma once
// A simulated Kubernetes node beside a simulated RDMA host: what pod
// attribution reads on a real node, written as files the host's tree keeps
// next to its sys/ and served by a FakeKubelet:
//   sys/bus/pci/devices/<addr>   the host's RDMA PFs and their VFs, linked
//                                as drivers/pci/iov.c links them (physfn,
//                                virtfn<N>, infiniband/<dev>, net/<netdev>)
//   k8s/kubelet.sock             PodResources v1, from the pod list below
//   k8s/pods/<ns>_<name>_<uid>   the pod log directories
//   k8s/proc/<pid>/{ns/net,cgroup}  one process per pod, in the host's
//                                netns (hostNetwork): a hard link to
//                                k8s/ns/host, as /proc's ns/net files are
//                                one nsfs inode
//
// Files only, no privilege: the pods are hostNetwork pods, each holding a
// PF or a VF of the host. Pods in network namespaces of their own need real netns
// and root; the tests that need them make them (tests/e2e/k8s/).

#include <memory>
#include <string>
#include <vector>

#include "models/status.h"
#include "sim/device.h"
#include "sim/k8s/fake_kubelet.h"

namespace rdmagw::sim {

struct SimPod {
  std::string pod_namespace, name, uid;
  std::string resource;
  std::vector<std::string> device_ids;  // PCI addresses of PFs or VFs
  int pid = 0;                          // its process under k8s/proc
};

// Where a gateway's `kubernetes:` block finds this node's files.
struct SimNodePaths {
  std::string kubelet_socket, pod_logs_dir, proc_root, netns_dir, host_netns_file, sysfs_root;
};

class SimKubernetesNode {
 public:
  // `host_dir`: the host's directory in the simulated tree (<dir>/<host>).
  // Each PF gets `vfs_per_pf` VFs (at most 6: functions 2..7 of its slot).
  SimKubernetesNode(std::string host_dir, const Host& host, int vfs_per_pf = 2);
  ~SimKubernetesNode();

  // The PCI tree, the node's directories and the kubelet's socket (no pod
  // until setPods).
  Status start();
  void stop();

  // The PF address of the host's device number `i` (0-based), and of its VF `vf`.
  static std::string pfAddress(size_t i);
  static std::string vfAddress(size_t i, int vf);
  // The RDMA device of that VF: numbered after the host's PFs, as mlx5
  // numbers VFs probed after their PFs.
  std::string vfRdmaDevice(size_t i, int vf) const;

  // Replaces the node's pods: log directories, processes and the kubelet's
  // answer follow. Pods without a pid get one. After start().
  Status setPods(std::vector<SimPod> pods);
  const std::vector<SimPod>& pods() const { return pods_; }
  SimNodePaths paths() const;

  // One hostNetwork pod per device of the host, "training/<host>-worker-<i>"
  // holding device i's PF, and "training/<host>-vf-worker-0" holding the
  // first VF of device 0 (needs vfs_per_pf >= 1).
  static std::vector<SimPod> workerPods(const Host& host);

 private:
  Status writePciTree();
  std::string dir_;
  Host host_;
  int vfs_per_pf_;
  std::unique_ptr<FakeKubelet> kubelet_;
  std::vector<SimPod> pods_;
  int next_pid_ = 1000;
};

}  // namespace rdmagw::sim
