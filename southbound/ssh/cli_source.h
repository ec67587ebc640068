#pragma once
// A PollSource that reads a device through its CLI: per poll, each command
// runs over the target's (reused) SSH connection and its output goes to its
// parser. A failed command adds an error line and the others still run; a
// connection, host key or auth failure fails the whole poll.

#include <cstdint>
#include <memory>
#include <string_view>
#include <vector>

#include "southbound/poll_source.h"
#include "southbound/ssh/cli_command.h"
#include "southbound/ssh/command_runner.h"

namespace rdmagw::southbound::ssh {

class CliSource : public southbound::PollSource {
 public:
  // `runner` is shared only so the keepalive thread can hold it weakly.
  CliSource(std::shared_ptr<CommandRunner> runner, std::vector<CliCommand> commands);

  std::string_view transport() const override { return "ssh"; }
  Status poll(PollBatch& batch) override;

  // Which variant of command i won last (0 = the command itself).
  size_t preferredVariant(size_t i) const { return preferred_.at(i); }

 private:
  std::shared_ptr<CommandRunner> runner_;
  std::vector<CliCommand> commands_;
  std::vector<size_t> preferred_;  // one per command; poll() runs on one thread at a time
  std::vector<uint64_t> next_run_;  // per command: the poll number it runs next (CliCommand::every)
  uint64_t polls_ = 0;
};

}  // namespace rdmagw::southbound::ssh
