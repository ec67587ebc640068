#pragma once
// One switch's NX-API connection: libcurl, one easy handle kept for the
// target's lifetime so its TLS connection is reused (keep-alive) from poll
// to poll. Logs in with basic auth once, then sends the switch's
// `nxapi_auth` session cookie: a switch keeps only about five sessions per
// user and source address, so a client that logs in on every request (as
// most NX-API clients do) runs into 429 "Max sessions reached" and shares
// that limit badly with the operators' own tools.
//
// Not thread-safe: one poll at a time, like every PollSource.

#include <atomic>
#include <chrono>
#include <cstdint>
#include <functional>
#include <string>
#include <string_view>

#include "models/status.h"
#include "southbound/nxapi/nxapi_config.h"

namespace rdmagw::southbound::nxapi {

struct HttpReply {
  long status = 0;  // HTTP status
  std::string body;
  std::string content_type;
};

struct NxapiHttpStats {
  uint64_t requests = 0;         // HTTP requests sent (a 401 retry counts twice)
  uint64_t logins = 0;           // requests that carried basic auth
  uint64_t cookie_requests = 0;  // requests that carried only the session cookie
  uint64_t connections = 0;      // TCP+TLS connections opened
  uint64_t bytes_received = 0;   // response bodies
  uint64_t unauthorized = 0;     // 401 answers
  uint64_t max_sessions = 0;     // 429 answers
  uint64_t text_fallbacks = 0;   // commands moved to their text form (countTextFallback)
};

class NxapiHttp {
 public:
  using Clock = std::chrono::steady_clock;
  // With a `target`, its counters are exported as the rdmagw_nxapi_*
  // self-metrics of that target from the first request on. One client per
  // switch: a target's fallback and CLI supplement share it (they are polled
  // by one thread), so the switch sees one connection and one session.
  explicit NxapiHttp(NxapiConfig config, std::string target = "", std::function<Clock::time_point()> now = Clock::now);
  ~NxapiHttp();
  NxapiHttp(const NxapiHttp&) = delete;
  NxapiHttp& operator=(const NxapiHttp&) = delete;

  // POST /ins. A reply of any HTTP status is a reply (the caller reads the
  // switch's words in it); a 401 on a cookie drops the cookie and retries
  // once with basic auth. kUnavailable: no reply at all (connect, TLS
  // verification, timeout, a body past max_response_bytes) with curl's
  // reason, never the password.
  Result<HttpReply> post(std::string_view body, std::string_view content_type);

  // Forgets the session and the connection (the switch went away).
  void reset();
  NxapiHttpStats stats() const;  // safe from any thread
  void countTextFallback() { ++counters_.text_fallbacks; }
  bool hasSession() const { return !cookie_.empty(); }

 private:
  Result<HttpReply> send(std::string_view body, std::string_view content_type, bool login);
  Status applyTls();

  NxapiConfig config_;
  std::function<Clock::time_point()> now_;
  void* curl_ = nullptr;        // CURL*, kept out of the header
  void* connect_to_ = nullptr;  // curl_slist* for server_name, or none
  std::string cookie_;          // "nxapi_auth=<token>", empty: none
  Clock::time_point cookie_since_{};
  std::string target_;
  uint64_t metrics_id_ = 0;  // 0: not exported (yet)
  struct Counters {
    std::atomic<uint64_t> requests{0}, logins{0}, cookie_requests{0}, connections{0}, bytes_received{0},
        unauthorized{0}, max_sessions{0}, text_fallbacks{0};
  } counters_;
};

}  // namespace rdmagw::southbound::nxapi
