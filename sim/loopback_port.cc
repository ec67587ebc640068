#include "sim/loopback_port.h"

#include <arpa/inet.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <sys/file.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cstdlib>
#include <fstream>
#include <mutex>
#include <random>
#include <string>

namespace rdmagw::sim {
namespace {

constexpr int kLowestPort = 10000;  // clear of the well-known and registered services peers use
constexpr int kWindow = 12000;      // ports to pick from below the ephemeral range

struct Window {
  int low;
  int high;
};

// Where to pick: below the kernel's ephemeral range when there is room,
// else above it; Linux's default range is 32768-60999.
Window pickWindow() {
  int low = 32768, high = 60999;
  std::ifstream in("/proc/sys/net/ipv4/ip_local_port_range");
  int l = 0, h = 0;
  if (in >> l >> h && l > 0 && h >= l && h <= 65535) low = l, high = h;
  if (low - kLowestPort >= 1000) return {std::max(kLowestPort, low - kWindow), low - 1};
  if (65535 - high >= 1000) return {high + 1, 65535};
  return {0, 0};  // no room outside the range: let the kernel pick
}

// Where every picker of this user keeps its ports' lock files.
std::string lockDir() {
  const char* tmp = std::getenv("TMPDIR");
  const std::string dir =
      std::string(tmp != nullptr && *tmp != '\0' ? tmp : "/tmp") + "/rdmagw-ports-" + std::to_string(::getuid());
  ::mkdir(dir.c_str(), 0700);  // exists already in all but the first picker
  return dir;
}

// The port's lock, held for the life of the process: another of our
// processes cannot take it while this one runs, and the kernel drops it at
// exit. -1: taken by another; -2: no place for locks (the bind probe alone
// decides then).
int reserve(const std::string& dir, int port) {
  const std::string path = dir + "/" + std::to_string(port);
  const int fd = ::open(path.c_str(), O_RDWR | O_CREAT | O_CLOEXEC, 0600);
  if (fd < 0) return -2;
  if (::flock(fd, LOCK_EX | LOCK_NB) == 0) return fd;  // left open on purpose
  ::close(fd);
  return -1;
}

// Binds `port` (0: any) and returns the port bound, 0 when it failed.
int probe(int socket_type, int port) {
  const int fd = ::socket(AF_INET, socket_type | SOCK_CLOEXEC, 0);
  if (fd < 0) return 0;
  sockaddr_in a{};
  a.sin_family = AF_INET;
  a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  a.sin_port = htons(static_cast<uint16_t>(port));
  socklen_t len = sizeof a;
  int bound = 0;
  if (::bind(fd, reinterpret_cast<sockaddr*>(&a), sizeof a) == 0 &&
      ::getsockname(fd, reinterpret_cast<sockaddr*>(&a), &len) == 0) {
    bound = ntohs(a.sin_port);
  }
  ::close(fd);
  return bound;
}

}  // namespace

int freeLoopbackPort(int socket_type) {
  static std::mutex mu;
  static std::mt19937 rng{std::random_device{}()};
  static const Window window = pickWindow();
  static const std::string dir = lockDir();
  std::lock_guard lock(mu);
  if (window.high > 0) {
    std::uniform_int_distribution<int> pick(window.low, window.high);
    for (int attempt = 0; attempt < 500; ++attempt) {
      const int port = pick(rng);
      const int held = reserve(dir, port);
      if (held == -1) continue;
      if (probe(socket_type, port) == port) return port;
      if (held >= 0) ::close(held);  // bound by something else: let it go
    }
  }
  return probe(socket_type, 0);
}

int freeTcpPort() { return freeLoopbackPort(SOCK_STREAM); }
int freeUdpPort() { return freeLoopbackPort(SOCK_DGRAM); }

}  // namespace rdmagw::sim
