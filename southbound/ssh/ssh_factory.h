#pragma once
// Builds an SSH CLI source from its config (validated first). The source
// owns a reused connection that the process-wide keepalive thread probes
// while idle and that shares the process-wide SSH concurrency limiter.

#include <memory>
#include <vector>

#include "models/status.h"
#include "southbound/poll_source.h"
#include "southbound/ssh/cli_command.h"
#include "southbound/ssh/command_runner.h"
#include "southbound/ssh/ssh_config.h"
#include "southbound/ssh/ssh_connection.h"

namespace rdmagw::southbound::ssh {

Result<southbound::PollSourcePtr> createCliSource(const SshConfig& config,
                                                  std::vector<CliCommand> commands);

// The same with connection options (a private limiter, an injected clock).
Result<southbound::PollSourcePtr> createCliSource(const SshConfig& config,
                                                  std::vector<CliCommand> commands,
                                                  ConnectionOptions options);

// The same, and a runner on the source's own connection for another
// reader of the same device (a remote host's GPUs): one session per device.
struct CliSourceAndRunner {
  southbound::PollSourcePtr source;
  std::shared_ptr<CommandRunner> runner;
};
Result<CliSourceAndRunner> createCliSourceAndRunner(const SshConfig& config, std::vector<CliCommand> commands);

// Caps concurrent SSH connects/commands across all targets (default 16).
void setMaxConcurrentSsh(size_t limit);

}  // namespace rdmagw::southbound::ssh
