// scanPodNetns on the real /proc: a real netns, a process inside it, and
// that process in a real cgroup named as the kubelet names a pod's
// (cgroup v1 pids controller, cgroupfs driver). Needs root and the v1 pids
// hierarchy at /sys/fs/cgroup/pids; skipped with the reason otherwise.
// Everything made is removed at the end, the process killed first.

#include <gtest/gtest.h>
#include <signal.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <filesystem>
#include <string>
#include <vector>

#include "southbound/k8s/pod_cgroup.h"
#include "southbound/k8s/pod_netns.h"
#include "tests/support/test_support.h"

namespace rdmagw::southbound::k8s {
namespace {

namespace fs = std::filesystem;
using rdmagw::testing::runCommand;

constexpr char kPidsRoot[] = "/sys/fs/cgroup/pids";

std::string randomUuid() {
  std::string uuid = rdmagw::testing::readFile("/proc/sys/kernel/random/uuid");
  while (!uuid.empty() && uuid.back() == '\n') uuid.pop_back();
  return uuid;
}

ino_t inodeOf(const std::string& path) {
  struct stat st {};
  return ::stat(path.c_str(), &st) == 0 ? st.st_ino : 0;
}

// What the test made, undone in reverse order whatever happens.
struct NodeState {
  std::string netns_name;
  int sleeper = -1;
  std::vector<fs::path> cgroup_dirs;  // made by us, innermost last
  ~NodeState() {
    if (sleeper > 0) rdmagw::testing::stopChild(sleeper, SIGKILL);
    for (auto it = cgroup_dirs.rbegin(); it != cgroup_dirs.rend(); ++it) ::rmdir(it->c_str());
    if (!netns_name.empty()) runCommand("ip netns del " + netns_name);
  }
};

TEST(PodNetnsNodeTest, FindsTheRealPodOfARealNetns) {
  if (::geteuid() != 0) GTEST_SKIP() << "needs root: creates a netns and a cgroup";
  if (!fs::exists(std::string(kPidsRoot) + "/cgroup.procs")) {
    GTEST_SKIP() << "no cgroup v1 pids hierarchy at " << kPidsRoot << " to place a pod's process in";
  }
  const std::string ip = runCommand("command -v ip").output;
  if (ip.empty()) GTEST_SKIP() << "needs iproute2's ip to build the netns";
  const std::string uid = randomUuid();
  ASSERT_TRUE(isPodUid(uid)) << uid;

  NodeState state;
  state.netns_name = "rdmagw-pn-" + std::to_string(::getpid());
  const rdmagw::testing::CommandResult added = runCommand("ip netns add " + state.netns_name);
  if (added.exit_code != 0) GTEST_SKIP() << "cannot create a netns here: " << added.output;
  const std::string netns_path = "/var/run/netns/" + state.netns_name;

  // Made one level at a time, so only what we created is removed after.
  const std::string container = "3f1b9c2d7e4a5b6c8d9e0f1a2b3c4d5e6f7a8b9c0d1e2f3a4b5c6d7e8f9a0b1c";
  fs::path dir = kPidsRoot;
  for (const std::string& part : std::vector<std::string>{"kubepods", "burstable", "pod" + uid, container}) {
    dir /= part;
    if (fs::exists(dir)) continue;
    ASSERT_EQ(::mkdir(dir.c_str(), 0755), 0) << dir << ": " << std::strerror(errno);
    state.cgroup_dirs.push_back(dir);
  }

  const std::string ip_path = ip.substr(0, ip.find('\n'));
  state.sleeper = rdmagw::testing::spawnLogged({ip_path, "netns", "exec", state.netns_name, "sleep", "60"},
                                               "/dev/null");
  ASSERT_GT(state.sleeper, 0);
  const std::string sleeper_netns = "/proc/" + std::to_string(state.sleeper) + "/ns/net";
  // `ip netns exec` enters the netns, then execs sleep in the same process.
  ASSERT_TRUE(rdmagw::testing::waitUntil([&] { return inodeOf(sleeper_netns) == inodeOf(netns_path); }))
      << "the child never entered " << netns_path;
  ASSERT_TRUE(rdmagw::testing::writeFile((dir / "cgroup.procs").string(), std::to_string(state.sleeper)));

  Result<PodNetnsScan> scan = scanPodNetns(PodNetnsOptions{"/proc", {"/var/run/netns"}, ""});
  ASSERT_TRUE(scan.isOk()) << scan.status().toString();
  const PodSandboxNetns* found = nullptr;
  for (const PodSandboxNetns& sandbox : scan->sandboxes) {
    if (sandbox.path == netns_path) found = &sandbox;
  }
  ASSERT_NE(found, nullptr) << netns_path << " was not listed";
  EXPECT_EQ(found->ownership, NetnsOwnership::kOnePod);
  EXPECT_EQ(found->pod_uids, std::vector<std::string>{uid});
  EXPECT_EQ(found->pids, std::vector<int>{state.sleeper});
  // In a confined container PID 1's netns may be closed to us: then the
  // scan says so, and the sandbox is found all the same.
  if (scan->host_netns) {
    EXPECT_NE(found->id, *scan->host_netns);
  } else {
    ASSERT_FALSE(scan->errors.empty());
    EXPECT_NE(scan->errors[0].find("hostNetwork pods are not reported"), std::string::npos) << scan->errors[0];
  }
}

}  // namespace
}  // namespace rdmagw::southbound::k8s
