#pragma once
// Runs one CLI command on a device. SshConnection is the real one; tests of
// the CLI source plug in a scripted runner.

#include <string>

#include "models/status.h"
#include "southbound/ssh/ssh_session.h"

namespace rdmagw::southbound::ssh {

class CommandRunner {
 public:
  virtual ~CommandRunner() = default;
  // kUnavailable: the device cannot be reached (connect, auth, host key,
  // timeout, connection lost, reconnect backoff): the poll fails as a whole.
  // Any other error concerns this command only.
  virtual Result<CommandOutput> execute(const std::string& command) = 0;
};

}  // namespace rdmagw::southbound::ssh
