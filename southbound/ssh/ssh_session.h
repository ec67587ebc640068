#pragma once
// One libssh client session to one device: connect, host key check, auth,
// then commands over exec channels. Not thread-safe (libssh sessions are
// not): one thread at a time, which SshConnection guarantees.
//
// Failure classes, by Status code, so callers know what is left standing:
//   kUnavailable : the session is gone (connect, host key, auth, timeout,
//                  connection lost). connected() is false afterwards.
//   anything else: this command failed, the device is still reachable.

#include <chrono>
#include <string>

#include "models/status.h"
#include "southbound/ssh/ssh_config.h"

struct ssh_session_struct;

namespace rdmagw::southbound::ssh {

struct CommandOutput {
  std::string text;         // stdout, complete (the device sent EOF)
  std::string stderr_text;  // the first few KiB only: for error texts
  int exit_status = -1;     // -1: the device sent no exit status
};

class SshSession {
 public:
  explicit SshSession(SshConfig config);
  ~SshSession();
  SshSession(const SshSession&) = delete;
  SshSession& operator=(const SshSession&) = delete;

  // TCP connect, key exchange, host key check and auth, all within
  // connect_timeout. Secrets are read here, never kept.
  Status connect();
  bool connected() const;
  void disconnect();

  // Runs one command; command_timeout covers the whole exchange, from
  // opening the channel to the exit status. Output is complete only when the
  // device sent EOF: a connection dropped mid-output is an error, never a
  // truncated success. A non-zero exit with output is returned (parsers
  // decide); a non-zero exit without output is an error.
  Result<CommandOutput> execute(const std::string& command);
  // execute() reduced to stdout.
  Result<std::string> run(const std::string& command);

  // Probes an idle session (keepalive@openssh.com); kUnavailable if dead.
  Status keepalive();

  // True when the last failure was a command timeout (the device may be
  // alive but stuck: retrying at once would only wait again).
  bool timedOut() const { return timed_out_; }

 private:
  Status fail(std::string message);  // drops the session, returns kUnavailable
  Status failTimeout(std::string message);
  Status checkHostKey();
  Status authenticate(std::chrono::steady_clock::time_point deadline);
  void setTimeout(std::chrono::steady_clock::time_point deadline);
  bool broken() const;
  std::string lastError() const;

  SshConfig config_;
  ssh_session_struct* session_ = nullptr;
  bool connected_ = false;
  bool timed_out_ = false;
};

}  // namespace rdmagw::southbound::ssh
