#include "southbound/ssh/ssh_connection.h"

#include "models/log.h"

namespace rdmagw::southbound::ssh {
namespace {

std::string secondsText(std::chrono::steady_clock::duration d) {
  const double s = std::chrono::duration<double>(d).count();
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.1f s", s < 0 ? 0.0 : s);
  return buf;
}

}  // namespace

SshConnection::SshConnection(SshConfig config, ConnectionOptions options)
    : config_(std::move(config)),
      options_(std::move(options)),
      session_(config_),
      backoff_(options_.backoff_initial, options_.backoff_max, options_.random) {
  if (options_.limiter == nullptr) options_.limiter = &ConcurrencyLimiter::process();
}

Status SshConnection::ensureConnected() {
  if (session_.connected()) return Status::ok();
  const TimePoint t = now();
  if (t < next_attempt_) {
    return Status::unavailable("ssh: " + config_.endpoint() + ": next reconnect in " +
                               secondsText(next_attempt_ - t) + "; last error: " +
                               last_connect_error_);
  }
  Status st = session_.connect();
  if (st.isOk()) {
    if (stats_.connects > 0) {
      RDMAGW_LOG(kInfo, "ssh") << config_.endpoint() << ": reconnected";
    }
    ++stats_.connects;
    backoff_.reset();
    last_connect_error_.clear();
    last_used_ = now();
    return st;
  }
  ++stats_.connect_failures;
  last_connect_error_ = st.message();
  next_attempt_ = now() + backoff_.next();
  return st;
}

Result<CommandOutput> SshConnection::execute(const std::string& command) {
  // Waiting for a slot is bounded too: a poll never hangs on the limiter.
  const auto slot_deadline =
      std::chrono::steady_clock::now() + config_.connect_timeout + config_.command_timeout;
  LimiterSlot slot(*options_.limiter, slot_deadline);
  if (!slot.held()) {
    return Status::unavailable("ssh: " + config_.endpoint() + ": all " +
                               std::to_string(options_.limiter->limit()) +
                               " SSH slots stayed busy; command not run");
  }
  std::lock_guard lock(mu_);
  const bool reused = session_.connected();
  if (Status st = ensureConnected(); !st.isOk()) return st;
  Result<CommandOutput> out = session_.execute(command);
  // A reused session may have died while idle (device reboot, NAT timeout):
  // one fresh connection is worth a try. Not after a timeout: the device is
  // reachable but stuck, and a retry would only wait as long again.
  if (!out.isOk() && reused && out.status().code() == Status::Code::kUnavailable &&
      !session_.timedOut()) {
    RDMAGW_LOG(kDebug, "ssh") << config_.endpoint() << ": reused session failed ("
                              << out.status().message() << "); reconnecting";
    if (Status st = ensureConnected(); !st.isOk()) return st;
    out = session_.execute(command);
  }
  last_used_ = now();
  if (out.isOk()) ++stats_.commands;
  return out;
}

void SshConnection::keepaliveIfIdle() {
  if (config_.keepalive.count() <= 0) return;
  std::unique_lock lock(mu_, std::try_to_lock);
  if (!lock.owns_lock() || !session_.connected()) return;
  if (now() - last_used_ < config_.keepalive) return;
  ++stats_.keepalives;
  last_used_ = now();
  if (Status st = session_.keepalive(); !st.isOk()) {
    // Not a connect failure: the next poll reconnects at once, no backoff.
    RDMAGW_LOG(kInfo, "ssh") << st.message();
  }
}

SshConnection::Stats SshConnection::stats() const {
  std::lock_guard lock(mu_);
  return stats_;
}

bool SshConnection::connected() const {
  std::lock_guard lock(mu_);
  return session_.connected();
}

}  // namespace rdmagw::southbound::ssh
