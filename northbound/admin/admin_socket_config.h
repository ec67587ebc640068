#pragma once
// Where the gateway serves its admin socket (admin_server.h): the config's
// top-level `admin_socket`.

#include <string>

#include "models/status.h"

namespace rdmagw::northbound::admin {

// The packaged service's path: systemd creates /run/rdmagw for it
// (RuntimeDirectory=rdmagw) and `rdmagw status` looks there by default.
inline constexpr const char* kDefaultAdminSocket = "/run/rdmagw/admin.sock";

struct AdminSocketConfig {
  std::string path;  // "" : no admin socket
  // false for the default path: a gateway run by hand, where /run/rdmagw does
  // not exist or another gateway already serves it, runs without the socket
  // (logged). true when the config names a path: failing to serve it fails
  // the start, as for any listener the operator asked for.
  bool required = false;

  // The path is absolute and fits a unix socket address (sun_path, 107
  // bytes and a NUL).
  Status validate() const;
};

}  // namespace rdmagw::northbound::admin
