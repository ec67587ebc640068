#include "southbound/ssh/ssh_config.h"

#include <cstdlib>
#include <vector>

namespace rdmagw::southbound::ssh {

Status SshConfig::validate() const {
  std::vector<std::string> problems;
  if (host.empty()) problems.push_back("host: must not be empty");
  if (port < 1 || port > 65535) problems.push_back("port: must be 1..65535, got " + std::to_string(port));
  if (username.empty()) problems.push_back("username: must not be empty");
  if (!password_env.empty() && !password_file.empty()) {
    problems.push_back("password_file: set either password_env or password_file, not both");
  }
  const bool has_password = !password_env.empty() || !password_file.empty();
  if (!has_password && key_file.empty()) {
    problems.push_back("key_file: one of key_file, password_env or password_file is required");
  }
  if (!passphrase_env.empty() && key_file.empty()) {
    problems.push_back("passphrase_env: only meaningful with key_file");
  }
  if (connect_timeout.count() <= 0) problems.push_back("connect_timeout: must be positive");
  if (command_timeout.count() <= 0) problems.push_back("command_timeout: must be positive");
  if (keepalive.count() < 0) problems.push_back("keepalive: must not be negative (0 disables)");
  if (max_output_bytes == 0) problems.push_back("max_output_bytes: must be positive");
  if (known_hosts_file.empty() && std::getenv("HOME") == nullptr) {
    problems.push_back("known_hosts_file: required when HOME is not set");
  }
  if (problems.empty()) return Status::ok();
  std::string msg;
  for (const std::string& p : problems) msg += (msg.empty() ? "" : "; ") + p;
  return Status::invalidArgument(msg);
}

std::string SshConfig::knownHostsPath() const {
  if (!known_hosts_file.empty()) return known_hosts_file;
  const char* home = std::getenv("HOME");
  return std::string(home != nullptr ? home : "") + "/.ssh/known_hosts";
}

std::string SshConfig::endpoint() const { return host + ":" + std::to_string(port); }

}  // namespace rdmagw::southbound::ssh
