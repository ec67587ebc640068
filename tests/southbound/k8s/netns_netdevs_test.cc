// The netdevs of a real network namespace, read from a thread that enters
// it: a veth end placed there is listed with its driver, and the caller
// keeps its own netns and every descriptor it had. Needs root (ip netns,
// setns); skipped with the reason otherwise.

#include "southbound/k8s/netns_netdevs.h"

#include <gtest/gtest.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <filesystem>
#include <string>

#include "tests/support/test_support.h"

namespace rdmagw::southbound::k8s {
namespace {

using rdmagw::testing::openDescriptors;
using rdmagw::testing::runCommand;

ino_t threadNetnsInode() {
  struct stat st {};
  return ::stat("/proc/thread-self/ns/net", &st) == 0 ? st.st_ino : 0;
}

// A named netns holding one end of a veth pair, deleted (with the pair)
// when the test ends.
class VethNetns {
 public:
  VethNetns()
      : name_("rdmagw-nd-" + std::to_string(::getpid())),
        host_end_("rgwh" + std::to_string(::getpid() % 1000000)),
        pod_end_("rgwp" + std::to_string(::getpid() % 1000000)) {}
  ~VethNetns() {
    runCommand("ip link del " + host_end_);
    runCommand("ip netns del " + name_);
  }
  std::string create() {
    rdmagw::testing::CommandResult r = runCommand("ip netns add " + name_);
    if (r.exit_code != 0) return "ip netns add: " + r.output;
    r = runCommand("ip link add " + host_end_ + " type veth peer name " + pod_end_ + " netns " + name_);
    if (r.exit_code != 0) return "ip link add veth: " + r.output;
    return "";
  }
  std::string path() const { return "/var/run/netns/" + name_; }
  const std::string& podEnd() const { return pod_end_; }

 private:
  std::string name_, host_end_, pod_end_;
};

TEST(NetnsNetdevsTest, ListsTheNetdevsOfARealNetnsWithoutMovingTheCaller) {
  if (::geteuid() != 0) GTEST_SKIP() << "needs root: creates a netns and enters it (setns needs CAP_SYS_ADMIN)";
  if (runCommand("ip -V").exit_code != 0) GTEST_SKIP() << "needs iproute2's ip to build the netns";
  VethNetns netns;
  const std::string problem = netns.create();
  if (!problem.empty()) GTEST_SKIP() << "cannot build a netns with a veth here: " << problem;

  const size_t fds_before = openDescriptors();
  const ino_t netns_before = threadNetnsInode();
  ASSERT_NE(netns_before, 0u);
  Result<std::vector<NetnsNetdev>> netdevs = listNetnsNetdevs(netns.path());
  EXPECT_EQ(openDescriptors(), fds_before) << "a descriptor leaked";
  EXPECT_EQ(threadNetnsInode(), netns_before) << "the calling thread changed netns";

  ASSERT_TRUE(netdevs.isOk()) << netdevs.status().toString();
  ASSERT_EQ(netdevs->size(), 2u);
  EXPECT_EQ(netdevs->at(0).name, "lo");
  EXPECT_EQ(netdevs->at(1).name, netns.podEnd());
  EXPECT_EQ(netdevs->at(1).driver, "veth");
  EXPECT_TRUE(netdevs->at(1).ethtool_error.empty()) << netdevs->at(1).ethtool_error;
  // The host end stays with the caller: it is not in the list.
  EXPECT_TRUE(std::none_of(netdevs->begin(), netdevs->end(),
                           [](const NetnsNetdev& n) { return n.name.rfind("rgwh", 0) == 0; }));
}

TEST(NetnsNetdevsTest, AFileThatIsNoNetnsIsAClearError) {
  const ino_t netns_before = threadNetnsInode();
  const size_t fds_before = openDescriptors();
  Result<std::vector<NetnsNetdev>> netdevs = listNetnsNetdevs("/proc/self/cgroup");
  ASSERT_FALSE(netdevs.isOk());
  // setns() looks at the file's type before at the caller's rights.
  EXPECT_EQ(netdevs.status().code(), Status::Code::kInvalidArgument) << netdevs.status().toString();
  EXPECT_NE(netdevs.status().message().find("/proc/self/cgroup"), std::string::npos);
  EXPECT_EQ(openDescriptors(), fds_before);
  EXPECT_EQ(threadNetnsInode(), netns_before);
}

TEST(NetnsNetdevsTest, AMissingNetnsIsNotFound) {
  Result<std::vector<NetnsNetdev>> netdevs = listNetnsNetdevs("/var/run/netns/rdmagw-no-such-netns");
  ASSERT_FALSE(netdevs.isOk());
  EXPECT_EQ(netdevs.status().code(), Status::Code::kNotFound) << netdevs.status().toString();
}

}  // namespace
}  // namespace rdmagw::southbound::k8s
