#include "sim/tcp_relay.h"

#include <arpa/inet.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <list>
#include <vector>

namespace rdmagw::sim {
namespace {

struct Pair {
  int fd[2];              // client, upstream
  std::string pending[2];  // bytes read from fd[i], to write to fd[1 - i]
};

void nonBlocking(int fd) { fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK); }

int connectUpstream(int port) {
  int fd = ::socket(AF_INET, SOCK_STREAM, 0);
  if (fd < 0) return -1;
  sockaddr_in a{};
  a.sin_family = AF_INET;
  a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  a.sin_port = htons(static_cast<uint16_t>(port));
  if (::connect(fd, reinterpret_cast<sockaddr*>(&a), sizeof a) != 0) {
    ::close(fd);
    return -1;
  }
  nonBlocking(fd);
  return fd;
}

// Moves what fd[from] has into the other side's queue; false at EOF or error.
bool readSide(Pair& p, int from) {
  char buf[65536];
  ssize_t n = ::read(p.fd[from], buf, sizeof buf);
  if (n > 0) {
    p.pending[from].append(buf, static_cast<size_t>(n));
    return true;
  }
  return n < 0 && (errno == EAGAIN || errno == EINTR);
}

bool writeSide(Pair& p, int from) {
  std::string& q = p.pending[from];
  ssize_t n = ::write(p.fd[1 - from], q.data(), q.size());
  if (n > 0) {
    q.erase(0, static_cast<size_t>(n));
    return true;
  }
  return n < 0 && (errno == EAGAIN || errno == EINTR);
}

}  // namespace

TcpRelay::TcpRelay(int upstream_port) : upstream_port_(upstream_port) {}

TcpRelay::~TcpRelay() { stop(); }

Status TcpRelay::start() {
  if (thread_.joinable()) return Status::ok();
  listen_fd_ = ::socket(AF_INET, SOCK_STREAM, 0);
  sockaddr_in a{};
  a.sin_family = AF_INET;
  a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  socklen_t len = sizeof a;
  if (listen_fd_ < 0 || ::bind(listen_fd_, reinterpret_cast<sockaddr*>(&a), sizeof a) != 0 ||
      ::listen(listen_fd_, 64) != 0 || ::getsockname(listen_fd_, reinterpret_cast<sockaddr*>(&a), &len) != 0 ||
      ::pipe(wake_pipe_) != 0) {
    return Status::ioError("tcp relay: " + std::string(std::strerror(errno)));
  }
  nonBlocking(listen_fd_);
  nonBlocking(wake_pipe_[0]);
  port_ = ntohs(a.sin_port);
  stopping_ = false;
  thread_ = std::thread([this] { run(); });
  return Status::ok();
}

void TcpRelay::wake() {
  if (wake_pipe_[1] >= 0) {
    char c = 1;
    [[maybe_unused]] ssize_t n = ::write(wake_pipe_[1], &c, 1);
  }
}

void TcpRelay::stop() {
  if (!thread_.joinable()) return;
  stopping_ = true;
  wake();
  thread_.join();
  for (int* fd : {&listen_fd_, &wake_pipe_[0], &wake_pipe_[1]}) {
    if (*fd >= 0) ::close(*fd);
    *fd = -1;
  }
}

void TcpRelay::block() {
  blocked_ = true;
  wake();
}

void TcpRelay::unblock() {
  blocked_ = false;
  wake();
}

void TcpRelay::run() {
  std::list<Pair> pairs;
  std::vector<pollfd> fds;
  std::vector<Pair*> owner;  // per pollfd from the third on
  while (!stopping_) {
    const bool blocked = blocked_;
    fds.assign({{wake_pipe_[0], POLLIN, 0}, {listen_fd_, POLLIN, 0}});
    owner.clear();
    for (Pair& p : pairs) {
      for (int side = 0; side < 2; ++side) {
        short ev = 0;
        // Blocked: neither read nor write, so both kernels' buffers fill
        // and the peers hear nothing, as across a dead link.
        if (!blocked && p.pending[side].size() < (1 << 20)) ev |= POLLIN;
        if (!blocked && !p.pending[1 - side].empty()) ev |= POLLOUT;
        fds.push_back({p.fd[side], ev, 0});
        owner.push_back(&p);
      }
    }
    if (::poll(fds.data(), fds.size(), -1) < 0 && errno != EINTR) break;
    if (fds[0].revents & POLLIN) {
      char drain[64];
      while (::read(wake_pipe_[0], drain, sizeof drain) > 0) {
      }
    }
    if (fds[1].revents & POLLIN) {
      int c = ::accept(listen_fd_, nullptr, nullptr);
      if (c >= 0) {
        int u = connectUpstream(upstream_port_);
        if (u < 0) {
          ::close(c);  // the server is down: so is the relayed connection
        } else {
          nonBlocking(c);
          pairs.push_back(Pair{{c, u}, {}});
        }
      }
    }
    std::vector<Pair*> dead;
    for (size_t i = 2; i < fds.size(); ++i) {
      Pair& p = *owner[i - 2];
      const int side = fds[i].fd == p.fd[0] ? 0 : 1;
      bool ok = true;
      if (fds[i].revents & POLLIN) ok = readSide(p, side);
      if (ok && (fds[i].revents & POLLOUT)) ok = writeSide(p, 1 - side);
      if (ok && (fds[i].revents & (POLLERR | POLLHUP)) && !(fds[i].revents & POLLIN)) ok = false;
      if (!ok) dead.push_back(&p);
    }
    pairs.remove_if([&](const Pair& p) {
      for (Pair* d : dead) {
        if (d == &p) {
          ::close(p.fd[0]);
          ::close(p.fd[1]);
          return true;
        }
      }
      return false;
    });
  }
  for (Pair& p : pairs) {
    ::close(p.fd[0]);
    ::close(p.fd[1]);
  }
}

}  // namespace rdmagw::sim
