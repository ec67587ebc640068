// Pod identities from /var/log/pods directory names, on a real directory
// tree: good names, and each kind of bad name counted under its reason.

#include "southbound/k8s/pod_logs.h"

#include <gtest/gtest.h>
#include <sys/stat.h>
#include <unistd.h>

#include <string>

#include "tests/support/test_support.h"

namespace rdmagw::southbound::k8s {
namespace {

using rdmagw::testing::TempDir;

void makeDir(const std::string& path) { ASSERT_EQ(::mkdir(path.c_str(), 0755), 0) << path; }

TEST(PodLogsTest, ReadsPodDirectoriesAndCountsTheRest) {
  TempDir root("k8s-pod-logs");
  ASSERT_FALSE(root.path().empty());
  makeDir(root.file("rdma-jobs_trainer-0_0e1f2a3b-4c5d-4e6f-8a9b-0c1d2e3f4a5b"));
  makeDir(root.file("kube-system_kube-apiserver-node.example.com_5d3c2f1e0a9b8c7d6e5f4a3b2c1d0e9f"));
  makeDir(root.file("default_web_11111111-2222-3333-4444-555555555555"));
  makeDir(root.file("Default_web_11111111-2222-3333-4444-555555555555"));  // upper case
  makeDir(root.file("default_web_extra_11111111-2222-3333-4444-555555555555"));
  makeDir(root.file("default_web"));
  makeDir(root.file("default_-web_11111111-2222-3333-4444-555555555555"));
  makeDir(root.file("default_web_not-a-uid"));
  ASSERT_TRUE(rdmagw::testing::writeFile(root.file("default_file_11111111-2222-3333-4444-555555555555"), "x"));

  Result<PodLogScan> scan = scanPodLogDirs(root.path());
  ASSERT_TRUE(scan.isOk()) << scan.status().toString();
  ASSERT_EQ(scan->pods.size(), 3u);
  EXPECT_EQ(scan->pods[0], (PodIdentity{"default", "web", "11111111-2222-3333-4444-555555555555"}));
  EXPECT_EQ(scan->pods[1],
            (PodIdentity{"kube-system", "kube-apiserver-node.example.com", "5d3c2f1e0a9b8c7d6e5f4a3b2c1d0e9f"}));
  EXPECT_EQ(scan->pods[2], (PodIdentity{"rdma-jobs", "trainer-0", "0e1f2a3b-4c5d-4e6f-8a9b-0c1d2e3f4a5b"}));
  const std::map<std::string, uint64_t> expected = {{"bad namespace", 1}, {"bad pod name", 1}, {"bad uid", 1},
                                                     {"not a directory", 1}, {"not namespace_name_uid", 2}};
  EXPECT_EQ(scan->rejected, expected);
}

TEST(PodLogsTest, AMissingDirectoryIsAnErrorNamingIt) {
  Result<PodLogScan> scan = scanPodLogDirs("/nonexistent/var/log/pods");
  ASSERT_FALSE(scan.isOk());
  EXPECT_EQ(scan.status().code(), Status::Code::kIoError);
  EXPECT_NE(scan.status().message().find("/nonexistent/var/log/pods"), std::string::npos);
}

TEST(PodLogsTest, DirectoryNameErrorsSayWhichField) {
  EXPECT_TRUE(podFromLogDirName("a_b_0e1f2a3b-4c5d-4e6f-8a9b-0c1d2e3f4a5b").isOk());
  EXPECT_NE(podFromLogDirName("ns_" + std::string(254, 'a') + "_0e1f2a3b-4c5d-4e6f-8a9b-0c1d2e3f4a5b")
                .status()
                .message()
                .find("bad pod name"),
            std::string::npos);
  EXPECT_NE(podFromLogDirName(std::string(64, 'a') + "_p_0e1f2a3b-4c5d-4e6f-8a9b-0c1d2e3f4a5b")
                .status()
                .message()
                .find("bad namespace"),
            std::string::npos);
  EXPECT_EQ(podFromLogDirName("").status().code(), Status::Code::kInvalidArgument);
  EXPECT_TRUE(isDns1123Subdomain("a.b-c.d"));
  EXPECT_FALSE(isDns1123Subdomain("a..b"));
  EXPECT_FALSE(isDns1123Label("a.b"));
  EXPECT_FALSE(isDns1123Label("-a"));
}

}  // namespace
}  // namespace rdmagw::southbound::k8s
