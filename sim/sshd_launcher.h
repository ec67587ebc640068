#pragma once
// A real OpenSSH sshd on 127.0.0.1 for tests and the demo: each simulated
// device (a Nexus, an ESXi host) gets its own client key whose
// authorized_keys line forces that device's command, so one sshd plays a
// whole fleet. The client's command reaches the forced command in
// $SSH_ORIGINAL_COMMAND.
//
// Every forced command first appends "$SSH_CLIENT" (client address, client
// port, server port) to a per-device log: one line per command, and one
// distinct client port per TCP connection, which is how tests tell session
// reuse from reconnects without raising sshd's log level.
//
// Owns a temp dir (host key, sshd_config, authorized_keys, client keys,
// logs) and the sshd process tree; stop() (and the destructor) kill both.

#include <mutex>
#include <string>
#include <sys/types.h>
#include <vector>

#include "models/status.h"

namespace rdmagw::sim {

struct ClientKey {
  std::string device;
  std::string private_key_file;  // OpenSSH format, for SshConfig::key_file
  std::string public_key;        // "ssh-ed25519 AAAA... rdmagw-<device>"
};

struct SshdOptions {
  bool password_auth = false;
  std::string password_user = "rdmagw-ssh-test";  // whose password logins are forced
  std::string sshd_path = "/usr/sbin/sshd";        // sshd re-execs itself: must be absolute
  std::string keygen_path = "/usr/bin/ssh-keygen";
  // sshd logs every accepted connection (LogLevel VERBOSE), so
  // handshakeStats() can tell how many were in progress at once.
  bool log_connections = false;
};

// What sshd's own log says about connection setups: a connection is "in
// setup" from its accept through key exchange, authentication and its first
// command until that command's shell exits (or the connection ends before).
// A client that connects to run a command, as a gateway does, holds its
// concurrency slot at least that long.
struct SshdHandshakeStats {
  uint64_t accepted = 0;       // TCP connections sshd accepted
  uint64_t authenticated = 0;  // logins that succeeded
  size_t peak_in_progress = 0; // most connections in setup at one time
};

class SshdLauncher {
 public:
  explicit SshdLauncher(SshdOptions options = {});
  ~SshdLauncher();
  SshdLauncher(const SshdLauncher&) = delete;
  SshdLauncher& operator=(const SshdLauncher&) = delete;

  // First call: makes the dir, host key and config, picks a free port.
  // After stopServer(): starts again on the same port with the same keys.
  // Returns once the port accepts connections.
  Status start();
  // Kills sshd and every session it forked (like a device reboot); keeps
  // the dir, keys and port so start() can bring the "device" back.
  void stopServer();
  // stopServer(), then removes the dir.
  void stop();
  // stopServer() + start(); with new_host_key the device looks re-keyed
  // (or hijacked) to any client that knew the old key.
  Status restart(bool new_host_key = false);

  // A client key for `device` (letters, digits, '-', '_'), forced to run
  // `forced_command`. Takes effect for the next login, running or not.
  Result<ClientKey> addDevice(const std::string& device, const std::string& forced_command,
                              const std::string& passphrase = "");
  // ForceCommand for password logins of options.password_user (a Match
  // block, so key logins keep their own commands). Restarts sshd if running.
  Status setPasswordForcedCommand(const std::string& command);

  int port() const { return port_; }
  bool running() const { return pid_ > 0; }
  const std::string& dir() const { return dir_; }
  std::string hostKeyLine() const;    // "ssh-ed25519 AAAA..."
  std::string knownHostsLine() const; // "[127.0.0.1]:PORT ssh-ed25519 AAAA..."

  // "$SSH_CLIENT" per command run for the device ("password" for password logins).
  std::vector<std::string> sessions(const std::string& device) const;
  // Distinct TCP connections those commands came over.
  size_t connectionCount(const std::string& device) const;
  std::string logText() const;  // sshd's own stderr
  // With options.log_connections: read from the log, from byte `from` of it
  // (logSize() before a storm: that storm alone). Lines are in the order
  // sshd's processes wrote them, so no clock is involved.
  SshdHandshakeStats handshakeStats(size_t from = 0) const;
  size_t logSize() const;

 private:
  Status prepareDir();
  Status writeConfig();
  Status generateHostKey();
  Status spawn();
  std::string wrap(const std::string& device, const std::string& command) const;

  SshdOptions options_;
  std::string dir_;
  int port_ = 0;
  pid_t pid_ = -1;
  std::string password_command_;
  mutable std::mutex mu_;  // guards authorized_keys appends
};

}  // namespace rdmagw::sim
