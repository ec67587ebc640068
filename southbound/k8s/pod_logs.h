#pragma once
// Pod identities from the kubelet's log directories: it names each pod's
// /var/log/pods/ directory "<namespace>_<name>_<uid>". Namespace names are
// DNS-1123 labels and pod names DNS-1123 subdomains, neither of which may
// hold '_', so the name splits into exactly three fields. This is the one
// node-local place that ties a pod's UID (what its cgroup says) to the
// namespace and name the kubelet's PodResources API reports.

#include <cstdint>
#include <map>
#include <string>
#include <string_view>
#include <vector>

#include "models/status.h"

namespace rdmagw::southbound::k8s {

inline constexpr std::string_view kKubeletPodLogsDir = "/var/log/pods";

struct PodIdentity {
  std::string pod_namespace;
  std::string pod_name;
  std::string pod_uid;
  bool operator==(const PodIdentity&) const = default;
};

struct PodLogScan {
  std::vector<PodIdentity> pods;  // sorted by namespace, name, uid
  // Entries that are not a pod's directory, counted by why: "not a
  // directory", "not namespace_name_uid", "bad namespace", "bad pod name",
  // "bad uid".
  std::map<std::string, uint64_t> rejected;
};

// One directory name; invalidArgument saying which field is wrong (the
// message starts with the reason `rejected` counts it under).
Result<PodIdentity> podFromLogDirName(std::string_view name);

// Every entry of `pod_logs_dir`; ioError when the directory cannot be read.
Result<PodLogScan> scanPodLogDirs(const std::string& pod_logs_dir = std::string(kKubeletPodLogsDir));

// DNS-1123: a label is 1-63 of [a-z0-9-], alphanumeric at both ends; a
// subdomain is 1-253 characters of dot-separated labels.
bool isDns1123Label(std::string_view text);
bool isDns1123Subdomain(std::string_view text);

}  // namespace rdmagw::southbound::k8s
