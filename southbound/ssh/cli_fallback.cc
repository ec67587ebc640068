#include "southbound/ssh/cli_fallback.h"

#include <array>

namespace rdmagw::southbound::ssh {
namespace {

constexpr std::array<std::string_view, 8> kBanners = {
    "% Invalid",  "% Incomplete", "% Ambiguous", "% Unknown", "Syntax error",
    "Invalid input detected", "Error: Unknown command", "Invalid command"};

std::string_view trim(std::string_view s) {
  while (!s.empty() && (s.front() == ' ' || s.front() == '\t' || s.front() == '\r')) s.remove_prefix(1);
  while (!s.empty() && (s.back() == ' ' || s.back() == '\t' || s.back() == '\r')) s.remove_suffix(1);
  return s;
}

std::string firstLine(std::string_view text) {
  std::string_view t = trim(text.substr(0, text.find('\n')));
  return std::string(t.substr(0, 120));
}

struct Variant {
  const std::string& command;
  CliParseFn parse;
};

Variant variantAt(const CliCommand& cmd, size_t i) {
  if (i == 0) return {cmd.command, cmd.parse};
  return {cmd.alternatives[i - 1].command, cmd.alternatives[i - 1].parse};
}

}  // namespace

bool isErrorBanner(std::string_view text) {
  // Only the first few non-empty lines: a long output may legitimately
  // mention "Syntax error" somewhere (an interface description, a log).
  int lines = 0;
  while (!text.empty() && lines < 3) {
    size_t nl = text.find('\n');
    std::string_view line = trim(text.substr(0, nl));
    text = nl == std::string_view::npos ? std::string_view() : text.substr(nl + 1);
    if (line.empty() || line.front() == '^') continue;  // the caret under the bad word
    ++lines;
    for (std::string_view b : kBanners) {
      if (line.substr(0, b.size()) == b) return true;
    }
  }
  return false;
}

Status fallbackParse(CommandRunner& runner, const CliCommand& cmd, size_t* preferred,
                     PollBatch& out) {
  const size_t n = 1 + cmd.alternatives.size();
  if (*preferred >= n) *preferred = 0;
  std::string reasons;
  for (size_t k = 0; k < n; ++k) {
    // The remembered winner first, then the others in their declared order.
    const size_t i = k == 0 ? *preferred : (k <= *preferred ? k - 1 : k);
    const Variant v = variantAt(cmd, i);
    std::string why;
    Result<CommandOutput> r = runner.execute(v.command);
    if (!r.isOk()) {
      if (r.status().code() == Status::Code::kUnavailable) return r.status();
      why = r.status().message();
    } else if (isErrorBanner(r->text) || (r->text.empty() && isErrorBanner(r->stderr_text))) {
      why = "device answered '" + firstLine(r->text.empty() ? r->stderr_text : r->text) + "'";
    } else if (v.parse == nullptr) {
      why = "no parser";
    } else {
      PollBatch scratch;
      Status st = v.parse(r->text, nowNs(), scratch);
      if (st.isOk()) {
        for (Update& u : scratch.updates) out.updates.push_back(std::move(u));
        for (std::string& e : scratch.errors) out.errors.push_back("'" + commandLabel(v.command) + "': " + e);
        // The subtrees the parser read whole, or rows it no longer gives stay.
        for (std::string& r : scratch.replaced) out.replaced.push_back(std::move(r));
        *preferred = i;
        return Status::ok();
      }
      why = "parse failed: " + st.message();
      if (r->exit_status > 0) why += " (exit status " + std::to_string(r->exit_status) + ")";
    }
    reasons += (reasons.empty() ? "" : "; ") + ("'" + commandLabel(v.command) + "': " + why);
  }
  return Status::ioError(reasons);
}

void dropLeavesGivenEarlier(PollBatch& batch, size_t from, std::unordered_set<std::string>& given) {
  const size_t end = batch.updates.size();
  size_t kept = from;
  for (size_t i = from; i < end; ++i) {
    if (given.contains(batch.updates[i].path)) continue;
    if (kept != i) batch.updates[kept] = std::move(batch.updates[i]);
    ++kept;
  }
  batch.updates.resize(kept);
  for (size_t i = from; i < kept; ++i) given.insert(batch.updates[i].path);
}

}  // namespace rdmagw::southbound::ssh
