#include "southbound/ssh/ssh_factory.h"

#include <memory>

#include "southbound/ssh/cli_source.h"
#include "southbound/ssh/keepalive_service.h"

namespace rdmagw::southbound::ssh {

Result<southbound::PollSourcePtr> createCliSource(const SshConfig& config,
                                                  std::vector<CliCommand> commands) {
  return createCliSource(config, std::move(commands), ConnectionOptions{});
}

namespace {

Status validateCli(const SshConfig& config, const std::vector<CliCommand>& commands) {
  std::vector<std::string> problems;
  if (Status st = config.validate(); !st.isOk()) problems.push_back(st.message());
  if (commands.empty()) problems.push_back("commands: at least one is required");
  for (size_t i = 0; i < commands.size(); ++i) {
    const std::string key = "commands[" + std::to_string(i) + "]";
    if (commands[i].command.empty()) problems.push_back(key + ".command: must not be empty");
    if (commands[i].parse == nullptr) problems.push_back(key + ".parse: no parser");
    for (size_t j = 0; j < commands[i].alternatives.size(); ++j) {
      const CliAlternative& a = commands[i].alternatives[j];
      const std::string akey = key + ".alternatives[" + std::to_string(j) + "]";
      if (a.command.empty()) problems.push_back(akey + ".command: must not be empty");
      if (a.parse == nullptr) problems.push_back(akey + ".parse: no parser");
    }
  }
  if (!problems.empty()) {
    std::string msg;
    for (const std::string& p : problems) msg += (msg.empty() ? "" : "; ") + p;
    return Status::invalidArgument(msg);
  }
  return Status::ok();
}

}  // namespace

Result<southbound::PollSourcePtr> createCliSource(const SshConfig& config, std::vector<CliCommand> commands,
                                                  ConnectionOptions options) {
  if (Status st = validateCli(config, commands); !st.isOk()) return st;
  auto connection = std::make_shared<SshConnection>(config, std::move(options));
  KeepaliveService::process().add(connection);
  return southbound::PollSourcePtr(std::make_unique<CliSource>(connection, std::move(commands)));
}

Result<CliSourceAndRunner> createCliSourceAndRunner(const SshConfig& config, std::vector<CliCommand> commands) {
  if (Status st = validateCli(config, commands); !st.isOk()) return st;
  auto connection = std::make_shared<SshConnection>(config, ConnectionOptions{});
  KeepaliveService::process().add(connection);
  return CliSourceAndRunner{std::make_unique<CliSource>(connection, std::move(commands)), connection};
}

void setMaxConcurrentSsh(size_t limit) { ConcurrencyLimiter::process().setLimit(limit); }

}  // namespace rdmagw::southbound::ssh
