#include "northbound/gnmi/subscribe_session.h"

#include <algorithm>

#include "models/log.h"
#include "northbound/gnmi/path_pattern.h"
#include "northbound/gnmi/run_notification.h"
#include "northbound/gnmi/subscription_hub.h"
#include "northbound/gnmi/upstream_link.h"

namespace rdmagw::northbound::gnmi {
namespace {

grpc::Status invalid(const std::string& msg) {
  return grpc::Status(grpc::StatusCode::INVALID_ARGUMENT, msg);
}

std::atomic<int64_t>& modeGauge(ServerStats& stats, ::gnmi::SubscriptionList::Mode mode) {
  switch (mode) {
    case ::gnmi::SubscriptionList::ONCE: return stats.subscribers_once;
    case ::gnmi::SubscriptionList::POLL: return stats.subscribers_poll;
    default: return stats.subscribers_stream;
  }
}

void countError(ServerStats& stats, const grpc::Status& st) {
  stats.subscribe_errors[std::min<int>(st.error_code(), 16)].fetch_add(1);
}

std::string leafKey(const std::string& target, const std::string& path) {
  std::string key = target;
  key.push_back('\0');
  key += path;
  return key;
}

}  // namespace

SubscribeSession::SubscribeSession(SubscriptionHub* hub, grpc::CallbackServerContext* ctx,
                                   StreamOrigin origin, const grpc::Status& refusal)
    : hub_(hub),
      ctx_(ctx),
      origin_(std::move(origin)),
      queue_(hub->options().queue_capacity),
      links_(origin_.client, hub->stats()) {
  LinkReceiver receiver;
  receiver.leaves = [this](uint64_t id, const std::vector<ChangedLeaf>& leaves) { linkLeaves(id, leaves); };
  receiver.synced = [this](uint64_t id) { linkSynced(id); };
  receiver.ended = [this](uint64_t id, const grpc::Status& st) { linkEnded(id, st); };
  sink_ = std::make_shared<LinkSink>(std::move(receiver));
  grpc::Status st = refusal;
  if (st.ok()) st = hub_->admit(this, origin_.client);
  if (!st.ok()) {
    countError(hub_->stats(), st);
    {
      std::lock_guard lock(mu_);
      finish_decided_ = true;
    }
    Finish(st);
    return;
  }
  startRead();
}

void SubscribeSession::startRead() {
  std::lock_guard ops(ops_mu_);
  {
    std::lock_guard lock(mu_);
    if (finish_decided_ || finish_pending_) return;
  }
  StartRead(&req_);
}

void SubscribeSession::OnReadDone(bool ok) {
  bool read_again = false;
  {
    std::lock_guard lock(mu_);
    grpc::Status err;
    if (!ok) {
      // Half-close: fine after the request (the stream goes on until
      // cancelled), an error before it.
      if (phase_ == Phase::kAwaitRequest) err = invalid("stream closed before a SubscriptionList");
    } else if (phase_ == Phase::kAwaitRequest) {
      err = acceptRequestLocked();
    } else if (req_.has_poll()) {
      if (spec_.list_mode == ::gnmi::SubscriptionList::POLL) {
        ++polls_pending_;
      } else {
        err = invalid("Poll is only valid on a subscription of mode POLL");
      }
    } else if (req_.has_subscribe()) {
      err = invalid("a second SubscriptionList on one Subscribe stream is not allowed");
    } else {
      err = invalid("a SubscribeRequest must carry a SubscriptionList or a Poll");
    }
    if (!err.ok()) {
      countError(hub_->stats(), err);
      finishLocked(err, true);
    }
    read_again = ok && err.ok();
  }
  if (read_again) startRead();
  hub_->wake();
  kick();
}

grpc::Status SubscribeSession::acceptRequestLocked() {
  if (!req_.has_subscribe()) {
    return invalid("the first SubscribeRequest must carry a SubscriptionList");
  }
  grpc::Status st = parseSubscriptionList(req_.subscribe(), hub_->options().sample, &spec_);
  if (!st.ok()) return st;
  // Before initial_pending_ is visible to the dispatcher: a change the
  // store applies after this is copied to the hub, one applied before is in
  // the initial sync.
  hub_->setInterest(this, interestOf(spec_));
  list_ = req_.subscribe();
  phase_ = Phase::kActive;
  initial_pending_ = true;
  timed_.assign(spec_.entries.size(), Timed{});
  modeGauge(hub_->stats(), spec_.list_mode).fetch_add(1);
  registered_mode_ = true;
  return grpc::Status::OK;
}

void SubscribeSession::serviceDue(Clock::time_point now, LeafCache& cache) {
  std::lock_guard lock(mu_);
  if (phase_ != Phase::kActive || finish_pending_) return;
  // In a fleet the initial set waits for the first route check, so the
  // links it opens are waited for by the first sync_response.
  if (initial_pending_ && (links_.routed() || !hub_->fleetRouting() || origin_.forwarded)) {
    initial_pending_ = false;
    for (size_t i = 0; i < spec_.entries.size(); ++i) {
      const SubscriptionEntry& e = spec_.entries[i];
      queueMatchingLocked(e, cache, false, spec_.updates_only);
      timed_[i].next_sample = now + e.interval;
      timed_[i].next_heartbeat = now + e.heartbeat;
    }
    if (!links_.deferSync(now)) markSyncLocked();
    if (spec_.list_mode == ::gnmi::SubscriptionList::ONCE) finish_after_sync_ = true;
  }
  // In a fleet a poll is answered once routeCheck opened its round of
  // links, and the next poll only after this one's sync was marked.
  const bool poll_rounds = hub_->fleetRouting() && !origin_.forwarded;
  while (polls_pending_ > 0 && !initial_pending_ && !links_.syncDeferred()) {
    if (poll_rounds && !poll_round_open_) break;
    poll_round_open_ = false;
    --polls_pending_;
    for (const SubscriptionEntry& e : spec_.entries) queueMatchingLocked(e, cache, false, false);
    if (!links_.deferSync(now)) markSyncLocked();
  }
  if (spec_.list_mode != ::gnmi::SubscriptionList::STREAM) return;
  for (size_t i = 0; i < spec_.entries.size(); ++i) {
    const SubscriptionEntry& e = spec_.entries[i];
    Timed& t = timed_[i];
    if (e.mode == SubscriptionEntry::Mode::kOnChange) {
      // A heartbeat re-sends an ON_CHANGE subscription's current values.
      if (e.heartbeat.count() > 0 && now >= t.next_heartbeat) {
        t.next_heartbeat = now + e.heartbeat;
        queueMatchingLocked(e, cache, false, false);
      }
      continue;
    }
    if (now < t.next_sample) continue;
    t.next_sample += std::chrono::duration_cast<Clock::duration>(e.interval);
    if (t.next_sample <= now) t.next_sample = now + std::chrono::duration_cast<Clock::duration>(e.interval);
    // Checked only when a sample is due, so a heartbeat is never used up
    // between samples (suppress_redundant would then skip it).
    const bool beat = e.heartbeat.count() > 0 && now >= t.next_heartbeat;
    if (beat) t.next_heartbeat = now + e.heartbeat;
    const bool counters_only = e.mode == SubscriptionEntry::Mode::kTargetDefined;
    queueMatchingLocked(e, cache, counters_only, false, e.suppress_redundant && !beat);
  }
}

SubscribeSession::Clock::time_point SubscribeSession::nextDue() const {
  std::lock_guard lock(mu_);
  Clock::time_point due = Clock::time_point::max();
  if (phase_ != Phase::kActive || finish_pending_) return due;
  if (spec_.list_mode != ::gnmi::SubscriptionList::STREAM) return due;
  for (size_t i = 0; i < spec_.entries.size(); ++i) {
    const SubscriptionEntry& e = spec_.entries[i];
    if (e.mode != SubscriptionEntry::Mode::kOnChange) due = std::min(due, timed_[i].next_sample);
    if (e.heartbeat.count() > 0) due = std::min(due, timed_[i].next_heartbeat);
  }
  return due;
}

void SubscribeSession::queueMatchingLocked(const SubscriptionEntry& e, LeafCache& cache,
                                           bool counters_only, bool baseline_only,
                                           bool only_changed) {
  const bool remember = e.suppress_redundant;
  if (baseline_only && !remember) return;  // updates_only: nothing to send, nothing to keep
  auto visit = [&](const SeriesView& v) {
    ParsedLeafPtr leaf = cache.lookup(v.path);
    if (!leaf || (counters_only && !leaf->counter) || !e.pattern.match(leaf->path)) return;
    const std::string target(v.target), path(v.path);
    if (remember) {
      auto [it, fresh] = last_sent_.try_emplace(leafKey(target, path), v.value);
      const bool same = !fresh && it->second == v.value;
      it->second = v.value;
      if (baseline_only || (only_changed && same)) return;
    }
    queue_.put(target, path, leaf, v.value, v.timestamp_ns, false);
  };
  const Store& store = hub_->store();
  if (!e.pattern.singleTarget().empty()) {
    store.forEachIn(e.pattern.singleTarget(), visit);
  } else {
    store.forEach(visit);
  }
}

void SubscribeSession::offerChanges(const std::vector<ChangedLeaf>& changes) {
  std::lock_guard lock(mu_);
  if (phase_ != Phase::kActive || finish_pending_ || initial_pending_ || !spec_.hasOnChange()) return;
  for (const ChangedLeaf& c : changes) {
    for (const SubscriptionEntry& e : spec_.entries) {
      if (e.mode == SubscriptionEntry::Mode::kSample) continue;
      if (e.mode == SubscriptionEntry::Mode::kTargetDefined && c.leaf->counter && !c.deleted) continue;
      if (!e.pattern.selectsTarget(c.target) || !e.pattern.match(c.leaf->path)) continue;
      queue_.put(c.target, c.path, c.leaf, c.value, c.timestamp_ns, c.deleted, c.seen_ns);
      break;
    }
  }
}

void SubscribeSession::markSyncLocked() { sync_marks_.push_back(queue_.tailSeq()); }

bool SubscribeSession::buildNextLocked() {
  ServerStats& stats = hub_->stats();
  stats.updates_coalesced.fetch_add(queue_.coalesced() - counted_coalesced_);
  stats.updates_dropped.fetch_add(queue_.dropped() - counted_dropped_);
  counted_coalesced_ = queue_.coalesced();
  counted_dropped_ = queue_.dropped();
  if (!sync_marks_.empty() && queue_.headSeq() >= sync_marks_.front()) {
    sync_marks_.pop_front();
    write_buf_.Clear();
    write_buf_.set_sync_response(true);
    in_flight_seen_ns_.clear();
    if (sync_marks_.empty() && finish_after_sync_) finishLocked(grpc::Status::OK, false);
    return true;
  }
  const uint64_t before = sync_marks_.empty() ? UINT64_MAX : sync_marks_.front();
  // A run whose every leaf JSON_IETF cannot carry sends nothing: the next
  // run is tried.
  for (;;) {
    std::vector<PendingLeaf> run = queue_.popRun(hub_->options().max_updates_per_notification, before);
    if (run.empty()) return false;
    write_buf_.Clear();
    in_flight_seen_ns_.clear();
    const size_t sent = fillNotification(run, spec_.encoding, write_buf_.mutable_update(), &in_flight_seen_ns_);
    if (sent == 0) continue;
    stats.notifications_sent.fetch_add(1);
    stats.updates_sent.fetch_add(sent);
    return true;
  }
}

void SubscribeSession::kick() {
  grpc::Status status;
  bool finish = false;
  {
    std::lock_guard lock(mu_);
    if (finish_decided_ || writing_) return;
    if (buildNextLocked()) {
      writing_ = true;
    } else if (finish_pending_) {
      finish_decided_ = finish = true;
      status = finish_status_;
    } else {
      return;
    }
  }
  if (!finish) {
    StartWrite(&write_buf_);
    return;
  }
  std::lock_guard ops(ops_mu_);
  Finish(status);
}

void SubscribeSession::finishLocked(const grpc::Status& status, bool drop_queue) {
  if (finish_pending_) return;
  finish_pending_ = true;
  finish_status_ = status;
  if (drop_queue) {
    queue_.clear();
    sync_marks_.clear();
  }
}

void SubscribeSession::requestFinish(const grpc::Status& status) {
  {
    std::lock_guard lock(mu_);
    finishLocked(status, true);
  }
  kick();
}

void SubscribeSession::OnWriteDone(bool ok) {
  {
    std::lock_guard lock(mu_);
    writing_ = false;
    if (ok && !in_flight_seen_ns_.empty()) {
      const int64_t now = steadyNowNs();
      for (int64_t seen : in_flight_seen_ns_) hub_->stats().change_send_lag.record(now - seen);
    }
    in_flight_seen_ns_.clear();
    if (!ok) {
      finish_pending_ = false;  // the call is gone: replace whatever was planned
      finishLocked(grpc::Status(grpc::StatusCode::CANCELLED, "write failed"), true);
    }
  }
  kick();
}

void SubscribeSession::OnCancel() { requestFinish(grpc::Status::CANCELLED); }

void SubscribeSession::OnDone() {
  hub_->unregister(this);
  // No link callback runs past this; the links end on their own.
  sink_->detach();
  std::vector<std::shared_ptr<UpstreamLink>> calls;
  {
    std::lock_guard lock(mu_);
    calls = links_.takeAll();
  }
  for (const std::shared_ptr<UpstreamLink>& c : calls) c->cancel();
  {
    std::lock_guard lock(mu_);
    if (registered_mode_) modeGauge(hub_->stats(), spec_.list_mode).fetch_sub(1);
  }
  delete this;
}

size_t SubscribeSession::linkCountForTest() {
  std::lock_guard lock(mu_);
  return links_.live();
}

size_t SubscribeSession::queuedForTest() {
  std::lock_guard lock(mu_);
  return queue_.size();
}

}  // namespace rdmagw::northbound::gnmi
