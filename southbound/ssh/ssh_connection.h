#pragma once
// One target's SSH connection, kept across polls: connecting (key exchange,
// auth, often a TACACS round trip on the switch) costs far more than a
// command. Reconnects after a failure with jittered exponential backoff;
// every connect and command holds a slot of a process-wide limiter; an idle
// session is probed with keepalives (KeepaliveService) so a NAT or firewall
// does not silently drop it between slow polls.
//
// Thread-safety: execute() and keepaliveIfIdle() may be called from
// different threads; one mutex serialises all use of the libssh session.

#include <chrono>
#include <functional>
#include <memory>
#include <mutex>
#include <string>

#include "common/backoff.h"
#include "southbound/ssh/command_runner.h"
#include "southbound/ssh/concurrency_limiter.h"
#include "southbound/ssh/ssh_config.h"
#include "southbound/ssh/ssh_session.h"

namespace rdmagw::southbound::ssh {

struct ConnectionOptions {
  ConcurrencyLimiter* limiter = nullptr;  // null: ConcurrencyLimiter::process()
  // Decides backoff and idle time; I/O timeouts always use the real clock.
  std::function<std::chrono::steady_clock::time_point()> clock;
  common::Backoff::Random random;  // null: seeded per connection
  std::chrono::milliseconds backoff_initial{1000};
  std::chrono::milliseconds backoff_max{std::chrono::minutes(5)};
};

class SshConnection : public CommandRunner {
 public:
  using TimePoint = std::chrono::steady_clock::time_point;
  struct Stats {
    uint64_t connects = 0;          // successful logins
    uint64_t connect_failures = 0;
    uint64_t commands = 0;          // commands that returned output
    uint64_t keepalives = 0;
  };

  SshConnection(SshConfig config, ConnectionOptions options = {});

  Result<CommandOutput> execute(const std::string& command) override;
  // Sends a keepalive if the session has been idle for config.keepalive.
  // Never waits for a poll in progress (that proves the session anyway).
  void keepaliveIfIdle();

  Stats stats() const;
  bool connected() const;
  const SshConfig& config() const { return config_; }

 private:
  Status ensureConnected();  // mu_ held
  TimePoint now() const { return options_.clock ? options_.clock() : std::chrono::steady_clock::now(); }

  const SshConfig config_;
  ConnectionOptions options_;
  mutable std::mutex mu_;
  SshSession session_;             // guarded by mu_
  common::Backoff backoff_;        // guarded by mu_
  TimePoint next_attempt_{};       // guarded by mu_: no connect before this
  std::string last_connect_error_; // guarded by mu_
  TimePoint last_used_{};          // guarded by mu_
  Stats stats_;                    // guarded by mu_
};

}  // namespace rdmagw::southbound::ssh
