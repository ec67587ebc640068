#include "southbound/k8s/pod_cgroup.h"

#include <algorithm>
#include <cctype>
#include <vector>

namespace rdmagw::southbound::k8s {
namespace {

using PodResult = Result<std::optional<PodCgroup>>;

bool isHex(std::string_view text) {
  return !text.empty() &&
         std::all_of(text.begin(), text.end(), [](unsigned char c) { return std::isxdigit(c) != 0; });
}

bool startsWith(std::string_view text, std::string_view prefix) { return text.substr(0, prefix.size()) == prefix; }

bool endsWith(std::string_view text, std::string_view suffix) {
  return text.size() >= suffix.size() && text.substr(text.size() - suffix.size()) == suffix;
}

std::vector<std::string_view> splitPath(std::string_view path) {
  std::vector<std::string_view> parts;
  size_t start = 0;
  while (start <= path.size()) {
    const size_t slash = std::min(path.find('/', start), path.size());
    if (slash > start) parts.push_back(path.substr(start, slash - start));
    start = slash + 1;
  }
  return parts;
}

// Container IDs are hex (64 digits from containerd, CRI-O and docker); a
// shorter one is accepted, an empty or non-hex one is not an ID.
Status readContainer(std::string_view component, PodCgroup& pod) {
  struct Scope {
    std::string_view prefix;
    ContainerRuntime runtime;
  };
  // crio-conmon- before crio-: the longer prefix decides.
  static constexpr Scope kScopes[] = {{"cri-containerd-", ContainerRuntime::kContainerd},
                                      {"crio-conmon-", ContainerRuntime::kCrioConmon},
                                      {"crio-", ContainerRuntime::kCrio},
                                      {"docker-", ContainerRuntime::kDocker}};
  std::string_view id = component;
  if (endsWith(id, ".scope")) id.remove_suffix(6);
  pod.runtime = ContainerRuntime::kUnnamed;
  for (const Scope& scope : kScopes) {
    if (startsWith(id, scope.prefix)) {
      id.remove_prefix(scope.prefix.size());
      pod.runtime = scope.runtime;
      break;
    }
  }
  if (!isHex(id)) {
    pod.runtime = ContainerRuntime::kNone;
    return Status::corrupt("unreadable container cgroup \"" + std::string(component) + "\"");
  }
  pod.container_id = std::string(id);
  return Status::ok();
}

Status readUid(std::string_view text, PodCgroup& pod) {
  std::string uid(text);
  std::replace(uid.begin(), uid.end(), '_', '-');
  if (!isPodUid(uid)) return Status::corrupt("malformed pod UID \"" + std::string(text) + "\"");
  pod.pod_uid = std::move(uid);
  return Status::ok();
}

// "<prefix>kubepods[-burstable|-besteffort]-pod<uid>.slice", prefix empty
// or ending in '-'. nullopt: not a pod slice; an error: a pod slice whose
// UID is unreadable.
std::optional<Status> readSystemdPodSlice(std::string_view component, PodCgroup& pod) {
  if (!endsWith(component, ".slice")) return std::nullopt;
  struct Marker {
    std::string_view text;
    QosClass qos;
  };
  static constexpr Marker kMarkers[] = {{"kubepods-burstable-pod", QosClass::kBurstable},
                                        {"kubepods-besteffort-pod", QosClass::kBestEffort},
                                        {"kubepods-pod", QosClass::kGuaranteed}};
  for (const Marker& marker : kMarkers) {
    const size_t at = component.find(marker.text);
    if (at == std::string_view::npos || (at > 0 && component[at - 1] != '-')) continue;
    pod.qos = marker.qos;
    std::string_view uid = component.substr(at + marker.text.size());
    uid.remove_suffix(6);  // ".slice"
    return readUid(uid, pod);
  }
  return std::nullopt;
}

// cgroupfs: "pod<uid>" directly under "kubepods" or "kubepods/<qos>".
std::optional<Status> readCgroupfsPodDir(const std::vector<std::string_view>& parts, size_t i, PodCgroup& pod) {
  if (i == 0 || !startsWith(parts[i], "pod")) return std::nullopt;
  if (parts[i - 1] == "kubepods") {
    pod.qos = QosClass::kGuaranteed;
  } else if (i >= 2 && parts[i - 2] == "kubepods" && parts[i - 1] == "burstable") {
    pod.qos = QosClass::kBurstable;
  } else if (i >= 2 && parts[i - 2] == "kubepods" && parts[i - 1] == "besteffort") {
    pod.qos = QosClass::kBestEffort;
  } else {
    return std::nullopt;
  }
  return readUid(parts[i].substr(3), pod);
}

}  // namespace

bool isPodUid(std::string_view text) {
  if (text.size() == 32) return isHex(text);
  if (text.size() != 36) return false;
  for (size_t i = 0; i < text.size(); ++i) {
    const bool dash_here = i == 8 || i == 13 || i == 18 || i == 23;
    if (dash_here ? text[i] != '-' : std::isxdigit(static_cast<unsigned char>(text[i])) == 0) return false;
  }
  return true;
}

PodResult podFromCgroupPath(std::string_view cgroup_path) {
  if (cgroup_path.empty() || cgroup_path.front() != '/') {
    return Status::corrupt("cgroup path \"" + std::string(cgroup_path) + "\" does not start with '/'");
  }
  const std::vector<std::string_view> parts = splitPath(cgroup_path);
  for (size_t i = 0; i < parts.size(); ++i) {
    PodCgroup pod;
    std::optional<Status> found = readSystemdPodSlice(parts[i], pod);
    if (!found) found = readCgroupfsPodDir(parts, i, pod);
    if (!found) continue;
    if (!found->isOk()) return *found;
    if (i + 1 < parts.size()) {
      if (Status s = readContainer(parts[i + 1], pod); !s.isOk()) return s;
    }
    return std::optional<PodCgroup>(std::move(pod));
  }
  return std::optional<PodCgroup>();
}

PodResult podFromCgroupText(std::string_view text) {
  std::optional<PodCgroup> result;
  size_t line_number = 0;
  size_t lines_read = 0;
  size_t start = 0;
  while (start < text.size()) {
    const size_t end = std::min(text.find('\n', start), text.size());
    const std::string_view line = text.substr(start, end - start);
    start = end + 1;
    ++line_number;
    if (line.empty()) continue;
    const std::string where = "line " + std::to_string(line_number) + ": ";
    const size_t first = line.find(':');
    const size_t second = first == std::string_view::npos ? first : line.find(':', first + 1);
    const std::string_view hierarchy = second == std::string_view::npos ? line : line.substr(0, first);
    const bool numbered = !hierarchy.empty() && std::all_of(hierarchy.begin(), hierarchy.end(), [](unsigned char c) {
      return std::isdigit(c) != 0;
    });
    if (second == std::string_view::npos || !numbered) {
      return Status::corrupt(where + "not \"hierarchy-ID:controllers:path\"");
    }
    PodResult pod = podFromCgroupPath(line.substr(second + 1));
    if (!pod.isOk()) return Status::corrupt(where + pod.status().message());
    ++lines_read;
    if (!pod.value()) continue;
    if (!result) {
      result = std::move(pod.value());
    } else if (result->pod_uid != pod.value()->pod_uid) {
      return Status::corrupt(where + "pod " + pod.value()->pod_uid + " but an earlier line names " + result->pod_uid);
    } else if (result->runtime == ContainerRuntime::kNone) {
      result = std::move(pod.value());  // a later controller may name the container
    }
  }
  if (lines_read == 0) return Status::corrupt("no cgroup lines");
  return result;
}

std::string_view qosClassName(QosClass qos) {
  switch (qos) {
    case QosClass::kGuaranteed:
      return "Guaranteed";
    case QosClass::kBurstable:
      return "Burstable";
    case QosClass::kBestEffort:
      return "BestEffort";
  }
  return "BestEffort";
}

}  // namespace rdmagw::southbound::k8s
