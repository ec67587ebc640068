// A PodNetnsHandle on a real network namespace holding one end of a veth
// pair (the stand-in for a VF: no RDMA core here): its sysfs mount shows
// that netns's class/net and not the host's, statistics that move with
// traffic, and its socket reads the veth's `ethtool -S` inside the netns.
// Needs root; skipped with the reason otherwise.

#include "southbound/k8s/pod_netns_handle.h"

#include <arpa/inet.h>
#include <gtest/gtest.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <unistd.h>

#include <algorithm>
#include <cstdint>
#include <filesystem>
#include <string>

#include "tests/support/test_support.h"

namespace rdmagw::southbound::k8s {
namespace {

using rdmagw::testing::openDescriptors;
using rdmagw::testing::runCommand;

uint64_t number(const Result<std::string>& text) { return text.isOk() ? std::stoull(text.value()) : UINT64_MAX; }

class PodNetnsHandleTest : public ::testing::Test {
 protected:
  void SetUp() override {
    if (::geteuid() != 0) GTEST_SKIP() << "needs root: creates a netns, enters it and mounts a sysfs there";
    if (runCommand("ip -V").exit_code != 0) GTEST_SKIP() << "needs iproute2's ip to build the netns";
    const std::string n = std::to_string(::getpid() % 100000);
    netns_ = "rdmagw-nh-" + n;
    host_end_ = "rgwnh" + n;
    subnet_ = "10.201." + std::to_string(::getpid() % 250) + ".";
    for (const std::string& command :
         {"ip netns add " + netns_, "ip link add " + host_end_ + " type veth peer name net1 netns " + netns_,
          "ip addr add " + subnet_ + "1/30 dev " + host_end_, "ip link set " + host_end_ + " up",
          "ip -n " + netns_ + " addr add " + subnet_ + "2/30 dev net1", "ip -n " + netns_ + " link set net1 up"}) {
      const rdmagw::testing::CommandResult r = runCommand(command);
      if (r.exit_code != 0) GTEST_SKIP() << "cannot build a netns with a veth here: " << command << ": " << r.output;
    }
  }
  void TearDown() override {
    if (netns_.empty()) return;
    runCommand("ip link del " + host_end_);
    runCommand("ip netns del " + netns_);
  }
  // UDP datagrams from the host end to the pod end (and the ARP before).
  void sendTraffic(int datagrams) {
    const int s = ::socket(AF_INET, SOCK_DGRAM | SOCK_CLOEXEC, 0);
    ASSERT_GE(s, 0);
    sockaddr_in to{};
    to.sin_family = AF_INET;
    to.sin_port = htons(9);
    ASSERT_EQ(::inet_pton(AF_INET, (subnet_ + "2").c_str(), &to.sin_addr), 1);
    for (int i = 0; i < datagrams; ++i) {
      ::sendto(s, "rdmagw", 6, 0, reinterpret_cast<const sockaddr*>(&to), sizeof to);
      ::usleep(10000);
    }
    ::close(s);
  }

  std::string netns_, host_end_, subnet_;
};

TEST_F(PodNetnsHandleTest, ItsSysfsAndSocketAreThePodsViewAndCloseWithIt) {
  const size_t fds_before = openDescriptors();
  const int handles_before = PodNetnsHandle::openCount();
  {
    Result<std::unique_ptr<PodNetnsHandle>> opened = PodNetnsHandle::open("/var/run/netns/" + netns_);
    ASSERT_TRUE(opened.isOk()) << opened.status().toString();
    PodNetnsHandle& handle = *opened.value();
    EXPECT_EQ(PodNetnsHandle::openCount(), handles_before + 1);
    Result<NetnsId> id = netnsIdOf("/var/run/netns/" + netns_);
    ASSERT_TRUE(id.isOk());
    EXPECT_EQ(handle.id(), id.value());

    // class/net is the pod's: its net1 and lo, not the host end.
    Result<std::vector<std::string>> netdevs = handle.sysfs().listDir("class/net");
    ASSERT_TRUE(netdevs.isOk()) << netdevs.status().toString();
    EXPECT_EQ(netdevs.value(), (std::vector<std::string>{"lo", "net1"}));
    EXPECT_TRUE(std::filesystem::exists("/sys/class/net/" + host_end_));
    // The same interface the kernel shows inside the netns.
    const std::string inside_ifindex =
        runCommand("ip netns exec " + netns_ + " cat /sys/class/net/net1/ifindex").output;
    EXPECT_EQ(number(handle.sysfs().readFile("class/net/net1/ifindex")), std::stoull(inside_ifindex));

    const uint64_t rx_before = number(handle.sysfs().readFile("class/net/net1/statistics/rx_packets"));
    ASSERT_NE(rx_before, UINT64_MAX);
    sendTraffic(20);
    ASSERT_TRUE(rdmagw::testing::waitUntil([&] {
      return number(handle.sysfs().readFile("class/net/net1/statistics/rx_packets")) >= rx_before + 20;
    })) << "rx_packets of net1 did not move: "
        << rx_before << " -> " << number(handle.sysfs().readFile("class/net/net1/statistics/rx_packets"));
    // What iproute2 says inside the netns, read after ours: never less.
    const std::string ip_json = runCommand("ip -n " + netns_ + " -s -j link show net1").output;
    const size_t rx = ip_json.find("\"rx\":{\"bytes\":");
    ASSERT_NE(rx, std::string::npos) << ip_json;
    const size_t packets = ip_json.find("\"packets\":", rx);
    ASSERT_NE(packets, std::string::npos) << ip_json;
    EXPECT_GE(std::stoull(ip_json.substr(packets + 10)), rx_before + 20);

    // ethtool -S of net1 through the socket made inside: the veth's peer is
    // the host end.
    Result<rdma::EthtoolStats> stats = handle.ethtool().stats("net1");
    ASSERT_TRUE(stats.isOk()) << stats.status().toString();
    const auto peer =
        std::find_if(stats->begin(), stats->end(), [](const auto& s) { return s.first == "peer_ifindex"; });
    ASSERT_NE(peer, stats->end());
    EXPECT_EQ(peer->second,
              number(Result<std::string>(rdmagw::testing::readFile("/sys/class/net/" + host_end_ + "/ifindex"))));
    // The host end is not in the pod's netns.
    EXPECT_EQ(handle.ethtool().stats(host_end_).status().code(), Status::Code::kNotFound);
    // Nor does the handle run DCB tools (they would fork).
    EXPECT_EQ(handle.ethtool().dcbJson("pfc", "net1").status().code(), Status::Code::kNotFound);
  }
  EXPECT_EQ(PodNetnsHandle::openCount(), handles_before);
  EXPECT_EQ(openDescriptors(), fds_before) << "a descriptor leaked";
}

TEST_F(PodNetnsHandleTest, AFileThatIsNoNetnsIsAClearErrorAndLeaksNothing) {
  const size_t fds_before = openDescriptors();
  Result<std::unique_ptr<PodNetnsHandle>> opened = PodNetnsHandle::open("/proc/self/cgroup");
  ASSERT_FALSE(opened.isOk());
  EXPECT_EQ(opened.status().code(), Status::Code::kInvalidArgument) << opened.status().toString();
  EXPECT_EQ(PodNetnsHandle::open("/var/run/netns/rdmagw-no-such").status().code(), Status::Code::kNotFound);
  EXPECT_EQ(openDescriptors(), fds_before);
}

}  // namespace
}  // namespace rdmagw::southbound::k8s
