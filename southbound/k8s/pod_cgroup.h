#pragma once
// Which Kubernetes pod a process belongs to, read from the text of its
// /proc/<pid>/cgroup. The kubelet puts every container of a pod under one
// cgroup named after the pod's UID, inside one per QoS class:
//
//   cgroupfs driver (v1 and v2): /kubepods/burstable/pod<uid>/<container-id>
//                                /kubepods/pod<uid>/...  (Guaranteed)
//   systemd driver:  /kubepods.slice/kubepods-besteffort.slice/
//                    kubepods-besteffort-pod<uid, '-' as '_'>.slice/
//                    cri-containerd-<id>.scope  (crio-<id>, docker-<id>)
//
// The systemd names carry their QoS class in the pod slice itself, so they
// are read wherever they sit (a kubelet run under a prefix such as
// kubelet.slice/kubelet-kubepods.slice, or a path seen from another cgroup
// namespace). A cgroupfs pod directory counts only directly under kubepods
// or its QoS directory: "pod<uid>" elsewhere is someone else's name.

#include <optional>
#include <string>
#include <string_view>

#include "models/status.h"

namespace rdmagw::southbound::k8s {

enum class QosClass { kGuaranteed, kBurstable, kBestEffort };

enum class ContainerRuntime {
  kNone,        // the process sits in the pod's cgroup, not a container's
  kContainerd,  // cri-containerd-<id>.scope
  kCrio,        // crio-<id>.scope, or crio-<id> under cgroupfs
  kCrioConmon,  // crio-conmon-<id>.scope: CRI-O's monitor, not the container
  kDocker,      // docker-<id>.scope
  kUnnamed,     // cgroupfs: the bare ID, which does not say whose it is
};

struct PodCgroup {
  std::string pod_uid;  // with dashes, as the API server spells it
  QosClass qos = QosClass::kBestEffort;
  ContainerRuntime runtime = ContainerRuntime::kNone;
  std::string container_id;  // empty when runtime is kNone
  bool operator==(const PodCgroup&) const = default;
};

// The pod of a process from its whole /proc/<pid>/cgroup text (every
// line, v1 and v2). nullopt: the process is in no pod (system.slice,
// user.slice, "/"). corrupt: a line that is not "ID:controllers:/path", a
// pod cgroup whose UID or container part cannot be read, or lines that
// name different pods.
Result<std::optional<PodCgroup>> podFromCgroupText(std::string_view proc_pid_cgroup);

// The same for one cgroup path ("/kubepods/...").
Result<std::optional<PodCgroup>> podFromCgroupPath(std::string_view cgroup_path);

// "Guaranteed", "Burstable", "BestEffort", as the pod's status.qosClass.
std::string_view qosClassName(QosClass qos);

// A pod UID: a dashed UUID (8-4-4-4-12 hex) or, for a static pod, the
// kubelet's 32-hex-digit hash of its manifest.
bool isPodUid(std::string_view text);

}  // namespace rdmagw::southbound::k8s
