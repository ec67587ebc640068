#pragma once
// The TLS side of the simulated NX-API, with OpenSSL: Debian's civetweb 1.15
// says it has TLS (mg_check_feature) but loads libssl at run time by OpenSSL
// 1.1 names that OpenSSL 3 no longer exports (SSL_get_peer_certificate), and
// then calls a null pointer on the first handshake. So civetweb serves plain
// HTTP on an internal loopback port and this front terminates TLS on the
// switch's port, one thread per connection relaying bytes both ways: one
// TLS connection is one connection to civetweb, so keep-alive shows through.

#include <atomic>
#include <cstdint>
#include <map>
#include <mutex>
#include <set>
#include <string>
#include <thread>
#include <vector>

#include "models/status.h"

struct ssl_ctx_st;

namespace rdmagw::sim {

class TlsFront {
 public:
  TlsFront(std::string cert_file, std::string key_file);
  ~TlsFront();  // stop(), frees the TLS context
  TlsFront(const TlsFront&) = delete;
  TlsFront& operator=(const TlsFront&) = delete;

  // Listens on 127.0.0.1:port (0: a free one) and relays each connection to
  // 127.0.0.1:backend_port. Fails when the certificate or key do not load.
  Status start(uint16_t port, uint16_t backend_port);
  // Closes the listener and every connection, joins their threads.
  void stop();
  uint16_t port() const { return port_; }

 private:
  void acceptLoop();
  void relay(int client_fd, uint64_t serial);

  std::string cert_file_, key_file_;
  ssl_ctx_st* ctx_ = nullptr;
  uint16_t port_ = 0, backend_port_ = 0;
  int listen_fd_ = -1;
  int wake_pipe_[2] = {-1, -1};
  std::atomic<bool> stopping_{false};
  std::thread acceptor_;
  std::mutex mu_;
  std::set<int> open_fds_;  // guarded by mu_: shut down by stop() to end each relay
  // guarded by mu_: running relays by serial, and those that have returned
  // (joined by the next accept, so a long demo's reconnects do not pile up)
  std::map<uint64_t, std::thread> relays_;
  std::vector<uint64_t> finished_;
  uint64_t serial_ = 0;
};

}  // namespace rdmagw::sim
