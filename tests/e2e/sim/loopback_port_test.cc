// The ports handed to the peers tests start: clear of the kernel's
// ephemeral range (where every outgoing connection takes one), free when
// handed out, and never handed twice, in one process or across processes
// picking side by side, as ctest's parallel tests do.

#include "sim/loopback_port.h"

#include <gtest/gtest.h>
#include <sys/wait.h>
#include <unistd.h>

#include <fstream>
#include <set>

namespace rdmagw::sim {
namespace {

constexpr int kPicks = 300;  // enough that picks without a reservation would meet

TEST(LoopbackPortTest, PicksOutsideTheKernelsEphemeralRange) {
  int low = 32768, high = 60999;
  std::ifstream("/proc/sys/net/ipv4/ip_local_port_range") >> low >> high;
  for (int i = 0; i < 20; ++i) {
    const int port = freeTcpPort();
    ASSERT_GT(port, 0);
    EXPECT_TRUE(port < low || port > high) << port << " is in " << low << "-" << high;
    EXPECT_GT(freeUdpPort(), 0);
  }
}

TEST(LoopbackPortTest, NeverHandsOutTheSamePortTwiceInOneProcess) {
  std::set<int> seen;
  for (int i = 0; i < kPicks; ++i) {
    const int port = freeTcpPort();
    ASSERT_GT(port, 0);
    EXPECT_TRUE(seen.insert(port).second) << "port " << port << " handed out twice";
  }
}

TEST(LoopbackPortTest, AnotherProcessPickingBesideThisOneGetsOtherPorts) {
  std::set<int> mine;
  for (int i = 0; i < kPicks; ++i) mine.insert(freeTcpPort());
  int fds[2];
  ASSERT_EQ(::pipe(fds), 0);
  const pid_t child = ::fork();
  ASSERT_GE(child, 0);
  if (child == 0) {
    ::close(fds[0]);
    for (int i = 0; i < kPicks; ++i) {
      const int port = freeTcpPort();
      if (::write(fds[1], &port, sizeof port) != sizeof port) ::_exit(1);
    }
    ::_exit(0);
  }
  ::close(fds[1]);
  std::set<int> theirs;
  int port = 0;
  while (::read(fds[0], &port, sizeof port) == sizeof port) theirs.insert(port);
  ::close(fds[0]);
  int status = 0;
  ::waitpid(child, &status, 0);
  ASSERT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == 0);
  ASSERT_EQ(theirs.size(), static_cast<size_t>(kPicks));
  for (int p : theirs) EXPECT_EQ(mine.count(p), 0u) << "port " << p << " picked by both processes";
}

}  // namespace
}  // namespace rdmagw::sim
