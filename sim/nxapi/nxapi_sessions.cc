#include "sim/nxapi/nxapi_sessions.h"

#include <random>

namespace rdmagw::sim {

void NxapiSessions::expire(Clock::time_point now) {
  for (auto it = sessions_.begin(); it != sessions_.end();) {
    it = it->second.expires <= now ? sessions_.erase(it) : std::next(it);
  }
}

std::string NxapiSessions::userOf(const std::string& token, Clock::time_point now) {
  std::lock_guard<std::mutex> lock(mu_);
  expire(now);
  const auto it = sessions_.find(token);
  return it == sessions_.end() ? "" : it->second.user;
}

std::string NxapiSessions::login(const std::string& user, const std::string& source, Clock::time_point now) {
  std::lock_guard<std::mutex> lock(mu_);
  expire(now);
  int held = 0;
  for (const auto& entry : sessions_) held += entry.second.user == user && entry.second.source == source;
  if (held >= max_per_source_) return "";
  // Unguessable enough for a simulator, and unique even across restarts
  // (a cookie of an earlier run must not match a session of this one).
  static thread_local std::mt19937_64 rng{std::random_device{}()};
  char buf[40];
  std::snprintf(buf, sizeof buf, "%016llx%08llx", static_cast<unsigned long long>(rng()),
                static_cast<unsigned long long>(++serial_));
  sessions_[buf] = Session{user, source, now + ttl_};
  return buf;
}

size_t NxapiSessions::live(Clock::time_point now) {
  std::lock_guard<std::mutex> lock(mu_);
  expire(now);
  return sessions_.size();
}

void NxapiSessions::clear() {
  std::lock_guard<std::mutex> lock(mu_);
  sessions_.clear();
}

}  // namespace rdmagw::sim
