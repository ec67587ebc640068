#include "southbound/ssh/cli_source.h"

#include "models/log.h"
#include "southbound/ssh/cli_fallback.h"

namespace rdmagw::southbound::ssh {

CliSource::CliSource(std::shared_ptr<CommandRunner> runner, std::vector<CliCommand> commands)
    : runner_(std::move(runner)), commands_(std::move(commands)), preferred_(commands_.size(), 0) {}

Status CliSource::poll(PollBatch& batch) {
  size_t parsed = 0;
  std::string first_failure;
  for (size_t i = 0; i < commands_.size(); ++i) {
    const CliCommand& cmd = commands_[i];
    Status st = fallbackParse(*runner_, cmd, &preferred_[i], batch);
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
