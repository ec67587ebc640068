#pragma once
// A simulated Nexus's NX-API: HTTPS (or plain HTTP) `POST /ins` on loopback,
// both dialects (sim/nxapi/nxapi_dialect.h) answered from the leaf's
// rendered CLI files, HTTP basic auth with `nxapi_auth` cookie sessions and
// the switch's per-(user, source) session limit, a per-request time limit,
// and faults for tests. HTTP is civetweb's, with few threads and keep-alive
// (each leaf has its own server and a benchmark runs dozens of them); TLS is
// OpenSSL's, in front of it (sim/nxapi/tls_front.h says why).

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <memory>
#include <mutex>
#include <set>
#include <string>

#include "models/status.h"
#include "sim/nxapi/nxapi_sessions.h"
#include "sim/nxapi/tls_front.h"

struct mg_context;
struct mg_connection;

namespace rdmagw::sim {

struct NxapiServerOptions {
  std::string device_dir;           // <dir>/<switch>: the answers (matchNxos/runNxos)
  std::string cert_file, key_file;  // PEM; both empty: plain HTTP
  std::string username = "admin", password;
  std::chrono::seconds cookie_ttl{600};
  int max_sessions = 5;                             // per (user, source address)
  std::chrono::milliseconds command_delay{0};       // slow-command mode: each request waits this long
  std::chrono::milliseconds command_limit{300000};  // a request slower than this: "Back-end processing error"
  uint16_t port = 0;                                // 0: a free port on 127.0.0.1 (a restart keeps it)
  int threads = 4;  // civetweb workers; a keep-alive connection holds one while it is open
};

class NxapiServer {
 public:
  explicit NxapiServer(NxapiServerOptions options);
  ~NxapiServer();  // stop()
  NxapiServer(const NxapiServer&) = delete;
  NxapiServer& operator=(const NxapiServer&) = delete;

  // Binds 127.0.0.1 (options.port, or a free port the first time and the
  // same one after a stop()). Fails when the TLS files do not load.
  Status start();
  // Closes every connection and forgets every session ("the switch stopped
  // answering"); requests waiting in slow mode end at once. Idempotent.
  void stop();
  bool running() const;
  uint16_t port() const { return port_; }
  std::string url() const;  // https://127.0.0.1:<port>/ins (http:// without TLS)

  // Faults for tests, safe from any thread.
  void failNextWith429(int n);                            // the next n requests: 429 "Max sessions reached"
  void refuseJsonFor(const std::string& command);         // cli_show of it (canonical or abbreviated): 501
  void failAllWith(int http_status);                      // every request answers this status (0: off), e.g. 413
  void setCommandDelay(std::chrono::milliseconds delay);  // slow mode on (0: off) while running

  struct Counters {
    uint64_t requests = 0;
    uint64_t authentications = 0;    // basic-auth logins that created a session
    uint64_t cookie_requests = 0;    // served on a valid cookie
    uint64_t unauthorized = 0;       // answered 401
    uint64_t too_many_sessions = 0;  // answered 429 (limit or failNextWith429)
    uint64_t commands = 0;           // command lines answered
    uint64_t connections = 0;        // TCP connections accepted (keep-alive reuse keeps it low)
  };
  Counters counters() const;
  size_t liveSessions();

 private:
  static int onRequest(mg_connection* conn);
  static int onConnection(const mg_connection* conn, void** conn_data);
  void handle(mg_connection* conn);
  // Waits out slow mode; true when the request ran past command_limit.
  bool waitCommandDelay();

  NxapiServerOptions options_;
  NxapiSessions sessions_;
  bool tls() const { return !options_.cert_file.empty() || !options_.key_file.empty(); }

  std::unique_ptr<TlsFront> front_;  // with TLS: the switch's port, relaying to civetweb's
  mg_context* ctx_ = nullptr;
  uint16_t port_ = 0;
  uint16_t http_port_ = 0;            // civetweb's own (the front's backend with TLS)
  std::atomic<bool> closing_{false};  // stop()'s wake-up connections are not clients
  mutable std::mutex mu_;
  std::condition_variable cv_;
  bool stopping_ = false;              // guarded by mu_
  std::set<std::string> refuse_json_;  // guarded by mu_; canonical commands
  int fail_429_ = 0;                   // guarded by mu_
  int fail_all_ = 0;                   // guarded by mu_
  std::chrono::milliseconds delay_;    // guarded by mu_
  struct AtomicCounters {
    std::atomic<uint64_t> requests{0}, authentications{0}, cookie_requests{0}, unauthorized{0}, too_many_sessions{0},
        commands{0}, connections{0};
  } counters_;
};

}  // namespace rdmagw::sim
