#pragma once
// Password and passphrase resolution, shared by every transport that logs
// in (SSH, gNMI, the SNMP notifications' USM keys). The config names where a secret lives
// (an environment variable or a file); the secret is read at connect time so
// a rotated password is picked up on the next reconnect without a restart.
// Error texts name the variable or file, never the content.

#include <string>
#include <string_view>

#include "common/secret.h"
#include "models/status.h"

namespace rdmagw::southbound {

// Reads the secret from the environment variable `env` if set in the config,
// else from `file`. One trailing newline (LF or CRLF) is trimmed: files are
// usually written by `echo`. `field_env`/`field_file` name the config fields
// for error texts. Both empty: an empty Secret (not an error).
Result<common::Secret> resolveSecret(std::string_view field_env, const std::string& env,
                                     std::string_view field_file, const std::string& file);

}  // namespace rdmagw::southbound
