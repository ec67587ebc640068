#include "northbound/admin/admin_socket_config.h"

#include <sys/un.h>

namespace rdmagw::northbound::admin {

Status AdminSocketConfig::validate() const {
  if (path.empty()) return Status::ok();
  // A service runs in /; a relative path (or YAML's `false` read as one)
  // would land wherever the gateway happened to start.
  if (path.front() != '/') return Status::invalidArgument("must be an absolute path (or off), not \"" + path + "\"");
  if (path.size() >= sizeof(sockaddr_un::sun_path)) {
    return Status::invalidArgument("a unix socket path has at most " + std::to_string(sizeof(sockaddr_un::sun_path) - 1) +
                                   " bytes; this one has " + std::to_string(path.size()));
  }
  if (path.find('\0') != std::string::npos) return Status::invalidArgument("the path holds a NUL byte");
  if (path.back() == '/') return Status::invalidArgument("names a directory, not a socket file");
  return Status::ok();
}

}  // namespace rdmagw::northbound::admin
