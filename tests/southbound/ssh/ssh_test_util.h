#pragma once
// Shared helpers for the SSH tests: a trivial parser, the password test user,
// client configs pointing at an SshdLauncher.

#include <gtest/gtest.h>
#include <unistd.h>

#include <cstdio>
#include <sstream>
#include <string>
#include <string_view>

#include "models/status.h"
#include "models/update.h"
#include "sim/sshd_launcher.h"
#include "southbound/ssh/ssh_config.h"
#include "tests/support/test_support.h"

namespace rdmagw::testing {
using namespace rdmagw::southbound::ssh;  // the helpers speak the vocabulary of the code they test

inline std::string valuePath(std::string_view name) {
  return "/ssh-test/values/value[name=" + std::string(name) + "]/state/count";
}

// "name 123" per line -> valuePath(name) = 123. Other lines are skipped.
inline Status parseNameValue(std::string_view text, TimestampNs ts, PollBatch& out) {
  std::istringstream in{std::string(text)};
  size_t n = 0;
  for (std::string line; std::getline(in, line);) {
    std::istringstream l(line);
    std::string name;
    uint64_t v = 0;
    if (l >> name >> v) {
      out.add(valuePath(name), v, ts);
      ++n;
    }
  }
  return n > 0 ? Status::ok() : Status::invalidArgument("no 'name value' line");
}

// Accepts only a JSON object (stands in for a `| json` parser).
inline Status parseJsonOnly(std::string_view text, TimestampNs ts, PollBatch& out) {
  if (text.empty() || text.front() != '{') return Status::invalidArgument("not JSON");
  out.add(valuePath("json"), uint64_t{1}, ts);
  return Status::ok();
}

constexpr const char* kPasswordUser = "rdmagw-ssh-test";

// Password auth with UsePAM no checks /etc/shadow: a real local user is
// needed. Returns an empty string on success, else why the test must skip.
inline std::string ensurePasswordUser(const std::string& password) {
  if (::geteuid() != 0) return "needs root to create the local user " + std::string(kPasswordUser);
  // Test processes may run in parallel (ctest -j): tolerate a concurrent
  // useradd and a briefly locked /etc/shadow.
  const std::string user = kPasswordUser;
  std::string cmd = "id -u " + user + " >/dev/null 2>&1 || useradd -M -d / -s /bin/sh " + user +
                    " >/dev/null 2>&1; id -u " + user + " >/dev/null 2>&1";
  if (std::system(cmd.c_str()) != 0) return "useradd " + user + " failed";
  for (int attempt = 0;; ++attempt) {
    FILE* p = ::popen("chpasswd 2>/dev/null", "w");
    if (p == nullptr) return "cannot run chpasswd";
    std::fprintf(p, "%s:%s\n", kPasswordUser, password.c_str());
    if (::pclose(p) == 0) break;
    if (attempt == 20) return "chpasswd failed";
    ::usleep(100000);
  }
  return "";
}

// A key-auth config for a launcher device, its host key already trusted.
inline SshConfig keyConfig(const sim::SshdLauncher& sshd, const std::string& key_file,
                           bool write_known_hosts = true) {
  SshConfig c;
  c.host = "127.0.0.1";
  c.port = sshd.port();
  c.username = "root";
  c.key_file = key_file;
  c.known_hosts_file = sshd.dir() + "/client_known_hosts";
  if (write_known_hosts) testing::writeFile(c.known_hosts_file, sshd.knownHostsLine() + "\n");
  c.connect_timeout = std::chrono::milliseconds(10000);
  c.command_timeout = std::chrono::milliseconds(10000);
  return c;
}

}  // namespace rdmagw::testing
