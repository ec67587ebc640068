#include "gateway/cli/status_client.h"

#include <poll.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>

namespace rdmagw::gateway {
namespace {

std::string explain(const std::string& path, int err) {
  switch (err) {
    case ENOENT: return path + ": no such socket (is the gateway running, with admin_socket at this path?)";
    case ECONNREFUSED: return path + ": nothing is listening (the gateway that made it is gone)";
    case EACCES: return path + ": permission denied (run as root or a member of the gateway's group)";
    default: return path + ": " + std::strerror(err);
  }
}

struct Fd {
  int fd;
  ~Fd() {
    if (fd >= 0) ::close(fd);
  }
};

}  // namespace

Result<std::string> askAdminSocket(const std::string& path, const std::string& request,
                                   std::chrono::milliseconds timeout) {
  sockaddr_un addr{};
  if (path.empty() || path.size() >= sizeof(addr.sun_path)) {
    return Status::invalidArgument(path + ": not a usable unix socket path");
  }
  addr.sun_family = AF_UNIX;
  std::memcpy(addr.sun_path, path.data(), path.size());
  Fd s{::socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0)};
  if (s.fd < 0) return Status::ioError(std::string("socket: ") + std::strerror(errno));
  if (::connect(s.fd, reinterpret_cast<const sockaddr*>(&addr), sizeof(addr)) != 0) {
    return Status::unavailable(explain(path, errno));
  }
  const std::string line = request + "\n";
  size_t sent = 0;
  while (sent < line.size()) {
    const ssize_t n = ::send(s.fd, line.data() + sent, line.size() - sent, MSG_NOSIGNAL);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) return Status::unavailable(explain(path, errno));
    sent += size_t(n);
  }
  ::shutdown(s.fd, SHUT_WR);
  const auto deadline = std::chrono::steady_clock::now() + timeout;
  std::string reply;
  char buf[65536];
  for (;;) {
    const auto left = std::chrono::duration_cast<std::chrono::milliseconds>(deadline - std::chrono::steady_clock::now());
    pollfd p{s.fd, POLLIN, 0};
    const int r = ::poll(&p, 1, left.count() > 0 ? int(left.count()) : 0);
    if (r < 0 && errno == EINTR) continue;
    if (r == 0) return Status::unavailable(path + ": no reply within " + std::to_string(timeout.count()) + " ms");
    const ssize_t n = ::recv(s.fd, buf, sizeof(buf), 0);
    if (n < 0 && errno == EINTR) continue;
    // A reset after the reply is the server closing on request bytes it
    // did not read (an oversized request): the reply is complete.
    if (n == 0 || (n < 0 && errno == ECONNRESET && !reply.empty())) break;
    if (n < 0) return Status::unavailable(explain(path, errno));
    reply.append(buf, size_t(n));
    if (reply.size() > kMaxStatusReplyBytes) {
      return Status::unavailable(path + ": reply larger than " + std::to_string(kMaxStatusReplyBytes) + " bytes");
    }
  }
  if (reply.empty()) return Status::unavailable(path + ": the gateway closed the connection without a reply");
  return reply;
}

}  // namespace rdmagw::gateway
