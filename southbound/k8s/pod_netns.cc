#include "southbound/k8s/pod_netns.h"

#include <sys/stat.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <filesystem>
#include <map>
#include <optional>
#include <set>
#include <system_error>

#include "southbound/k8s/pod_cgroup.h"
#include "southbound/kernel_text.h"

namespace rdmagw::southbound::k8s {
namespace {

namespace fs = std::filesystem;

constexpr size_t kMaxErrors = 8;

void noteError(PodNetnsScan& scan, std::string error) {
  if (scan.errors.size() < kMaxErrors) scan.errors.push_back(std::move(error));
}

// stat() follows /proc's magic link to the namespace itself (nsfs), and a
// pinned netns file is a bind mount of the same inode.
std::optional<NetnsId> statNetns(const std::string& path, int& error_number) {
  struct stat st {};
  if (::stat(path.c_str(), &st) != 0) {
    error_number = errno;
    return std::nullopt;
  }
  return NetnsId{static_cast<uint64_t>(st.st_dev), static_cast<uint64_t>(st.st_ino)};
}

std::optional<int> pidOf(const std::string& name) {
  if (name.empty() || name.size() > 9 || !std::all_of(name.begin(), name.end(), [](char c) {
        return c >= '0' && c <= '9';
      })) {
    return std::nullopt;
  }
  return std::stoi(name);
}

void listSandboxes(const PodNetnsOptions& options, PodNetnsScan& scan) {
  for (const std::string& dir : options.netns_dirs) {
    std::error_code ec;
    fs::directory_iterator it(dir, ec);
    if (ec) {
      if (ec != std::errc::no_such_file_or_directory) noteError(scan, "cannot list " + dir + ": " + ec.message());
      continue;
    }
    for (; it != fs::directory_iterator(); it.increment(ec)) {
      const std::string path = it->path().string();
      int error_number = 0;
      std::optional<NetnsId> id = statNetns(path, error_number);
      if (!id) {
        // The runtime deleted it between the listing and the stat: its pod
        // is going, which is no fault of the scan.
        if (error_number == ENOENT) {
          ++scan.netns_files_gone;
          continue;
        }
        ++scan.netns_files_unreadable;
        noteError(scan, "cannot stat " + path + ": " + std::strerror(error_number));
        continue;
      }
      scan.sandboxes.push_back(PodSandboxNetns{path, *id, NetnsOwnership::kNoPod, {}, {}});
    }
    if (ec) noteError(scan, "cannot list " + dir + ": " + ec.message());
  }
  std::sort(scan.sandboxes.begin(), scan.sandboxes.end(),
            [](const PodSandboxNetns& a, const PodSandboxNetns& b) { return a.path < b.path; });
}

// The pod of one process, or nullopt when it is in none or cannot be read
// (counted).
std::optional<std::string> podUidOf(const std::string& pid_dir, PodNetnsScan& scan) {
  Result<std::string> text = readKernelFile(pid_dir + "/cgroup", KernelFileKind::kProcFile);
  if (!text.isOk()) {
    std::error_code ec;
    if (!fs::exists(pid_dir, ec)) {
      ++scan.processes_gone;
    } else {
      ++scan.processes_unreadable;
      noteError(scan, text.status().message());
    }
    return std::nullopt;
  }
  Result<std::optional<PodCgroup>> pod = podFromCgroupText(*text);
  if (!pod.isOk()) {
    ++scan.cgroups_unreadable;
    noteError(scan, pid_dir + "/cgroup: " + pod.status().message());
    return std::nullopt;
  }
  if (!pod.value()) return std::nullopt;
  return pod.value()->pod_uid;
}

}  // namespace

Result<PodNetnsScan> scanPodNetns(const PodNetnsOptions& options) {
  PodNetnsScan scan;
  int error_number = 0;
  const std::string host_file =
      options.host_netns_file.empty() ? options.proc_root + "/1/ns/net" : options.host_netns_file;
  scan.host_netns = statNetns(host_file, error_number);
  if (!scan.host_netns) {
    noteError(scan, "cannot stat " + host_file + ": " + std::strerror(error_number) +
                        ": hostNetwork pods are not reported");
  }
  listSandboxes(options, scan);

  std::multimap<NetnsId, size_t> sandbox_by_id;
  for (size_t i = 0; i < scan.sandboxes.size(); ++i) sandbox_by_id.emplace(scan.sandboxes[i].id, i);
  std::map<size_t, std::set<std::string>> uids_by_sandbox;
  std::map<std::string, std::vector<int>> host_network_pids;

  std::error_code ec;
  fs::directory_iterator it(options.proc_root, ec);
  if (ec) return Status::ioError("cannot list " + options.proc_root + ": " + ec.message());
  for (; it != fs::directory_iterator(); it.increment(ec)) {
    const std::optional<int> pid = pidOf(it->path().filename().string());
    if (!pid) continue;
    const std::string pid_dir = it->path().string();
    std::optional<NetnsId> id = statNetns(pid_dir + "/ns/net", error_number);
    if (!id) {
      if (error_number == ENOENT || error_number == ESRCH) {
        ++scan.processes_gone;
      } else {
        ++scan.processes_unreadable;
        noteError(scan, "cannot stat " + pid_dir + "/ns/net: " + std::strerror(error_number));
      }
      continue;
    }
    const auto [first, last] = sandbox_by_id.equal_range(*id);
    const bool in_host = scan.host_netns && *id == *scan.host_netns;
    if (first == last && !in_host) continue;  // a netns no runtime pinned: not a sandbox of ours
    const std::optional<std::string> uid = podUidOf(pid_dir, scan);
    for (auto match = first; match != last; ++match) {
      scan.sandboxes[match->second].pids.push_back(*pid);
      if (uid) uids_by_sandbox[match->second].insert(*uid);
    }
    if (in_host && uid) host_network_pids[*uid].push_back(*pid);
  }
  if (ec) return Status::ioError("cannot list " + options.proc_root + ": " + ec.message());

  for (size_t i = 0; i < scan.sandboxes.size(); ++i) {
    PodSandboxNetns& sandbox = scan.sandboxes[i];
    std::sort(sandbox.pids.begin(), sandbox.pids.end());
    const std::set<std::string>& uids = uids_by_sandbox[i];
    sandbox.pod_uids.assign(uids.begin(), uids.end());
    sandbox.ownership = uids.empty()       ? NetnsOwnership::kNoPod
                        : uids.size() == 1 ? NetnsOwnership::kOnePod
                                           : NetnsOwnership::kSeveralPods;
  }
  for (auto& [uid, pids] : host_network_pids) {
    std::sort(pids.begin(), pids.end());
    scan.host_network_pods.push_back(HostNetworkPod{uid, std::move(pids)});
  }
  return scan;
}

std::string_view netnsOwnershipName(NetnsOwnership ownership) {
  switch (ownership) {
    case NetnsOwnership::kOnePod:
      return "one-pod";
    case NetnsOwnership::kSeveralPods:
      return "several-pods";
    case NetnsOwnership::kNoPod:
      return "no-pod";
  }
  return "no-pod";
}

}  // namespace rdmagw::southbound::k8s
