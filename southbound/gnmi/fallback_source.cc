#include "southbound/gnmi/fallback_source.h"

#include <algorithm>

#include "models/log.h"
#include "models/self_metrics.h"
#include "models/thread_role.h"
#include "southbound/gnmi/gnmi_channel.h"
#include "southbound/gnmi/subscribe_request.h"
#include "southbound/secret_source.h"

namespace rdmagw::southbound::gnmi {
namespace {

using std::chrono::milliseconds;
using southbound::HandshakeGate;

int64_t toNs(milliseconds d) { return std::chrono::duration_cast<std::chrono::nanoseconds>(d).count(); }

}  // namespace

FallbackSource::FallbackSource(Store& store, FallbackOptions options)
    : store_(store),
      opts_(std::move(options)),
      idle_timeout_(opts_.config.effectiveIdleTimeout()),
      queue_(opts_.config.queue_capacity),
      client_(opts_.target, opts_.config, queue_, [this] { wake(); }),
      backoff_(opts_.config.backoff_initial, opts_.config.backoff_max),
      gate_(opts_.handshake_gate != nullptr ? opts_.handshake_gate : &HandshakeGate::gnmi()),
      gnmi_log_("gnmi", opts_.target + ": gNMI"),
      ssh_log_("gnmi", opts_.target + ": SSH fallback poll failed"),
      supplement_log_("gnmi", opts_.target + ": CLI supplement poll failed (gNMI still up)") {
  health_.kind = opts_.config.kind;
  health_.transport = "gnmi";
  health_.labels = opts_.labels;
  health_.last_error = "not connected yet";
  local_.transport = "gnmi";
  published_ = local_;
  store_.setHealth(opts_.target, health_);
}

FallbackSource::~FallbackSource() { stop(); }

Status FallbackSource::start() {
  std::lock_guard lock(mu_);
  if (thread_.joinable()) return Status::ok();
  stopping_ = false;
  if (self_metrics_id_ == 0) {
    // What the stream delivered and what became of it, so a reader can check
    // that nothing was lost: queued = applied + coalesced + dropped.
    self_metrics_id_ = SelfMetrics::instance().add([this](std::vector<SelfMetricSample>* out) {
      const GnmiSourceStats s = stats();
      const std::string& t = opts_.target;
      out->push_back({"gnmi_source_notifications_received", {t}, double(s.notifications)});
      out->push_back({"gnmi_source_leaves_queued", {t}, double(s.queued)});
      out->push_back({"gnmi_source_leaves_applied", {t}, double(s.applied)});
      out->push_back({"gnmi_source_leaves_coalesced", {t}, double(s.coalesced)});
      out->push_back({"gnmi_source_leaves_dropped", {t}, double(s.dropped)});
      out->push_back({"gnmi_source_sync_timeouts", {t}, double(s.sync_timeouts)});
      out->push_back({"gnmi_source_oversized_refusals", {t}, double(s.oversized_refusals)});
    });
  }
  thread_ = std::thread([this] {
    enterThreadRole("gnmi:" + opts_.target, ThreadRole::kIngest);  // the switch it reads
    run();
  });
  return Status::ok();
}

void FallbackSource::stop() {
  uint64_t metrics_id = 0;
  {
    std::lock_guard lock(mu_);
    stopping_ = true;
    std::swap(metrics_id, self_metrics_id_);
  }
  // Outside mu_: remove() waits for a collect() that may be inside stats().
  if (metrics_id != 0) SelfMetrics::instance().remove(metrics_id);
  cv_.notify_all();
  if (thread_.joinable()) thread_.join();
}

GnmiSourceStats FallbackSource::stats() const {
  std::lock_guard lock(mu_);
  return published_;
}

void FallbackSource::wake() {
  {
    std::lock_guard lock(mu_);
    // Already pending: whoever set it has notified, and the control thread
    // has not taken it yet. The stream calls this once per response, so
    // a busy thread is spared a futex wake for each.
    if (wake_pending_) return;
    wake_pending_ = true;
  }
  cv_.notify_all();
}

std::string FallbackSource::scrub(std::string text) const {
  // gRPC's texts come from code we do not control: never let the password through.
  Result<common::Secret> secret = resolveSecret("password_env", opts_.config.password_env,
                                                  "password_file", opts_.config.password_file);
  if (secret.isOk() && !secret->empty()) text = secret->scrub(std::move(text));
  return text;
}

void FallbackSource::switchTo(Transport t, const std::string& why) {
  if (t == transport_) return;
  // The fallback names itself: "ssh", or "nxapi" for a chain that polls NX-API first.
  const std::string fallback = opts_.ssh ? std::string(opts_.ssh->transport()) : "ssh";
  const std::string from = transport_ == Transport::kSsh ? fallback : "gnmi";
  const std::string to = t == Transport::kSsh ? fallback : "gnmi";
  RDMAGW_LOG(kInfo, "gnmi") << opts_.target << ": transport " << from << " -> " << to << " (" << why << ")";
  transport_ = t;
  health_.transport = to;
  ++local_.transport_changes;
  next_health_ = {};  // publish now
}

void FallbackSource::run() {
  next_gnmi_ = Clock::now() + opts_.config.first_dial_delay;
  const milliseconds idle = idle_timeout_;
  for (;;) {
    {
      std::lock_guard lock(mu_);
      if (stopping_) break;
      wake_pending_ = false;
    }
    Clock::time_point now = Clock::now();
    if (client_open_) {
      checkStream(now);
      client_.releaseStaleHandshake();
    }
    drainQueue();
    if (!client_open_ && now >= next_gnmi_) {
      // A due dial waits its turn for a handshake slot; meanwhile this
      // thread keeps polling SSH and publishing health. The grant wakes it.
      if (ticket_ == nullptr) ticket_ = gate_->request([this] { wake(); });
      if (ticket_->granted()) attemptGnmi(now);
    }
    if (ssh_polling_ && Clock::now() >= next_ssh_) pollSsh(Clock::now());
    const bool gnmi_carries = !ssh_polling_ && transport_ == Transport::kGnmi && health_.up;
    if (opts_.cli_supplement && gnmi_carries && Clock::now() >= next_supplement_) pollSupplement(Clock::now());
    publishHealth();

    // Sleep until the next timer, a wake from the stream, or stop.
    now = Clock::now();
    Clock::time_point until = now + std::chrono::seconds(1);  // health refresh, idle checks
    if (!client_open_ && ticket_ == nullptr) until = std::min(until, next_gnmi_);
    if (ssh_polling_) until = std::min(until, next_ssh_);
    if (opts_.cli_supplement && !ssh_polling_) until = std::min(until, std::max(now, next_supplement_));
    if (client_open_ && idle.count() > 0) until = std::min(until, now + std::max(idle / 4, milliseconds(10)));
    std::unique_lock lock(mu_);
    cv_.wait_until(lock, until, [this] { return stopping_ || wake_pending_; });
  }
  client_.close();
  ticket_.reset();
  drainQueue();
  client_open_ = false;
}

void FallbackSource::checkStream(Clock::time_point now) {
  grpc::Status status;
  const bool had_data = client_.responsesSinceOpen() > 0;
  if (client_.ended(&status)) {
    client_.close();
    client_open_ = false;
    if (status.ok()) status = grpc::Status(grpc::StatusCode::UNAVAILABLE, "server ended the stream");
    onGnmiFailure(status, had_data, /*from_stream=*/true, now);
    return;
  }
  if (had_data) {
    if (transport_ != Transport::kGnmi || !health_.up) {
      if (ssh_polling_) {
        handover_.clear();
        for (auto& [path, raw] : last_ssh_raw_) handover_[path] = raw;
        handover_until_ = now + 3 * opts_.config.sample_interval;
      }
      ssh_polling_ = false;
      switchTo(Transport::kGnmi, "gNMI stream up");
      if (!oversized_streak_) gnmi_log_.recovered();  // else only once it stays up
      health_.up = true;
      health_.last_error.clear();
      up_since_ = now;
      if (!oversized_streak_) {
        backoff_.reset();
        gnmi_failures_ = 0;
      }
      expired_ = false;
      next_health_ = {};
    }
    if (oversized_streak_ && health_.up && now - up_since_ >= opts_.config.sample_interval) {
      oversized_streak_ = false;  // up a whole interval since: the refusal is behind us
      gnmi_log_.recovered();
      backoff_.reset();
      gnmi_failures_ = 0;
    }
  }
  checkSync(now);
  const milliseconds idle = idle_timeout_;
  if (idle.count() > 0 && !stalled_ && nowNs() - client_.lastReceiveNs() > toNs(idle)) {
    stalled_ = true;
    ++local_.stalls;
    RDMAGW_LOG(kWarn, "gnmi") << opts_.target << ": no message for " << idle.count()
                              << " ms: stream stalled, reopening";
    client_.cancel();  // ended() reports it on a later turn
  }
}

void FallbackSource::attemptGnmi(Clock::time_point now) {
  stalled_ = false;
  health_.last_attempt_ns = nowNs();
  const auto t0 = Clock::now();
  grpc::Status s = client_.open(std::move(ticket_));
  health_.poll_duration_ns = std::chrono::duration_cast<std::chrono::nanoseconds>(Clock::now() - t0).count();
  if (!s.ok()) {
    client_.close();
    onGnmiFailure(s, false, /*from_stream=*/false, Clock::now());
    return;
  }
  client_open_ = true;
  opened_at_ = Clock::now();
  syncs_at_open_ = client_.counters().sync_responses.load();
  sync_overdue_ = false;
  RDMAGW_LOG(kDebug, "gnmi") << opts_.target << ": subscribed, encoding " << encodingName(client_.encoding());
}

void FallbackSource::onGnmiFailure(const grpc::Status& status, bool had_data, bool from_stream,
                                   Clock::time_point now) {
  const bool stalled = stalled_;
  stalled_ = false;
  sync_overdue_ = false;
  FailureClass cls = stalled ? FailureClass::kRetry : classify(status.error_code());
  std::string text = stalled ? std::string("stream stalled (no message within idle_timeout)")
                             : std::string(statusCodeName(status.error_code())) + ": " + status.error_message();
  // On an open stream, RESOURCE_EXHAUSTED is gRPC refusing a message above
  // the receive limit (at dial time it is the dial-slot wait instead).
  const bool oversized = from_stream && !stalled && status.error_code() == grpc::StatusCode::RESOURCE_EXHAUSTED;
  if (oversized) {
    ++local_.oversized_refusals;
    oversized_streak_ = true;
    text = "refused a message above max_message_bytes (" + std::to_string(opts_.config.max_message_bytes) +
           " bytes): " + text;
  }
  text = scrub(std::move(text));
  gnmi_error_ = text;
  ++health_.poll_errors;
  if (had_data && !oversized_streak_) {
    backoff_.reset();
    gnmi_failures_ = 0;
  }
  const bool was_ssh = transport_ == Transport::kSsh;
  if (!was_ssh) {
    health_.up = false;
    health_.last_error = text;
  }
  if (cls == FailureClass::kFatal) {
    next_gnmi_ = now + opts_.config.retry_gnmi_after;
    gnmi_log_.failed("refused (" + text + "); next try in " +
                     std::to_string(opts_.config.retry_gnmi_after.count() / 1000) + " s");
  } else {
    ++gnmi_failures_;
    const milliseconds delay = backoff_.next();
    local_.retry_delay_ms = static_cast<uint64_t>(delay.count());
    local_.retry_attempt = static_cast<uint64_t>(backoff_.attempts());
    next_gnmi_ = now + delay;
    gnmi_log_.failed(text + "; retry in " + std::to_string(delay.count()) + " ms");
  }
  if (opts_.ssh != nullptr && !ssh_polling_ &&
      (cls == FailureClass::kFatal || gnmi_failures_ >= opts_.config.fallback_after_failures)) {
    ssh_polling_ = true;
    handover_.clear();
    next_ssh_ = now;
    switchTo(Transport::kSsh, "gNMI: " + text);
  }
  next_health_ = {};
}

// A stream past sync_timeout without a sync_response is reported, once per
// stream; its updates keep being applied (each is a reading of its own, and
// dropping them would leave a switch that never syncs unread).
void FallbackSource::checkSync(Clock::time_point now) {
  const uint64_t syncs = client_.counters().sync_responses.load();
  if (sync_overdue_ && syncs > syncs_at_open_) {
    sync_overdue_ = false;  // late, but it came
    next_health_ = {};
    return;
  }
  const milliseconds limit = opts_.config.sync_timeout;
  if (sync_overdue_ || limit.count() <= 0 || syncs > syncs_at_open_ || now - opened_at_ < limit) return;
  sync_overdue_ = true;
  ++local_.sync_timeouts;
  RDMAGW_LOG(kWarn, "gnmi") << opts_.target << ": no sync_response within " << limit.count()
                            << " ms of subscribing; updates are applied as they come";
  next_health_ = {};
}

// Why a target that is up is not quite right, most pressing first: readings
// lost to a full queue, then updates that did not map, then a missing sync.
std::string FallbackSource::upReason(const QueueStats& q) {
  if (q.dropped > dropped_at_health_) {
    const std::string text = "ingest queue full (queue_capacity " + std::to_string(queue_.capacity()) + "): " +
                             std::to_string(q.dropped - dropped_at_health_) + " leaf update(s) dropped since the last report, " +
                             std::to_string(q.dropped) + " in all";
    dropped_at_health_ = q.dropped;
    return text;
  }
  if (std::string e = client_.lastMapError(); !e.empty()) return e;
  if (sync_overdue_) {
    return "no sync_response within sync_timeout (" + std::to_string(opts_.config.sync_timeout.count()) +
           " ms) of subscribing; updates applied as they come";
  }
  return "";
}

// The CLI-only leaves while gNMI carries the target. Its failures are read
// errors of the target (gNMI still carries it), never a transport change.
void FallbackSource::drainQueue() {
  if (!queue_.drain(batch_)) return;
  // Stream data that came in after this turn's checkStream(): switch (and
  // arm the hand-over filter) before it is written.
  if (client_open_ && ssh_polling_) checkStream(Clock::now());
  if (!handover_.empty()) filterHandover();
  size_t from = 0;
  const auto applyUpTo = [&](size_t to) {
    if (to <= from) return;
    Store::ApplyResult r = store_.apply(opts_.target, std::span<const Update>(batch_.updates).subspan(from, to - from));
    local_.applied += r.applied;
    local_.rejected += r.rejected;
    if (r.rejected > 0) {
      RDMAGW_LOG(kDebug, "gnmi") << opts_.target << ": store rejected " << r.rejected
                                 << " update(s); first: " << r.first_error;
    }
    from = to;
  };
  for (auto& [pos, prefix] : batch_.deletes) {
    applyUpTo(pos);
    Result<Path> p = Path::parse(prefix);
    if (p.isOk()) local_.removed += store_.remove(opts_.target, *p);
  }
  applyUpTo(batch_.updates.size());
  if (transport_ == Transport::kGnmi) health_.last_success_ns = nowNs();
}

void FallbackSource::publishHealth() {
  const Clock::time_point now = Clock::now();
  const StreamCounters& c = client_.counters();
  const QueueStats q = queue_.stats();
  local_.responses = c.responses;
  local_.notifications = c.notifications;
  local_.updates = c.updates;
  local_.deletes = c.deletes;
  local_.keepalives = c.keepalives;
  local_.sync_responses = c.sync_responses;
  local_.map_errors = c.map_errors;
  local_.dials = c.dials;
  local_.queued = q.pushed;
  local_.coalesced = q.coalesced;
  local_.dropped = q.dropped;
  local_.queue_high_water = q.high_water;
  local_.transport = health_.transport;
  local_.up = health_.up;
  {
    std::lock_guard lock(mu_);
    published_ = local_;
  }
  // The store's copy is refreshed on every change and at most once a second
  // otherwise: counts need not be fresher than a scrape.
  if (now < next_health_) return;
  next_health_ = now + std::chrono::seconds(1);

  TargetHealth h = health_;
  if (transport_ == Transport::kGnmi) {
    // gNMI has no polls: count notifications; coalesced-away updates are not
    // errors, dropped ones are (they lost a reading).
    h.polls = health_.polls + c.notifications;
    h.read_errors = health_.read_errors + c.map_errors + q.dropped;
    if (h.up && h.last_error.empty()) h.last_error = upReason(q);
  }
  if (!h.up && !expired_) {
    const milliseconds stale = opts_.config.stale_after.count() > 0 ? opts_.config.stale_after
                                                                    : 3 * opts_.config.sample_interval;
    if (h.last_success_ns != 0 && nowNs() - h.last_success_ns > toNs(stale)) {
      store_.expireData(opts_.target);  // `up` stays, at 0; stale values go
      expired_ = true;
    }
  }
  store_.setHealth(opts_.target, h);
}

}  // namespace rdmagw::southbound::gnmi
