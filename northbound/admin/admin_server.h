#pragma once
// The admin socket: a local unix stream socket `rdmagw status` reads the
// running gateway from. Like the other northbounds it only reads: the store
// (targets' health and series), the self-metrics (gNMI subscribers, the
// last config reload) and what the pipeline reports of its northbounds.
//
// Why a unix socket rather than the gNMI server: gNMI is optional (off by
// default) and a network listener, while an operator on the host must see
// the gateway whatever it serves; file permissions (mode 0660, the service's
// group) say who may ask, with no credentials to manage.
//
// Protocol: the client sends one line, "status", and reads one JSON object
// (status_report.h) until the server closes. Anything else, an empty line, a
// line longer than kMaxRequestBytes or a client too slow to send it gets
// {"error": "..."} instead. One connection is served at a time, each bounded
// in time, so a stuck client delays others by at most that and costs no
// thread or memory of its own.

#include <atomic>
#include <chrono>
#include <functional>
#include <string>
#include <string_view>
#include <thread>

#include "models/status.h"
#include "models/store.h"
#include "northbound/admin/admin_socket_config.h"
#include "northbound/admin/status_report.h"
#include "northbound/admin/unix_listener.h"

namespace rdmagw::northbound::admin {

class AdminServer {
 public:
  // What the pipeline knows of its northbounds; called on the server's
  // thread, only between start() and stop().
  using StateProbe = std::function<admin::NorthboundStates()>;

  static constexpr size_t kMaxRequestBytes = 256;
  // A connection's whole life: reading the request and writing the reply.
  static constexpr std::chrono::seconds kConnectionDeadline{5};

  AdminServer(const Store& store, AdminSocketConfig config, StateProbe probe);
  ~AdminServer();
  AdminServer(const AdminServer&) = delete;
  AdminServer& operator=(const AdminServer&) = delete;

  // Binds the socket (mode 0660) and starts serving. A config without a
  // path serves nothing; a path that cannot be served is an error when the
  // config requires it, else a warning and no socket.
  Status start();
  void stop();  // returns once the thread is gone and the socket file removed
  bool serving() const { return listener_.fd >= 0; }
  const std::string& path() const { return config_.path; }

  // The reply to one request line (without its newline), for tests.
  std::string answer(std::string_view request) const;

 private:
  void run();
  void serveConnection(int fd) const;

  const Store& store_;
  const AdminSocketConfig config_;
  const StateProbe probe_;
  admin::UnixListener listener_;
  int wake_fd_ = -1;  // eventfd: stop() wakes the thread out of poll()
  TimestampNs started_ns_ = 0;
  std::thread thread_;
};

}  // namespace rdmagw::northbound::admin
