#include "sim/nxapi/tls_front.h"

#include <arpa/inet.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <openssl/err.h>
#include <openssl/ssl.h>
#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>

namespace rdmagw::sim {
namespace {

std::string sslError() {
  const unsigned long e = ERR_get_error();
  char buf[256];
  ERR_error_string_n(e, buf, sizeof buf);
  return e == 0 ? "unknown error" : buf;
}

bool writeAll(int fd, const char* data, size_t n) {
  while (n > 0) {
    const ssize_t w = ::send(fd, data, n, MSG_NOSIGNAL);
    if (w < 0 && errno == EINTR) continue;
    if (w <= 0) return false;
    data += w;
    n -= size_t(w);
  }
  return true;
}

int connectLoopback(uint16_t port) {
  const int fd = ::socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
  if (fd < 0) return -1;
  sockaddr_in a{};
  a.sin_family = AF_INET;
  a.sin_port = htons(port);
  a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  if (::connect(fd, reinterpret_cast<sockaddr*>(&a), sizeof a) != 0) {
    ::close(fd);
    return -1;
  }
  const int one = 1;
  ::setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
  return fd;
}

}  // namespace

TlsFront::TlsFront(std::string cert_file, std::string key_file)
    : cert_file_(std::move(cert_file)), key_file_(std::move(key_file)) {}

TlsFront::~TlsFront() {
  stop();
  if (ctx_ != nullptr) SSL_CTX_free(ctx_);
}

Status TlsFront::start(uint16_t port, uint16_t backend_port) {
  if (ctx_ == nullptr) {
    ctx_ = SSL_CTX_new(TLS_server_method());
    if (ctx_ == nullptr) return Status::unavailable("nxapi tls: " + sslError());
    SSL_CTX_set_min_proto_version(ctx_, TLS1_2_VERSION);
    // A record without data (a key update) must not block the relay in
    // SSL_read while the other direction has bytes to move.
    SSL_CTX_clear_mode(ctx_, SSL_MODE_AUTO_RETRY);
    if (SSL_CTX_use_certificate_chain_file(ctx_, cert_file_.c_str()) != 1 ||
        SSL_CTX_use_PrivateKey_file(ctx_, key_file_.c_str(), SSL_FILETYPE_PEM) != 1 ||
        SSL_CTX_check_private_key(ctx_) != 1) {
      const std::string why = sslError();
      SSL_CTX_free(ctx_);
      ctx_ = nullptr;
      return Status::invalidArgument("nxapi tls: " + cert_file_ + ", " + key_file_ + ": " + why);
    }
  }
  backend_port_ = backend_port;
  listen_fd_ = ::socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
  const int one = 1;
  // A restart binds the same port while the last run's connections linger.
  ::setsockopt(listen_fd_, SOL_SOCKET, SO_REUSEADDR, &one, sizeof one);
  sockaddr_in a{};
  a.sin_family = AF_INET;
  a.sin_port = htons(port);
  a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  socklen_t len = sizeof a;
  if (::bind(listen_fd_, reinterpret_cast<sockaddr*>(&a), sizeof a) != 0 || ::listen(listen_fd_, 64) != 0 ||
      ::getsockname(listen_fd_, reinterpret_cast<sockaddr*>(&a), &len) != 0 || ::pipe2(wake_pipe_, O_CLOEXEC) != 0) {
    const int err = errno;
    stop();
    return Status::unavailable("nxapi tls: cannot listen on 127.0.0.1:" + std::to_string(port) + ": " +
                               std::strerror(err));
  }
  port_ = ntohs(a.sin_port);
  stopping_ = false;
  acceptor_ = std::thread([this] { acceptLoop(); });
  return Status::ok();
}

void TlsFront::stop() {
  stopping_ = true;
  if (wake_pipe_[1] >= 0) (void)!::write(wake_pipe_[1], "x", 1);
  if (acceptor_.joinable()) acceptor_.join();
  std::map<uint64_t, std::thread> relays;
  {
    std::lock_guard<std::mutex> lock(mu_);
    // Each relay sees its sockets end and returns; it closes them itself.
    for (int fd : open_fds_) ::shutdown(fd, SHUT_RDWR);
    relays.swap(relays_);
    finished_.clear();
  }
  for (auto& entry : relays) entry.second.join();
  for (int* fd : {&listen_fd_, &wake_pipe_[0], &wake_pipe_[1]}) {
    if (*fd >= 0) ::close(*fd);
    *fd = -1;
  }
}

void TlsFront::acceptLoop() {
  while (!stopping_) {
    pollfd fds[2] = {{listen_fd_, POLLIN, 0}, {wake_pipe_[0], POLLIN, 0}};
    if (::poll(fds, 2, -1) < 0 && errno != EINTR) return;
    if (stopping_ || (fds[1].revents & POLLIN)) return;
    if (!(fds[0].revents & POLLIN)) continue;
    const int fd = ::accept4(listen_fd_, nullptr, nullptr, SOCK_CLOEXEC);
    if (fd < 0) continue;
    std::lock_guard<std::mutex> lock(mu_);
    for (uint64_t done : finished_) {
      const auto it = relays_.find(done);
      if (it == relays_.end()) continue;
      it->second.join();  // it has returned: this does not wait
      relays_.erase(it);
    }
    finished_.clear();
    open_fds_.insert(fd);
    const uint64_t serial = ++serial_;
    relays_.emplace(serial, std::thread([this, fd, serial] { relay(fd, serial); }));
  }
}

void TlsFront::relay(int client_fd, uint64_t serial) {
  const int one = 1;
  ::setsockopt(client_fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
  SSL* ssl = SSL_new(ctx_);
  int backend = -1;
  if (ssl != nullptr && SSL_set_fd(ssl, client_fd) == 1 && SSL_accept(ssl) == 1) {
    backend = connectLoopback(backend_port_);
    if (backend >= 0) {
      std::lock_guard<std::mutex> lock(mu_);
      open_fds_.insert(backend);
    }
  }
  char buf[16384];
  while (backend >= 0 && !stopping_) {
    pollfd fds[2] = {{client_fd, POLLIN, 0}, {backend, POLLIN, 0}};
    // Bytes OpenSSL already decrypted wait in its buffer, not in the socket.
    if (SSL_pending(ssl) == 0 && ::poll(fds, 2, -1) < 0) {
      if (errno == EINTR) continue;
      break;
    }
    if (SSL_pending(ssl) > 0 || (fds[0].revents & (POLLIN | POLLHUP | POLLERR))) {
      const int n = SSL_read(ssl, buf, sizeof buf);
      if (n <= 0) {
        const int err = SSL_get_error(ssl, n);
        if (err == SSL_ERROR_WANT_READ || err == SSL_ERROR_WANT_WRITE) continue;  // a non-data record
        break;
      }
      if (!writeAll(backend, buf, size_t(n))) break;
    }
    if (fds[1].revents & (POLLIN | POLLHUP | POLLERR)) {
      const ssize_t n = ::recv(backend, buf, sizeof buf, 0);
      if (n <= 0 || SSL_write(ssl, buf, int(n)) <= 0) break;
    }
  }
  if (ssl != nullptr) {
    if (backend >= 0 && !stopping_) SSL_shutdown(ssl);
    SSL_free(ssl);
  }
  std::lock_guard<std::mutex> lock(mu_);
  open_fds_.erase(client_fd);
  ::close(client_fd);
  if (backend >= 0) {
    open_fds_.erase(backend);
    ::close(backend);
  }
  finished_.push_back(serial);
}

}  // namespace rdmagw::sim
