#pragma once
// A listening unix stream socket at a path, created safely: never replaces
// a file that is not a socket, never steals the socket of a live process,
// and is never connectable with a wider mode than asked.

#include <sys/types.h>

#include <string>

#include "models/status.h"

namespace rdmagw::northbound::admin {

struct UnixListener {
  int fd = -1;
  dev_t dev = 0;  // the socket file's identity, so close() removes ours only
  ino_t ino = 0;
};

// Binds and listens at `path` with file mode `mode`. A socket file left by a
// process that died (nothing accepts on it) is replaced; one a process still
// accepts on is an error naming it, as is a missing directory or any other
// kind of file at the path.
Result<UnixListener> listenUnix(const std::string& path, mode_t mode);

// Closes the socket and removes its file, unless the path now names another
// file (a newer process took it over).
void closeUnix(UnixListener* listener, const std::string& path);

}  // namespace rdmagw::northbound::admin
