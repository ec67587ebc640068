#include "sim/gnmi/subscribe_session.h"

#include <algorithm>

namespace rdmagw::sim {
namespace {

using std::chrono::duration_cast;
using std::chrono::milliseconds;
using std::chrono::nanoseconds;

bool prefixPresent(const gnmi::SubscriptionList& list) {
  return list.has_prefix() && (list.prefix().elem_size() > 0 || !list.prefix().origin().empty());
}

gnmi::Path joined(const gnmi::Path& prefix, const gnmi::Path& path) {
  gnmi::Path out = prefix;
  out.clear_target();
  if (!path.origin().empty()) out.set_origin(path.origin());
  for (const gnmi::PathElem& e : path.elem()) *out.add_elem() = e;
  return out;
}

}  // namespace

SubscribeSession::SubscribeSession(GnmiTarget::Impl* target, grpc::CallbackServerContext* ctx)
    : target_(target), ctx_(ctx) {
  grpc::Status st = target_->checkCall(*ctx, GnmiTarget::Impl::Rpc::kSubscribe);
  if (st.ok() && !target_->registerSession(this)) {
    st = grpc::Status(grpc::StatusCode::UNAVAILABLE, "target is stopping");
  }
  if (!st.ok()) {
    {
      std::lock_guard<std::mutex> lock(mu_);
      finish_decided_ = true;
    }
    Finish(st);
    return;
  }
  target_->subscribe_calls_.fetch_add(1);
  startRead();
}

void SubscribeSession::startRead() {
  std::lock_guard<std::mutex> ops(ops_mu_);
  {
    std::lock_guard<std::mutex> lock(mu_);
    if (finish_decided_ || finish_pending_) return;
  }
  StartRead(&req_);
}

void SubscribeSession::OnReadDone(bool ok) {
  bool read_again = false;
  {
    std::lock_guard<std::mutex> lock(mu_);
    if (!ok) {
      // The client half-closed (or the call died). Before a SubscriptionList
      // that is an error; afterwards the stream goes on until cancelled.
      if (phase_ == Phase::kAwaitRequest) {
        finishLocked(grpc::Status(grpc::StatusCode::INVALID_ARGUMENT,
                                  "stream closed before a SubscriptionList"),
                     true);
      }
    } else {
      grpc::Status err;
      if (phase_ == Phase::kAwaitRequest) {
        err = setupLocked(req_);
        if (err.ok()) {
          phase_ = Phase::kActive;
          initial_pending_ = true;
        }
      } else if (req_.has_poll() && mode_ == gnmi::SubscriptionList::POLL) {
        ++polls_pending_;
      } else {
        err = grpc::Status(grpc::StatusCode::INVALID_ARGUMENT,
                           "only Poll requests may follow the SubscriptionList (POLL mode)");
      }
      if (!err.ok()) finishLocked(err, true);
      read_again = err.ok();
    }
  }
  if (read_again) startRead();
  pump(Clock::now());
}

grpc::Status SubscribeSession::setupLocked(const gnmi::SubscribeRequest& req) {
  if (!req.has_subscribe()) {
    return grpc::Status(grpc::StatusCode::INVALID_ARGUMENT,
                        "the first SubscribeRequest must carry a SubscriptionList");
  }
  const gnmi::SubscriptionList& list = req.subscribe();
  quirks_ = target_->quirks();
  if (quirks_.reject_prefix && prefixPresent(list)) {
    return grpc::Status(grpc::StatusCode::INVALID_ARGUMENT, "prefix is not supported");
  }
  if (list.encoding() != gnmi::JSON && list.encoding() != gnmi::PROTO) {
    return grpc::Status(grpc::StatusCode::UNIMPLEMENTED,
                        "unsupported encoding " + gnmi::Encoding_Name(list.encoding()) +
                            " (JSON and PROTO only)");
  }
  if (list.subscription_size() == 0) {
    return grpc::Status(grpc::StatusCode::INVALID_ARGUMENT, "empty subscription list");
  }
  if (list.mode() != gnmi::SubscriptionList::STREAM && list.mode() != gnmi::SubscriptionList::ONCE &&
      list.mode() != gnmi::SubscriptionList::POLL) {
    return grpc::Status(grpc::StatusCode::INVALID_ARGUMENT, "unknown subscription list mode");
  }
  mode_ = list.mode();
  proto_ = list.encoding() == gnmi::PROTO;
  updates_only_ = list.updates_only();
  const auto min = duration_cast<Clock::duration>(target_->minSampleInterval());
  const auto now = Clock::now();
  for (const gnmi::Subscription& s : list.subscription()) {
    Sub sub;
    sub.path = prefixPresent(list) ? joined(list.prefix(), s.path()) : s.path();
    sub.mode = s.mode();
    sub.suppress_redundant = s.suppress_redundant();
    sub.heartbeat = duration_cast<Clock::duration>(nanoseconds(s.heartbeat_interval()));
    if (sub.heartbeat > Clock::duration::zero()) sub.heartbeat = std::max(sub.heartbeat, min);
    auto asked = duration_cast<Clock::duration>(nanoseconds(s.sample_interval()));
    if (sub.mode == gnmi::TARGET_DEFINED && asked == Clock::duration::zero()) {
      asked = duration_cast<Clock::duration>(target_->targetDefinedInterval());
    }
    sub.interval = std::max(asked, min);
    sub.next = now + sub.interval;
    sub.next_heartbeat = now + sub.heartbeat;
    subs_.push_back(std::move(sub));
  }
  next_keepalive_ = now + quirks_.keepalive_interval;
  return grpc::Status::OK;
}

void SubscribeSession::pump(Clock::time_point now) {
  {
    std::lock_guard<std::mutex> lock(mu_);
    pumpLocked(now);
  }
  kick();
}

void SubscribeSession::pumpLocked(Clock::time_point now) {
  if (phase_ != Phase::kActive || finish_pending_ || target_->stalled()) return;
  const std::shared_ptr<const gnmi_tree::Snapshot> snap = target_->snapshot();
  if (initial_pending_) {
    initial_pending_ = false;
    const bool send = !(updates_only_ && mode_ == gnmi::SubscriptionList::STREAM);
    for (Sub& sub : subs_) {
      if (send) {
        emitLocked(sub, *snap, false);
      } else {
        // updates_only: remember the current values as the baseline.
        for (const auto& s : gnmi_tree::select(*snap, sub.path, quirks_.native_json_blobs)) {
          sub.last[s] = gnmi_tree::fingerprint(*snap, s);
        }
      }
      sub.seen_version = snap->version;
    }
    syncLocked();
    if (mode_ == gnmi::SubscriptionList::ONCE) {
      finishLocked(grpc::Status::OK, false);
      return;
    }
  }
  while (polls_pending_ > 0 && !finish_pending_) {
    --polls_pending_;
    for (Sub& sub : subs_) emitLocked(sub, *snap, false);
    syncLocked();
  }
  if (mode_ == gnmi::SubscriptionList::STREAM) {
    for (Sub& sub : subs_) {
      if (finish_pending_) return;
      const bool full = out_.size() >= target_->maxQueuedResponses();
      if (sub.mode == gnmi::ON_CHANGE) {
        const bool beat = sub.heartbeat > Clock::duration::zero() && now >= sub.next_heartbeat;
        if (full) {
          if (beat || snap->version != sub.seen_version) target_->countCoalesced();
          continue;  // retried on the next pump
        }
        if (beat) {
          emitLocked(sub, *snap, false);
          sub.next_heartbeat = now + sub.heartbeat;
        } else if (snap->version != sub.seen_version) {
          emitLocked(sub, *snap, true);
        }
        sub.seen_version = snap->version;
        continue;
      }
      // SAMPLE and TARGET_DEFINED.
      if (now < sub.next) continue;
      sub.next += sub.interval;
      if (sub.next <= now) sub.next = now + sub.interval;  // fell behind: no burst
      if (full) {
        target_->countCoalesced();
        continue;
      }
      bool changed_only = sub.suppress_redundant;
      if (changed_only && sub.heartbeat > Clock::duration::zero() && now >= sub.next_heartbeat) {
        changed_only = false;
        sub.next_heartbeat = now + sub.heartbeat;
      }
      emitLocked(sub, *snap, changed_only);
    }
  }
  if (mode_ != gnmi::SubscriptionList::ONCE && !finish_pending_ &&
      quirks_.keepalive_interval > milliseconds::zero() && now >= next_keepalive_) {
    out_.emplace_back();  // NX-OS keepalive: a SubscribeResponse with nothing set
    next_keepalive_ = now + quirks_.keepalive_interval;
  }
}

void SubscribeSession::emitLocked(Sub& sub, const gnmi_tree::Snapshot& snap, bool changed_only) {
  std::vector<gnmi_tree::Selection> sel =
      gnmi_tree::select(snap, sub.path, quirks_.native_json_blobs);
  std::vector<gnmi_tree::Selection> chosen;
  chosen.reserve(sel.size());
  for (const gnmi_tree::Selection& s : sel) {
    const uint64_t fp = gnmi_tree::fingerprint(snap, s);
    auto [it, inserted] = sub.last.try_emplace(s, fp);
    const bool differs = inserted || it->second != fp;
    it->second = fp;
    if (!changed_only || differs) chosen.push_back(s);
  }
  const gnmi_tree::RenderOptions ro{quirks_.echo_origin, proto_};
  const TimestampNs sent_at = target_->stampAtSend() ? nowNs() : 0;
  for (gnmi::Notification& n : gnmi_tree::render(snap, chosen, ro)) {
    if (finish_pending_) return;
    if (sent_at != 0) n.set_timestamp(sent_at);
    pushUpdateLocked(std::move(n));
  }
}

void SubscribeSession::pushUpdateLocked(gnmi::Notification n) {
  gnmi::SubscribeResponse r;
  *r.mutable_update() = std::move(n);
  out_.push_back(std::move(r));
  ++updates_queued_;
  const uint64_t limit = target_->resetAfterUpdates();
  if (limit > 0 && updates_queued_ >= limit) {
    finishLocked(grpc::Status(grpc::StatusCode::UNAVAILABLE, "stream reset by the target"),
                 false);
  }
}

void SubscribeSession::syncLocked() {
  if (quirks_.never_sync || finish_pending_) return;
  gnmi::SubscribeResponse r;
  r.set_sync_response(true);
  out_.push_back(std::move(r));
}

void SubscribeSession::finishLocked(const grpc::Status& status, bool drop_queue) {
  if (finish_pending_) return;
  finish_pending_ = true;
  finish_status_ = status;
  if (drop_queue) {
    while (out_.size() > (writing_ ? 1u : 0u)) out_.pop_back();
  }
}

void SubscribeSession::requestFinish(const grpc::Status& status) {
  {
    std::lock_guard<std::mutex> lock(mu_);
    finishLocked(status, true);
  }
  kick();
}

void SubscribeSession::kick() {
  const gnmi::SubscribeResponse* msg = nullptr;
  grpc::Status status;
  {
    std::lock_guard<std::mutex> lock(mu_);
    if (finish_decided_ || writing_) return;
    if (!out_.empty()) {
      writing_ = true;
      msg = &out_.front();  // deque: stays put while others are pushed behind it
    } else if (finish_pending_) {
      finish_decided_ = true;
      status = finish_status_;
    } else {
      return;
    }
  }
  if (msg != nullptr) {
    StartWrite(msg);
    return;
  }
  std::lock_guard<std::mutex> ops(ops_mu_);
  Finish(status);
}

void SubscribeSession::OnWriteDone(bool ok) {
  {
    std::lock_guard<std::mutex> lock(mu_);
    writing_ = false;
    if (!out_.empty()) {
      if (ok && out_.front().has_update() && out_.front().update().update_size() > 0) target_->countSent(uint64_t(out_.front().update().update_size()));
      out_.pop_front();
    }
    if (!ok) {
      out_.clear();
      finish_pending_ = false;  // replace whatever was planned: the call is gone
      finishLocked(grpc::Status(grpc::StatusCode::CANCELLED, "write failed"), true);
    }
  }
  kick();
}

void SubscribeSession::OnCancel() { requestFinish(grpc::Status::CANCELLED); }

void SubscribeSession::OnDone() {
  target_->unregisterSession(this);
  delete this;
}

}  // namespace rdmagw::sim
