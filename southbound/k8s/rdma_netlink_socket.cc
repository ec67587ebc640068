// The two transports of rdma_netlink.h: the kernel's NETLINK_RDMA socket and
// canned replies.

#include <linux/netlink.h>
#include <sys/socket.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>

#include "southbound/k8s/rdma_netlink.h"

namespace rdmagw::southbound::k8s {
namespace {

std::string errnoText(const char* call, int err) { return std::string(call) + ": " + std::strerror(err); }

class SocketTransport : public RdmaNetlinkTransport {
 public:
  explicit SocketTransport(int fd) : fd_(fd) {}
  ~SocketTransport() override { ::close(fd_); }
  SocketTransport(const SocketTransport&) = delete;
  SocketTransport& operator=(const SocketTransport&) = delete;

  Status send(std::span<const uint8_t> request) override {
    sockaddr_nl kernel{};
    kernel.nl_family = AF_NETLINK;
    const ssize_t sent =
        ::sendto(fd_, request.data(), request.size(), 0, reinterpret_cast<sockaddr*>(&kernel), sizeof(kernel));
    if (sent < 0) return Status::unavailable("no RDMA netlink: " + errnoText("sendto", errno));
    if (size_t(sent) != request.size()) return Status::ioError("RDMA netlink: short send");
    return Status::ok();
  }

  Result<NetlinkBytes> receive() override {
    // A dump's datagrams are at most a page or two; 64 KiB leaves room.
    NetlinkBytes buffer(65536);
    for (;;) {
      const ssize_t got = ::recv(fd_, buffer.data(), buffer.size(), MSG_TRUNC);
      if (got < 0 && errno == EINTR) continue;
      if (got < 0 && (errno == EAGAIN || errno == EWOULDBLOCK)) {
        return Status::unavailable("no RDMA netlink: the kernel did not answer (no RDMA core loaded?)");
      }
      if (got < 0) return Status::unavailable("no RDMA netlink: " + errnoText("recv", errno));
      if (size_t(got) > buffer.size()) return Status::corrupt("RDMA netlink datagram larger than 64 KiB");
      buffer.resize(size_t(got));
      return buffer;
    }
  }

 private:
  int fd_;
};

}  // namespace

Result<std::unique_ptr<RdmaNetlinkTransport>> openRdmaNetlinkSocket(int timeout_ms) {
  const int fd = ::socket(AF_NETLINK, SOCK_RAW | SOCK_CLOEXEC, NETLINK_RDMA);
  if (fd < 0) {
    return Status::unavailable("no RDMA netlink in this kernel: " + errnoText("socket(NETLINK_RDMA)", errno));
  }
  auto transport = std::make_unique<SocketTransport>(fd);
  timeval timeout{};
  timeout.tv_sec = timeout_ms / 1000;
  timeout.tv_usec = (timeout_ms % 1000) * 1000;
  sockaddr_nl local{};
  local.nl_family = AF_NETLINK;
  if (::setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &timeout, sizeof(timeout)) != 0 ||
      ::bind(fd, reinterpret_cast<sockaddr*>(&local), sizeof(local)) != 0) {
    return Status::unavailable("no RDMA netlink: " + errnoText("bind", errno));
  }
  return std::unique_ptr<RdmaNetlinkTransport>(std::move(transport));
}

Status ReplayTransport::send(std::span<const uint8_t> request) {
  requests_.emplace_back(request.begin(), request.end());
  if (next_reply_ >= replies_.size())
    return Status::unavailable("replay: no reply left for request " + std::to_string(requests_.size()));
  next_datagram_ = 0;
  ++next_reply_;
  return Status::ok();
}

Result<NetlinkBytes> ReplayTransport::receive() {
  if (next_reply_ == 0) return Status::internal("replay: receive before any request");
  const std::vector<NetlinkBytes>& reply = replies_[next_reply_ - 1];
  if (next_datagram_ >= reply.size()) return Status::unavailable("replay: no datagram left (a timeout)");
  return reply[next_datagram_++];
}

}  // namespace rdmagw::southbound::k8s
