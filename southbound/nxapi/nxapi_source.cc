#include "southbound/nxapi/nxapi_source.h"

#include <unordered_set>

#include "models/log.h"
#include "southbound/nxapi/nxapi_envelope.h"
#include "southbound/ssh/cli_fallback.h"

namespace rdmagw::southbound::nxapi {
namespace {

std::string seconds(std::chrono::milliseconds d) {
  return std::to_string(d.count() / 1000) + "." + std::to_string(d.count() % 1000 / 100) + " s";
}

}  // namespace

NxapiSource::NxapiSource(NxapiConfig config, std::vector<ssh::CliCommand> commands,
                         std::function<Clock::time_point()> now, std::shared_ptr<NxapiHttp> http)
    : config_(std::move(config)),
      commands_(std::move(commands)),
      preferred_(commands_.size(), 0),
      next_run_(commands_.size(), 0),
      now_(std::move(now)),
      http_(http ? std::move(http) : std::make_shared<NxapiHttp>(config_, "", now_)),
      backoff_(std::chrono::seconds(1), std::chrono::minutes(5)) {
  for (const ssh::CliCommand& c : commands_) variants_.push_back(nxapiVariants(c));
}

// The switch's words for a request it refused as a whole: the envelope's
// message when it sent one, else the HTML page's title.
Status NxapiSource::requestFailure(const HttpReply& reply) {
  std::string words;
  Result<Envelope> env = parseEnvelope(reply.body, 0);
  if (env.isOk() && !env->outputs.empty()) {
    words = env->outputs.front().msg;
  } else if (!env.isOk()) {
    words = env.status().message();
  }
  const std::string head = "nxapi " + config_.endpoint() + ": HTTP " + std::to_string(reply.status);
  if (reply.status == 401) {
    return Status::unavailable(head + " (the switch refused the login of \"" + config_.username + "\"): " + words);
  }
  if (reply.status == 429) {
    ++stats_.backoffs;
    const std::chrono::milliseconds wait = backoff_.next();
    backoff_until_ = now_() + wait;
    backoff_reason_ = head + ": " + words;
    return Status::unavailable(backoff_reason_ + " (the switch keeps about 5 sessions per user and address); " +
                               "next login in " + seconds(wait));
  }
  return Status::ioError(head + ": " + words);
}

Status NxapiSource::ask(const std::vector<Pending>& group, TimestampNs ts, std::vector<PollBatch>& per_command,
                        std::vector<std::string>& failures, std::vector<Pending>& retry) {
  if (group.empty()) return Status::ok();
  const OutputFormat format = variants_[group[0].command][group[0].variant].format;
  std::vector<std::string> inputs;
  for (const Pending& p : group) inputs.push_back(variants_[p.command][p.variant].command);
  const Dialect dialect = config_.dialect;
  ++stats_.last_poll_requests;
  Result<HttpReply> reply = http_->post(requestBody(dialect, format, inputs), contentType(dialect));
  if (!reply.isOk()) return reply.status();
  // JSON-RPC answers a batch with a failing call as HTTP 500 and the
  // per-call errors in the body; ins_api keeps 200 for per-command errors.
  const bool envelope_status = reply->status == 200 || (reply->status == 500 && dialect == Dialect::kJsonRpc);
  if (reply->status == 413 && group.size() > 1) {
    // Too much for one request: one command per request, this poll too.
    for (const Pending& p : group) {
      Status st = ask({p}, ts, per_command, failures, retry);
      if (st.code() == Status::Code::kUnavailable) return st;
    }
    return Status::ok();
  }
  if (!envelope_status) {
    Status st = requestFailure(*reply);
    if (st.code() == Status::Code::kUnavailable) return st;
    for (const Pending& p : group)
      failures[p.command] = ssh::commandLabel(inputs[size_t(&p - group.data())]) + ": " + st.message();
    return Status::ok();
  }
  Result<Envelope> env = parseEnvelope(reply->body, group.size());
  if (!env.isOk()) {
    for (size_t k = 0; k < group.size(); ++k) {
      failures[group[k].command] = inputs[k] + ": " + env.status().message();
    }
    return Status::ok();
  }
  for (size_t k = 0; k < group.size(); ++k) {
    const Pending& p = group[k];
    const CommandOutput& out = env->outputs[k];
    const NxapiVariant& v = variants_[p.command][p.variant];
    PollBatch scratch;
    Status st = parseOutput(out, v, ts, scratch);
    if (st.isOk()) {
      per_command[p.command] = std::move(scratch);
      preferred_[p.command] = p.variant;
      failures[p.command].clear();
      continue;
    }
    std::string& f = failures[p.command];
    f += (f.empty() ? "" : "; ") + st.message();
    if (p.variant + 1 < variants_[p.command].size()) {
      if (structuredUnsupported(out)) {
        ++stats_.fallbacks_to_text;
        http_->countTextFallback();
      }
      retry.push_back({p.command, p.variant + 1});
    }
  }
  return Status::ok();
}

Status NxapiSource::poll(PollBatch& batch) {
  if (now_() < backoff_until_) {
    const auto left = std::chrono::duration_cast<std::chrono::milliseconds>(backoff_until_ - now_());
    return Status::unavailable(backoff_reason_ + "; backing off, next login in " + seconds(left));
  }
  const uint64_t poll = polls_++;
  ++stats_.polls;
  stats_.last_poll_requests = 0;
  const TimestampNs ts = nowNs();
  std::vector<PollBatch> per_command(commands_.size());
  std::vector<std::string> failures(commands_.size());
  std::vector<bool> ran(commands_.size(), false);
  // Round one asks each due command in the form that answered last; the
  // rounds after it only the commands whose form failed, in their next one.
  std::vector<Pending> pending;
  for (size_t i = 0; i < commands_.size(); ++i) {
    if (poll < next_run_[i] || variants_[i].empty()) continue;
    ran[i] = true;
    pending.push_back({i, preferred_[i]});
  }
  while (!pending.empty()) {
    std::vector<Pending> json, ascii, retry;
    for (const Pending& p : pending) {
      (variants_[p.command][p.variant].format == OutputFormat::kJson ? json : ascii).push_back(p);
    }
    for (const std::vector<Pending>* group : {&json, &ascii}) {
      Status st = ask(*group, ts, per_command, failures, retry);
      if (st.code() == Status::Code::kUnavailable) {
        return st;  // the device (or its login) is gone: no partial poll
      }
    }
    pending = std::move(retry);
  }
  backoff_.reset();
  // Merged in command order, so the first command that gives a leaf owns it,
  // as over SSH.
  size_t parsed = 0;
  std::string first_failure;
  std::unordered_set<std::string> given;
  for (size_t i = 0; i < commands_.size(); ++i) {
    if (!ran[i]) continue;
    next_run_[i] = poll + (commands_[i].every == 0 ? 1 : commands_[i].every);
    if (failures[i].empty()) {
      ++parsed;
      const size_t from = batch.updates.size();
      for (Update& u : per_command[i].updates) batch.updates.push_back(std::move(u));
      for (std::string& e : per_command[i].errors) batch.errors.push_back(std::move(e));
      for (std::string& r : per_command[i].replaced) batch.replaced.push_back(std::move(r));
      ssh::dropLeavesGivenEarlier(batch, from, given);
      continue;
    }
    if (commands_[i].optional) {
      RDMAGW_LOG(kDebug, "nxapi") << config_.endpoint() << ": optional command failed: " << failures[i];
      continue;
    }
    if (first_failure.empty()) first_failure = failures[i];
    batch.error("nxapi " + config_.endpoint() + ": " + failures[i]);
  }
  if (parsed == 0 && !first_failure.empty()) {
    return Status::ioError("every command failed; first: " + first_failure);
  }
  return Status::ok();
}

}  // namespace rdmagw::southbound::nxapi
