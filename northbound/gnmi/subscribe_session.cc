#include "northbound/gnmi/subscribe_session.h"

#include <algorithm>

#include "models/log.h"
#include "northbound/gnmi/fleet_routes.h"
#include "northbound/gnmi/ietf_scalar.h"
#include "northbound/gnmi/path_pattern.h"
#include "northbound/gnmi/subscription_hub.h"
#include "northbound/gnmi/typed_value.h"
#include "northbound/gnmi/upstream_link.h"

namespace rdmagw::northbound::gnmi_server {
namespace {

grpc::Status invalid(const std::string& msg) {
  return grpc::Status(grpc::StatusCode::INVALID_ARGUMENT, msg);
}

std::atomic<int64_t>& modeGauge(ServerStats& stats, gnmi::SubscriptionList::Mode mode) {
  switch (mode) {
    case gnmi::SubscriptionList::ONCE: return stats.subscribers_once;
    case gnmi::SubscriptionList::POLL: return stats.subscribers_poll;
    default: return stats.subscribers_stream;
  }
}

void countError(ServerStats& stats, const grpc::Status& st) {
  stats.subscribe_errors[std::min<int>(st.error_code(), 16)].fetch_add(1);
}

// How long the first sync_response waits for the forwarded links' own: a
// member that hangs must not hold the client's sync forever.
constexpr auto kLinkSyncWait = std::chrono::seconds(10);
// A link that ended is opened again after 0.5, 1, 2, 4 s (then every 4 s)
// while the view still names its member.
constexpr auto kLinkRetryFirst = std::chrono::milliseconds(500);
constexpr int kLinkRetryDoublings = 3;

std::string leafKey(const std::string& target, const std::string& path) {
  std::string key = target;
  key.push_back('\0');
  key += path;
  return key;
}

}  // namespace

SubscribeSession::SubscribeSession(SubscriptionHub* hub, grpc::CallbackServerContext* ctx,
                                   StreamOrigin origin, const grpc::Status& refusal)
    : hub_(hub), ctx_(ctx), origin_(std::move(origin)), queue_(hub->options().queue_capacity) {
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
      if (spec_.list_mode == gnmi::SubscriptionList::POLL) {
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
  if (initial_pending_ && (routed_ || !hub_->fleetRouting() || origin_.forwarded)) {
    initial_pending_ = false;
    for (size_t i = 0; i < spec_.entries.size(); ++i) {
      const SubscriptionEntry& e = spec_.entries[i];
      queueMatchingLocked(e, cache, false, spec_.updates_only);
      timed_[i].next_sample = now + e.interval;
      timed_[i].next_heartbeat = now + e.heartbeat;
    }
    if (sync_links_.empty()) {
      markSyncLocked();
    } else {
      sync_deferred_ = true;
      sync_wait_until_ = now + kLinkSyncWait;
    }
    if (spec_.list_mode == gnmi::SubscriptionList::ONCE) finish_after_sync_ = true;
  }
  for (; polls_pending_ > 0; --polls_pending_) {
    for (const SubscriptionEntry& e : spec_.entries) queueMatchingLocked(e, cache, false, false);
    markSyncLocked();
  }
  if (spec_.list_mode != gnmi::SubscriptionList::STREAM) return;
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
  if (spec_.list_mode != gnmi::SubscriptionList::STREAM) return due;
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
  const bool ietf = spec_.encoding == gnmi::JSON_IETF;
  // A run whose every leaf JSON_IETF cannot carry sends nothing: the next
  // run is tried.
  for (;;) {
    std::vector<PendingLeaf> run = queue_.popRun(hub_->options().max_updates_per_notification, before);
    if (run.empty()) return false;
    write_buf_.Clear();
    gnmi::Notification* n = write_buf_.mutable_update();
    n->set_timestamp(run.front().timestamp_ns);
    n->mutable_prefix()->set_target(run.front().target);
    in_flight_seen_ns_.clear();
    for (const PendingLeaf& leaf : run) {
      if (leaf.seen_ns != 0) in_flight_seen_ns_.push_back(leaf.seen_ns);
      if (leaf.deleted) {
        toGnmiPath(leaf.leaf->path, n->add_delete_());
        continue;
      }
      // RFC 7951 has no encoding for a leaf the YANG modules do not define.
      if (ietf && leaf.leaf->yang == nullptr) continue;
      gnmi::Update* u = n->add_update();
      if (!setTypedValue(leaf.value, spec_.encoding, u->mutable_val(), leaf.leaf->yang)) {
        n->mutable_update()->RemoveLast();
        reportIetfMismatch(leaf.path, *leaf.leaf->yang, leaf.value);
        continue;
      }
      toGnmiPath(leaf.leaf->path, u->mutable_path());
    }
    const size_t sent = size_t(n->update_size() + n->delete__size());
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
    for (auto& [member, link] : links_) {
      if (link.call) calls.push_back(std::move(link.call));
    }
    links_.clear();
  }
  for (const std::shared_ptr<UpstreamLink>& c : calls) c->cancel();
  {
    std::lock_guard lock(mu_);
    if (registered_mode_) modeGauge(hub_->stats(), spec_.list_mode).fetch_sub(1);
  }
  delete this;
}

void SubscribeSession::routeCheck(const FleetSnapshot& fleet, uint64_t generation, Clock::time_point now) {
  struct Opening {
    std::string member;
    std::string address;
    uint64_t id;
  };
  std::vector<Opening> opening;
  std::vector<std::shared_ptr<UpstreamLink>> cancelled;
  gnmi::SubscribeRequest request;
  {
    std::lock_guard lock(mu_);
    if (origin_.forwarded || phase_ != Phase::kActive || finish_pending_) return;
    if (spec_.list_mode == gnmi::SubscriptionList::POLL) {
      routed_ = true;
      return;
    }
    // ONCE: after its sync nothing more is wanted.
    if (spec_.list_mode == gnmi::SubscriptionList::ONCE && routed_ && !initial_pending_ && !sync_deferred_) return;
    if (sync_deferred_) releaseSyncLocked(now);
    if (routed_ && generation == routed_generation_ && !routes_dirty_ && now < next_route_check_) return;
    routed_ = true;
    routed_generation_ = generation;
    routes_dirty_ = false;
    next_route_check_ = Clock::time_point::max();
    bool local = true;
    std::map<std::string, std::string> wanted;  // member -> address
    for (const MemberRoute& r : routesFor(fleet, list_.prefix().target(), &local)) wanted[r.member] = r.address;
    for (auto it = links_.begin(); it != links_.end();) {
      auto w = wanted.find(it->first);
      if (w != wanted.end() && w->second == it->second.address) {
        ++it;
        continue;
      }
      RDMAGW_LOG(kInfo, "gnmi") << "subscription of " << origin_.client << " to \"" << list_.prefix().target()
                                << "\": no longer forwarded to member " << it->first;
      if (it->second.call) cancelled.push_back(std::move(it->second.call));
      hub_->stats().forwarded_streams_rerouted.fetch_add(1);
      sync_links_.erase(it->second.id);
      it = links_.erase(it);
    }
    for (const auto& [member, address] : wanted) {
      auto [it, fresh] = links_.try_emplace(member);
      Link& l = it->second;
      if (!fresh && !l.ended) continue;
      if (!fresh && now < l.retry_at) {
        next_route_check_ = std::min(next_route_check_, l.retry_at);
        continue;
      }
      l.address = address;
      l.id = next_link_id_++;
      l.ended = false;
      l.call.reset();
      if (initial_pending_) sync_links_.insert(l.id);
      opening.push_back({member, address, l.id});
      if (fresh) {
        RDMAGW_LOG(kInfo, "gnmi") << "subscription of " << origin_.client << " to \"" << list_.prefix().target()
                                  << "\": forwarded to member " << member << " at " << address;
      }
    }
    if (!opening.empty()) {
      *request.mutable_subscribe() = list_;
      request.mutable_subscribe()->set_encoding(gnmi::PROTO);  // scalars, encoded here as the client asked
    }
    if (sync_deferred_) releaseSyncLocked(now);
  }
  for (const std::shared_ptr<UpstreamLink>& c : cancelled) c->cancel();
  std::vector<std::pair<std::string, std::string>> metadata = origin_.credentials;
  metadata.emplace_back(kForwardedByMetadata, fleet.self);
  metadata.emplace_back(kForwardedForMetadata, origin_.client);
  for (const Opening& o : opening) {
    Result<std::shared_ptr<grpc::Channel>> channel = hub_->memberChannels()->channel(o.address);
    if (!channel.isOk()) {
      linkEnded(o.id, grpc::Status(grpc::StatusCode::FAILED_PRECONDITION, channel.status().message()));
      continue;
    }
    std::shared_ptr<UpstreamLink> call = UpstreamLink::open(o.id, *channel, request, metadata, sink_);
    hub_->stats().forwarded_streams_opened.fetch_add(1);
    std::lock_guard lock(mu_);
    auto it = links_.find(o.member);
    if (it != links_.end() && it->second.id == o.id && !it->second.ended) {
      it->second.call = std::move(call);
    } else {
      call->cancel();  // dropped or ended while it was opening
    }
  }
}

void SubscribeSession::linkLeaves(uint64_t id, const std::vector<ChangedLeaf>& leaves) {
  {
    std::lock_guard lock(mu_);
    if (phase_ != Phase::kActive || finish_pending_) return;
    bool current = false;
    for (const auto& [member, link] : links_) current = current || link.id == id;
    if (!current) return;  // a link being dropped: its member no longer owns what we ask
    hub_->stats().forwarded_updates_received.fetch_add(leaves.size());
    for (const ChangedLeaf& c : leaves) queue_.put(c.target, c.path, c.leaf, c.value, c.timestamp_ns, c.deleted);
  }
  kick();
}

void SubscribeSession::linkSynced(uint64_t id) {
  {
    std::lock_guard lock(mu_);
    for (auto& [member, link] : links_) {
      if (link.id == id) link.failures = 0;  // it answers: the next failure retries soon again
    }
    if (sync_links_.erase(id) == 0) return;
    if (sync_deferred_) releaseSyncLocked(Clock::now());
  }
  kick();
}

void SubscribeSession::linkEnded(uint64_t id, const grpc::Status& status) {
  {
    std::lock_guard lock(mu_);
    sync_links_.erase(id);
    for (auto& [member, link] : links_) {
      if (link.id != id || link.ended) continue;
      link.ended = true;
      link.call.reset();
      const bool once = spec_.list_mode == gnmi::SubscriptionList::ONCE && status.ok();
      if (!once) {
        link.failures = std::min(link.failures + 1, kLinkRetryDoublings + 1);
        link.retry_at = Clock::now() + kLinkRetryFirst * (1 << (link.failures - 1));
        routes_dirty_ = true;
        RDMAGW_LOG(kWarn, "gnmi") << "subscription of " << origin_.client << " to \"" << list_.prefix().target()
                                  << "\": link to member " << member << " ended: "
                                  << grpcCodeName(status.error_code()) << " " << status.error_message();
      }
    }
    if (sync_deferred_) releaseSyncLocked(Clock::now());
  }
  hub_->wake();
  kick();
}

void SubscribeSession::releaseSyncLocked(Clock::time_point now) {
  if (!sync_links_.empty() && now < sync_wait_until_) return;
  sync_links_.clear();
  sync_deferred_ = false;
  markSyncLocked();
}

size_t SubscribeSession::linkCountForTest() {
  std::lock_guard lock(mu_);
  size_t n = 0;
  for (const auto& [member, link] : links_) n += link.ended ? 0 : 1;
  return n;
}

size_t SubscribeSession::queuedForTest() {
  std::lock_guard lock(mu_);
  return queue_.size();
}

}  // namespace rdmagw::northbound::gnmi_server
