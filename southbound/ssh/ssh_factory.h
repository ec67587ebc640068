#pragma once
// Builds an SSH CLI source from its config (validated first). The source
// owns a reused connection that the process-wide keepalive thread probes
// while idle and that shares the process-wide SSH concurrency limiter.

#include <vector>

#include "models/status.h"
#include "southbound/poll_source.h"
#include "southbound/ssh/cli_command.h"
#include "southbound/ssh/ssh_config.h"
#include "southbound/ssh/ssh_connection.h"

namespace rdmagw::southbound::ssh {

Result<southbound::PollSourcePtr> createCliSource(const SshConfig& config,
                                                  std::vector<CliCommand> commands);

// The same with connection options (a private limiter, an injected clock).
Result<southbound::PollSourcePtr> createCliSource(const SshConfig& config,
                                                  std::vector<CliCommand> commands,
                                                  ConnectionOptions options);

// Caps concurrent SSH connects/commands across all targets (default 16).
void setMaxConcurrentSsh(size_t limit);

}  // namespace rdmagw::southbound::ssh
