#pragma once
// A PollSource that reads a Nexus through NX-API: every command a poll is
// due to run goes into one request per output format (the JSON forms in
// one `cli_show`, the text forms in one `cli_show_ascii`), so a poll costs
// one or two round trips on one kept connection instead of one SSH
// exchange per command. The outputs go to the same parsers as the SSH
// collector's (NX-API bodies are the `| json` bodies), so the two write the
// same paths and a target may move between them without a counter reset.
//
// Per command, as over SSH: a command the switch cannot give as JSON
// (501 "Structured output unsupported") or whose output does not parse is
// asked again in its next form within the same poll, and the form that
// answered is asked first from then on. A whole-request failure is the
// switch's own words: 401 (login refused), 429 "Max sessions reached"
// (backs off, jittered, before the next login attempt), 413 (the commands
// are asked one per request instead).

#include <chrono>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "common/backoff.h"
#include "southbound/nxapi/nxapi_commands.h"
#include "southbound/nxapi/nxapi_config.h"
#include "southbound/nxapi/nxapi_http.h"
#include "southbound/poll_source.h"
#include "southbound/ssh/cli_command.h"

namespace rdmagw::southbound::nxapi {

struct NxapiSourceStats {
  uint64_t polls = 0;
  uint64_t last_poll_requests = 0;  // HTTP requests the last poll sent
  uint64_t fallbacks_to_text = 0;   // commands moved to their text form
  uint64_t backoffs = 0;            // 429 answers
};

class NxapiSource : public southbound::PollSource {
 public:
  using Clock = std::chrono::steady_clock;
  // `http`: the switch's client, shared with the target's other NX-API
  // source (fallback and CLI supplement); null: one of its own.
  NxapiSource(NxapiConfig config, std::vector<ssh::CliCommand> commands,
              std::function<Clock::time_point()> now = Clock::now, std::shared_ptr<NxapiHttp> http = nullptr);

  std::string_view transport() const override { return "nxapi"; }
  Status poll(PollBatch& batch) override;

  // Which NX-API form of command i answered last (0 = the first).
  size_t preferredVariant(size_t i) const { return preferred_.at(i); }
  NxapiHttpStats httpStats() const { return http_->stats(); }
  const NxapiSourceStats& stats() const { return stats_; }

 private:
  struct Pending {
    size_t command;
    size_t variant;
  };
  // Sends `group` (one output format) and parses each answer into
  // per_command; commands to ask again in their next form go to `retry`.
  Status ask(const std::vector<Pending>& group, TimestampNs ts, std::vector<PollBatch>& per_command,
             std::vector<std::string>& failures, std::vector<Pending>& retry);
  Status requestFailure(const HttpReply& reply);

  NxapiConfig config_;
  std::vector<ssh::CliCommand> commands_;
  std::vector<std::vector<NxapiVariant>> variants_;  // per command
  std::vector<size_t> preferred_;
  std::vector<uint64_t> next_run_;
  std::function<Clock::time_point()> now_;
  std::shared_ptr<NxapiHttp> http_;
  common::Backoff backoff_;
  Clock::time_point backoff_until_{};
  std::string backoff_reason_;
  uint64_t polls_ = 0;
  NxapiSourceStats stats_;
};

}  // namespace rdmagw::southbound::nxapi
