#include "southbound/k8s/pod_logs.h"

#include <algorithm>
#include <filesystem>
#include <system_error>
#include <tuple>

#include "southbound/k8s/pod_cgroup.h"

namespace rdmagw::southbound::k8s {
namespace {

bool isLowerAlnum(char c) { return (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9'); }

// The reason a rejection is counted under: the message up to its colon.
std::string reasonOf(const Status& status) {
  const std::string& message = status.message();
  return message.substr(0, message.find(':'));
}

}  // namespace

bool isDns1123Label(std::string_view text) {
  if (text.empty() || text.size() > 63) return false;
  if (!isLowerAlnum(text.front()) || !isLowerAlnum(text.back())) return false;
  return std::all_of(text.begin(), text.end(), [](char c) { return isLowerAlnum(c) || c == '-'; });
}

bool isDns1123Subdomain(std::string_view text) {
  if (text.empty() || text.size() > 253) return false;
  size_t start = 0;
  while (true) {
    const size_t dot = std::min(text.find('.', start), text.size());
    if (!isDns1123Label(text.substr(start, dot - start))) return false;
    if (dot == text.size()) return true;
    start = dot + 1;
  }
}

Result<PodIdentity> podFromLogDirName(std::string_view name) {
  const size_t first = name.find('_');
  const size_t second = first == std::string_view::npos ? first : name.find('_', first + 1);
  if (second == std::string_view::npos || name.find('_', second + 1) != std::string_view::npos) {
    return Status::invalidArgument("not namespace_name_uid: \"" + std::string(name) + "\"");
  }
  PodIdentity pod{std::string(name.substr(0, first)), std::string(name.substr(first + 1, second - first - 1)),
                  std::string(name.substr(second + 1))};
  if (!isDns1123Label(pod.pod_namespace)) {
    return Status::invalidArgument("bad namespace: \"" + pod.pod_namespace + "\" in \"" + std::string(name) + "\"");
  }
  if (!isDns1123Subdomain(pod.pod_name)) {
    return Status::invalidArgument("bad pod name: \"" + pod.pod_name + "\" in \"" + std::string(name) + "\"");
  }
  if (!isPodUid(pod.pod_uid)) {
    return Status::invalidArgument("bad uid: \"" + pod.pod_uid + "\" in \"" + std::string(name) + "\"");
  }
  return pod;
}

Result<PodLogScan> scanPodLogDirs(const std::string& pod_logs_dir) {
  namespace fs = std::filesystem;
  std::error_code ec;
  fs::directory_iterator it(pod_logs_dir, ec);
  if (ec) return Status::ioError("cannot list " + pod_logs_dir + ": " + ec.message());
  PodLogScan scan;
  for (; it != fs::directory_iterator(); it.increment(ec)) {
    std::error_code type_ec;
    if (!it->is_directory(type_ec)) {  // follows symlinks, as the kubelet's readers do
      ++scan.rejected["not a directory"];
      continue;
    }
    Result<PodIdentity> pod = podFromLogDirName(it->path().filename().string());
    if (pod.isOk()) {
      scan.pods.push_back(std::move(pod).value());
    } else {
      ++scan.rejected[reasonOf(pod.status())];
    }
  }
  if (ec) return Status::ioError("cannot list " + pod_logs_dir + ": " + ec.message());
  std::sort(scan.pods.begin(), scan.pods.end(), [](const PodIdentity& a, const PodIdentity& b) {
    return std::tie(a.pod_namespace, a.pod_name, a.pod_uid) < std::tie(b.pod_namespace, b.pod_name, b.pod_uid);
  });
  return scan;
}

}  // namespace rdmagw::southbound::k8s
