#include "southbound/ssh/cli_source.h"

#include "models/log.h"
#include "southbound/ssh/cli_fallback.h"

#include <string>
#include <unordered_set>

namespace rdmagw::southbound::ssh {

CliSource::CliSource(std::shared_ptr<CommandRunner> runner, std::vector<CliCommand> commands)
    : runner_(std::move(runner)),
      commands_(std::move(commands)),
      preferred_(commands_.size(), 0),
      next_run_(commands_.size(), 0) {}

Status CliSource::poll(PollBatch& batch) {
  size_t parsed = 0;
  std::string first_failure;
  std::unordered_set<std::string> given;
  const uint64_t poll = polls_++;
  for (size_t i = 0; i < commands_.size(); ++i) {
    const CliCommand& cmd = commands_[i];
    if (poll < next_run_[i]) continue;
    const size_t first_update = batch.updates.size();
    Status st = fallbackParse(*runner_, cmd, &preferred_[i], batch);
    dropLeavesGivenEarlier(batch, first_update, given);
    if (st.code() != Status::Code::kUnavailable) next_run_[i] = poll + (cmd.every == 0 ? 1 : cmd.every);
    if (st.isOk()) {
      ++parsed;
      continue;
    }
    // The device is gone: the remaining commands would fail the same way.
    if (st.code() == Status::Code::kUnavailable) return st;
    if (cmd.optional) {
      RDMAGW_LOG(kDebug, "ssh") << "optional command failed: " << st.message();
      continue;
    }
    if (first_failure.empty()) first_failure = st.message();
    batch.error(st.message());
  }
  // Reachable but nothing readable is still a failed collection.
  if (parsed == 0 && !first_failure.empty()) {
    return Status::ioError("every command failed; first: " + first_failure);
  }
  return Status::ok();
}

}  // namespace rdmagw::southbound::ssh
