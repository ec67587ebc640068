// Pod sandboxes' network namespaces found the way the node shows them, on a
// /proc-shaped tree: a netns and a process inside it are the same inode
// (here: hard links to one file, as /proc's ns/net and a pinned netns are
// the same nsfs inode), and each process's cgroup text names its pod.

#include "southbound/k8s/pod_netns.h"

#include <gtest/gtest.h>
#include <sys/stat.h>
#include <unistd.h>

#include <string>
#include <vector>

#include "tests/southbound/k8s/node_tree.h"
#include "tests/support/test_support.h"

namespace rdmagw::southbound::k8s {
namespace {

using rdmagw::testing::podCgroup;
using rdmagw::testing::ProcTree;
using rdmagw::testing::TempDir;
using rdmagw::testing::writeFile;

constexpr char kPodA[] = "0e1f2a3b-4c5d-4e6f-8a9b-0c1d2e3f4a5b";
constexpr char kPodB[] = "11111111-2222-3333-4444-555555555555";
constexpr char kPodC[] = "22222222-3333-4444-5555-666666666666";
constexpr char kPodHost[] = "33333333-4444-5555-6666-777777777777";

TEST(PodNetnsTest, FindsEachSandboxsPodAndHostNetworkPods) {
  ProcTree tree;
  for (const char* ns : {"a", "shared", "empty", "system", "unpinned", "bad", "docker"}) tree.namespaceFile(ns);
  tree.pin("a", "run/netns/cni-aaaa");
  tree.pin("shared", "run/netns/cni-shared");
  tree.pin("empty", "run/netns/cni-empty");
  tree.pin("system", "run/netns/cni-system");
  tree.pin("bad", "run/netns/cni-bad");
  tree.pin("docker", "run/docker/netns/0123abcd");
  tree.process(1, "host", "0::/init.scope\n");
  tree.process(100, "a", podCgroup(kPodA));  // the sandbox's pause process
  tree.process(101, "a", podCgroup(kPodA));  // a container of the same pod
  tree.process(200, "shared", podCgroup(kPodB));
  tree.process(201, "shared", podCgroup(kPodC));
  tree.process(300, "system", "0::/system.slice/something.service\n");
  tree.process(400, "host", podCgroup(kPodHost));
  tree.process(401, "host", "0::/system.slice/kubelet.service\n");
  tree.process(402, "host", podCgroup(kPodHost));
  tree.process(500, "unpinned", podCgroup(kPodA));  // a netns no runtime pinned
  tree.process(600, "bad", "this is not cgroup text\n");
  tree.process(700, "docker", podCgroup(kPodC));
  ::mkdir(tree.file("proc/800").c_str(), 0755);  // ended: no ns/ left
  ::mkdir(tree.file("proc/self").c_str(), 0755);

  Result<PodNetnsScan> scan = scanPodNetns(tree.options());
  ASSERT_TRUE(scan.isOk()) << scan.status().toString();
  ASSERT_EQ(scan->sandboxes.size(), 6u);
  const auto sandbox = [&](const std::string& rel) -> const PodSandboxNetns& {
    for (const PodSandboxNetns& s : scan->sandboxes) {
      if (s.path == tree.file(rel)) return s;
    }
    static const PodSandboxNetns kNone;
    ADD_FAILURE() << "no sandbox " << rel;
    return kNone;
  };
  EXPECT_EQ(sandbox("run/netns/cni-aaaa").ownership, NetnsOwnership::kOnePod);
  EXPECT_EQ(sandbox("run/netns/cni-aaaa").pod_uids, std::vector<std::string>{kPodA});
  EXPECT_EQ(sandbox("run/netns/cni-aaaa").pids, (std::vector<int>{100, 101}));
  EXPECT_EQ(sandbox("run/netns/cni-shared").ownership, NetnsOwnership::kSeveralPods);
  EXPECT_EQ(sandbox("run/netns/cni-shared").pod_uids, (std::vector<std::string>{kPodB, kPodC}));
  EXPECT_EQ(sandbox("run/netns/cni-empty").ownership, NetnsOwnership::kNoPod);
  EXPECT_TRUE(sandbox("run/netns/cni-empty").pids.empty());
  EXPECT_EQ(sandbox("run/netns/cni-system").ownership, NetnsOwnership::kNoPod);
  EXPECT_EQ(sandbox("run/netns/cni-system").pids, std::vector<int>{300});
  EXPECT_EQ(sandbox("run/netns/cni-bad").ownership, NetnsOwnership::kNoPod);
  EXPECT_EQ(sandbox("run/docker/netns/0123abcd").pod_uids, std::vector<std::string>{kPodC});

  ASSERT_EQ(scan->host_network_pods.size(), 1u);
  EXPECT_EQ(scan->host_network_pods[0].pod_uid, kPodHost);
  EXPECT_EQ(scan->host_network_pods[0].pids, (std::vector<int>{400, 402}));
  EXPECT_EQ(scan->cgroups_unreadable, 1u);
  EXPECT_EQ(scan->processes_gone, 1u);
  ASSERT_FALSE(scan->errors.empty());
  EXPECT_NE(scan->errors[0].find("600/cgroup"), std::string::npos) << scan->errors[0];
}

TEST(PodNetnsTest, MissingRuntimeDirectoriesAreNotErrors) {
  ProcTree tree;
  tree.process(1, "host", "0::/init.scope\n");
  PodNetnsOptions options = tree.options();
  options.netns_dirs = {tree.file("run/no-such-runtime")};
  Result<PodNetnsScan> scan = scanPodNetns(options);
  ASSERT_TRUE(scan.isOk()) << scan.status().toString();
  EXPECT_TRUE(scan->sandboxes.empty());
  EXPECT_TRUE(scan->errors.empty());
}

// A runtime deletes a pod's netns file while the scan lists the directory
// (a dangling link fails the stat the same way): counted as gone, no error,
// the other sandboxes found.
TEST(PodNetnsTest, ANetnsFileDeletedDuringTheScanIsGoneNotAnError) {
  ProcTree tree;
  tree.namespaceFile("a");
  tree.pin("a", "run/netns/cni-aaaa");
  tree.process(1, "host", "0::/init.scope\n");
  tree.process(100, "a", podCgroup(kPodA));
  ASSERT_EQ(::symlink(tree.file("run/netns/deleted-target").c_str(), tree.file("run/netns/cni-going").c_str()), 0);
  Result<PodNetnsScan> scan = scanPodNetns(tree.options());
  ASSERT_TRUE(scan.isOk()) << scan.status().toString();
  ASSERT_EQ(scan->sandboxes.size(), 1u);
  EXPECT_EQ(scan->sandboxes[0].pod_uids, std::vector<std::string>{kPodA});
  EXPECT_EQ(scan->netns_files_gone, 1u);
  EXPECT_EQ(scan->netns_files_unreadable, 0u);
  EXPECT_TRUE(scan->errors.empty()) << scan->errors.front();
}

TEST(PodNetnsTest, WithoutPid1SandboxesAreFoundAndHostNetworkIsUnknown) {
  ProcTree tree;
  tree.namespaceFile("a");
  tree.pin("a", "run/netns/cni-aaaa");
  tree.process(100, "a", podCgroup(kPodA));
  tree.process(400, "host", podCgroup(kPodHost));
  Result<PodNetnsScan> scan = scanPodNetns(tree.options());
  ASSERT_TRUE(scan.isOk()) << scan.status().toString();
  EXPECT_FALSE(scan->host_netns.has_value());
  EXPECT_TRUE(scan->host_network_pods.empty());
  ASSERT_EQ(scan->sandboxes.size(), 1u);
  EXPECT_EQ(scan->sandboxes[0].pod_uids, std::vector<std::string>{kPodA});
  ASSERT_EQ(scan->errors.size(), 1u);
  EXPECT_NE(scan->errors[0].find("/1/ns/net"), std::string::npos) << scan->errors[0];
  EXPECT_NE(scan->errors[0].find("hostNetwork pods are not reported"), std::string::npos);
}

TEST(PodNetnsTest, TheHostNetnsFileCanBeNamed) {
  ProcTree tree;
  tree.process(400, "host", podCgroup(kPodHost));
  PodNetnsOptions options = tree.options();
  options.host_netns_file = tree.file("ns/host");
  Result<PodNetnsScan> scan = scanPodNetns(options);
  ASSERT_TRUE(scan.isOk()) << scan.status().toString();
  ASSERT_EQ(scan->host_network_pods.size(), 1u);
  EXPECT_EQ(scan->host_network_pods[0].pod_uid, kPodHost);
}

TEST(PodNetnsTest, AnUnlistableProcRootIsAnError) {
  Result<PodNetnsScan> scan = scanPodNetns(PodNetnsOptions{"/nonexistent-proc", {}, ""});
  ASSERT_FALSE(scan.isOk());
  EXPECT_EQ(scan.status().code(), Status::Code::kIoError);
  EXPECT_NE(scan.status().message().find("/nonexistent-proc"), std::string::npos);
}

TEST(PodNetnsTest, AFifoForACgroupFileIsAnErrorNotAHang) {
  ProcTree tree;
  tree.namespaceFile("a");
  tree.pin("a", "run/netns/cni-aaaa");
  tree.process(1, "host", "0::/init.scope\n");
  tree.process(100, "a", "");
  ASSERT_EQ(::unlink(tree.file("proc/100/cgroup").c_str()), 0);
  ASSERT_EQ(::mkfifo(tree.file("proc/100/cgroup").c_str(), 0644), 0);
  Result<PodNetnsScan> scan = scanPodNetns(tree.options());
  ASSERT_TRUE(scan.isOk()) << scan.status().toString();
  EXPECT_EQ(scan->processes_unreadable, 1u);
  EXPECT_EQ(scan->sandboxes.at(0).ownership, NetnsOwnership::kNoPod);
}

}  // namespace
}  // namespace rdmagw::southbound::k8s
