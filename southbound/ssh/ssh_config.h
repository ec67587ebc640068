#pragma once
// Configuration of one SSH target (a switch or hypervisor reached by its CLI).
// Secrets are never in the config itself: only where to find them (an
// environment variable or a file), resolved at connect time (southbound/secret_source.h).

#include <chrono>
#include <cstddef>
#include <string>

#include "models/status.h"

namespace rdmagw::southbound::ssh {

struct SshConfig {
  std::string host;
  int port = 22;
  std::string username;
  // Authentication: a key file (optionally with a passphrase) or a password,
  // each from an environment variable or a file, never inline.
  std::string password_env;
  std::string password_file;
  std::string key_file;
  std::string passphrase_env;
  std::string known_hosts_file;  // empty: ~/.ssh/known_hosts
  // Trust on first use: an unknown host key is appended to known_hosts.
  // A CHANGED key is refused whatever this says.
  bool accept_unknown_host_key = false;
  std::chrono::milliseconds connect_timeout{5000};   // TCP connect + key exchange + auth
  std::chrono::milliseconds command_timeout{15000};  // one command, open to exit status
  std::chrono::milliseconds keepalive{30000};        // idle session probe; 0 disables
  size_t max_output_bytes = size_t{64} << 20;        // a runaway command is an error, not OOM

  // Collects every problem, each prefixed with its field name.
  Status validate() const;
  bool operator==(const SshConfig&) const = default;  // a config reload keeps equal targets
  // known_hosts_file, or ~/.ssh/known_hosts when empty.
  std::string knownHostsPath() const;
  // "host:port", the target's name in every error text.
  std::string endpoint() const;
};

}  // namespace rdmagw::southbound::ssh
