#pragma once
// Password and passphrase resolution. The config names where a secret lives
// (an environment variable or a file); the secret is read at connect time so
// a rotated password is picked up on the next reconnect without a restart.
//
// A Secret has no stream operator and no implicit conversion, so it cannot
// slip into a log line or a Status by accident; its memory is wiped when it
// goes away. Error texts name the variable or file, never the content.

#include <string>
#include <string_view>

#include "models/status.h"

namespace rdmagw::southbound::ssh {

class Secret {
 public:
  Secret() = default;
  explicit Secret(std::string value) : value_(std::move(value)) {}
  ~Secret() { wipe(); }
  Secret(Secret&& other) noexcept : value_(std::move(other.value_)) { other.wipe(); }
  Secret& operator=(Secret&& other) noexcept;
  Secret(const Secret&) = delete;
  Secret& operator=(const Secret&) = delete;

  bool empty() const { return value_.empty(); }
  // For the libssh call only; never log or format the result.
  const char* reveal() const { return value_.c_str(); }

  // Replaces every occurrence of the secret in `text` (defence in depth for
  // error texts that come from libraries we do not control).
  std::string scrub(std::string text) const;

 private:
  void wipe();
  std::string value_;
};

// Reads the secret from the environment variable `env` if set in the config,
// else from `file`. One trailing newline (LF or CRLF) is trimmed: files are
// usually written by `echo`. `field_env`/`field_file` name the config fields
// for error texts. Both empty: an empty Secret (not an error).
Result<Secret> resolveSecret(std::string_view field_env, const std::string& env,
                             std::string_view field_file, const std::string& file);

}  // namespace rdmagw::southbound::ssh
