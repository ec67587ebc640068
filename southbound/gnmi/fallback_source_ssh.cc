// FallbackSource's SSH side: the CLI supplement polled beside a live gNMI
// stream, the whole SSH poll while gNMI is down, and the hand-over that
// drops an SSH batch once gNMI is back. The stream side is fallback_source.cc.

#include <algorithm>

#include "models/log.h"
#include "southbound/gnmi/fallback_source.h"

namespace rdmagw::southbound::gnmi {

void FallbackSource::pollSupplement(Clock::time_point now) {
  PollBatch batch;
  Status status = opts_.cli_supplement->poll(batch);
  ++local_.supplement_polls;
  next_supplement_ = std::max(now + opts_.ssh_interval, Clock::now());
  Store::ApplyResult r = store_.apply(opts_.target, batch);
  local_.applied += r.applied;
  local_.rejected += r.rejected;
  health_.read_errors += batch.errors.size() + (status.isOk() ? 0 : 1);
  if (status.isOk()) {
    supplement_log_.recovered();
  } else {
    supplement_log_.failed(status.message());
  }
}

void FallbackSource::pollSsh(Clock::time_point now) {
  // gNMI answered already: the next turn switches over; an SSH reading taken
  // now could be older than what the stream just delivered.
  if (client_open_ && client_.responsesSinceOpen() > 0) return;
  const uint64_t responses_before = client_.counters().responses.load();
  PollBatch batch;
  const TimestampNs started = nowNs();
  const auto t0 = Clock::now();
  Status status = opts_.ssh->poll(batch);
  ++local_.ssh_polls;
  // The fallback may be a chain (NX-API, then SSH) that changed transport.
  health_.transport = std::string(opts_.ssh->transport());
  next_ssh_ = std::max(next_ssh_ + opts_.ssh_interval, Clock::now());
  if (client_open_ && client_.counters().responses.load() != responses_before) {
    // gNMI came back while this poll ran: its data is at least as new.
    RDMAGW_LOG(kDebug, "gnmi") << opts_.target << ": SSH batch discarded, gNMI is back";
    return;
  }
  health_.last_attempt_ns = started;
  health_.poll_duration_ns = std::chrono::duration_cast<std::chrono::nanoseconds>(Clock::now() - t0).count();
  ++health_.polls;
  Store::ApplyResult r = store_.apply(opts_.target, batch);
  last_ssh_raw_.clear();
  for (const Update& u : batch.updates) {
    if (const uint64_t* raw = std::get_if<uint64_t>(&u.value)) last_ssh_raw_.emplace_back(u.path, *raw);
  }
  local_.applied += r.applied;
  local_.rejected += r.rejected;
  if (!status.isOk()) {
    ++health_.poll_errors;
    ssh_log_.failed(status.message());
    health_.up = false;
    health_.last_error = status.message();
  } else {
    ssh_log_.recovered();
    health_.up = true;
    health_.last_success_ns = nowNs();
    health_.read_errors += batch.errors.size();
    // Up through SSH, but say why gNMI is not carrying the target.
    health_.last_error = !batch.errors.empty() ? batch.errors.front() : "gnmi: " + gnmi_error_;
    expired_ = false;
  }
  next_health_ = {};
}

void FallbackSource::filterHandover() {
  if (Clock::now() > handover_until_) {
    handover_.clear();
    return;
  }
  std::vector<Update> kept;
  kept.reserve(batch_.updates.size());
  size_t d = 0;
  for (size_t i = 0; i < batch_.updates.size(); ++i) {
    while (d < batch_.deletes.size() && batch_.deletes[d].first == i) batch_.deletes[d++].first = kept.size();
    Update& u = batch_.updates[i];
    auto it = handover_.find(u.path);
    const uint64_t* raw = std::get_if<uint64_t>(&u.value);
    if (it != handover_.end() && raw != nullptr) {
      if (*raw < it->second) {
        ++local_.handover_dropped;  // sampled before the last SSH reading
        continue;
      }
      handover_.erase(it);  // caught up: from here the stream is newer
    }
    kept.push_back(std::move(u));
  }
  while (d < batch_.deletes.size()) batch_.deletes[d++].first = kept.size();
  batch_.updates.swap(kept);
}

}  // namespace rdmagw::southbound::gnmi
