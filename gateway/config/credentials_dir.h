#pragma once
// Secrets handed over by systemd's LoadCredential= live in the directory
// $CREDENTIALS_DIRECTORY names (/run/credentials/rdmagw.service), readable
// only by the service. A config value starting with "$CREDENTIALS_DIRECTORY/"
// or "${CREDENTIALS_DIRECTORY}/" (password_file, key_file, a TLS key...)
// refers to a file there.

#include <string>
#include <string_view>

namespace rdmagw::gateway {

// The value with a leading $CREDENTIALS_DIRECTORY expanded from the
// environment; unchanged when it does not start so, or when the variable is
// unset (`rdmagw check-config` in a shell): reading the file then fails with
// the unexpanded path in the message, which says what is missing.
std::string expandCredentialsDirectory(std::string_view value);

}  // namespace rdmagw::gateway
