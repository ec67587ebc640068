#pragma once
// NX-API's login sessions: a basic-auth login creates one and hands out its
// `nxapi_auth` cookie, valid for a fixed time; the switch keeps a handful per
// (user, source address) and refuses further logins until one expires. The
// clock is passed in, so tests of the table need no sleeping.

#include <chrono>
#include <map>
#include <mutex>
#include <string>

namespace rdmagw::sim {

class NxapiSessions {
 public:
  using Clock = std::chrono::steady_clock;
  NxapiSessions(std::chrono::seconds ttl, int max_per_source) : ttl_(ttl), max_per_source_(max_per_source) {}

  // The user of an unexpired session with this cookie value, or "".
  std::string userOf(const std::string& token, Clock::time_point now);

  // A new session's cookie value, or "" when (user, source) already holds
  // max_per_source unexpired sessions.
  std::string login(const std::string& user, const std::string& source, Clock::time_point now);

  size_t live(Clock::time_point now);  // unexpired sessions
  void clear();                        // a restarted switch forgets every session

 private:
  struct Session {
    std::string user, source;
    Clock::time_point expires;
  };
  void expire(Clock::time_point now);  // with mu_ held

  std::chrono::seconds ttl_;
  int max_per_source_;
  std::mutex mu_;
  std::map<std::string, Session> sessions_;  // cookie value -> session
  uint64_t serial_ = 0;
};

}  // namespace rdmagw::sim
