#pragma once
// Which pod each network namespace on the node belongs to, from the node
// alone. Container runtimes pin a pod sandbox's netns as a file under a
// known directory (containerd and CRI-O: /var/run/netns, dockershim:
// /var/run/docker/netns); the processes inside a netns share its inode
// (/proc/<pid>/ns/net), and each process's cgroup names its pod. A netns
// holding processes of several pods, or of none, is reported as such: a
// sandbox's owner is never guessed. Processes in PID 1's netns that belong
// to a pod are hostNetwork pods, reported with their UID. Reading PID 1's
// netns takes ptrace-read rights over it (CAP_SYS_PTRACE when PID 1 holds
// capabilities we lack, as in a confined container): without them the scan
// still finds every sandbox, and says hostNetwork pods are unknown.
//
// Only stat(), readdir and small reads: no fork, no setns. Every root is
// configurable so a test can hand in a /proc-shaped tree.

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "models/status.h"

namespace rdmagw::southbound::k8s {

struct PodNetnsOptions {
  std::string proc_root = "/proc";
  std::vector<std::string> netns_dirs = {"/var/run/netns", "/var/run/docker/netns"};
  // The host's netns; empty: <proc_root>/1/ns/net.
  std::string host_netns_file;
};

// A namespace file's identity: what stat() says of it, device and inode.
struct NetnsId {
  uint64_t device = 0;
  uint64_t inode = 0;
  bool operator==(const NetnsId&) const = default;
  auto operator<=>(const NetnsId&) const = default;
};

enum class NetnsOwnership { kOnePod, kSeveralPods, kNoPod };

struct PodSandboxNetns {
  std::string path;  // the pinned file, e.g. /var/run/netns/cni-1234...
  NetnsId id;
  NetnsOwnership ownership = NetnsOwnership::kNoPod;
  std::vector<std::string> pod_uids;  // sorted, distinct; one for kOnePod
  std::vector<int> pids;              // the processes found inside, sorted
};

struct HostNetworkPod {
  std::string pod_uid;
  std::vector<int> pids;  // sorted
};

struct PodNetnsScan {
  std::optional<NetnsId> host_netns;  // nullopt: unreadable, see errors
  std::vector<PodSandboxNetns> sandboxes;        // sorted by path
  std::vector<HostNetworkPod> host_network_pods;  // sorted by UID; empty without host_netns
  // What could not be read, counted: processes and netns files that went
  // during the scan (normal), unreadable ones, and cgroup texts that are
  // not cgroup text.
  uint64_t processes_gone = 0;
  uint64_t netns_files_gone = 0;
  uint64_t processes_unreadable = 0;
  uint64_t cgroups_unreadable = 0;
  uint64_t netns_files_unreadable = 0;
  std::vector<std::string> errors;  // the first few problems, one line each
};

// ioError when proc_root cannot be listed; a netns directory
// that does not exist is not an error (that runtime is not installed).
Result<PodNetnsScan> scanPodNetns(const PodNetnsOptions& options = {});

std::string_view netnsOwnershipName(NetnsOwnership ownership);

}  // namespace rdmagw::southbound::k8s
