#include "gateway/fleet/fleet_peer_mirror.h"

#include "common/backoff.h"
#include "gnmi.grpc.pb.h"
#include "models/log.h"
#include "models/path.h"
#include "models/thread_role.h"
#include "northbound/gnmi/member_channels.h"
#include "southbound/gnmi/rdmagw_notification.h"

namespace rdmagw::gateway {
namespace {

constexpr int64_t kRefreshNs = 500'000'000;  // how stale this member's idea of its own targets may be

// "/a/b/c" -> elements a, b, c (no keys: every instance).
void toGnmiPath(const std::string& text, ::gnmi::Path* out) {
  size_t at = 0;
  while (at < text.size()) {
    size_t end = text.find('/', at);
    if (end == std::string::npos) end = text.size();
    if (end > at) out->add_elem()->set_name(text.substr(at, end - at));
    at = end + 1;
  }
}

}  // namespace

FleetPeerMirror::FleetPeerMirror(FleetPeerMirrorOptions options, const FleetView& view, Store& peers)
    : options_(std::move(options)), view_(view), peers_(peers) {}

FleetPeerMirror::~FleetPeerMirror() { stop(); }

void FleetPeerMirror::setKinds(std::map<std::string, std::string> kinds) {
  std::lock_guard lock(mu_);
  kinds_ = std::move(kinds);
}

void FleetPeerMirror::start() {
  std::lock_guard lock(mu_);
  if (thread_.joinable()) return;
  stopping_ = false;
  thread_ = std::thread([this] {
    enterThreadRole("fleet-mirror", ThreadRole::kIngest);
    run();
  });
}

void FleetPeerMirror::stop() {
  {
    std::lock_guard lock(mu_);
    if (!thread_.joinable()) return;
    stopping_ = true;
    if (ctx_ != nullptr) ctx_->TryCancel();
  }
  cv_.notify_all();
  thread_.join();
  for (const TargetStatus& t : peers_.targets()) peers_.removeTarget(t.name);
  up_.clear();
}

void FleetPeerMirror::run() {
  common::Backoff backoff(options_.backoff_initial, options_.backoff_max);
  for (;;) {
    const auto began = std::chrono::steady_clock::now();
    const std::string why = streamOnce();
    markDown(why);
    std::unique_lock lock(mu_);
    if (stopping_) return;
    // A stream that ran a while was a working one: start the backoff over.
    if (std::chrono::steady_clock::now() - began > options_.backoff_max) backoff.reset();
    const std::chrono::milliseconds wait = backoff.next();
    RDMAGW_LOG(kWarn, "fleet-mirror") << "peer targets' analytics inputs: " << why << "; retry in "
                                      << wait.count() << " ms";
    if (cv_.wait_for(lock, wait, [this] { return stopping_; })) return;
  }
}

std::string FleetPeerMirror::streamOnce() {
  northbound::gnmi_server::MemberChannels channels(options_.gnmi);
  Result<std::shared_ptr<grpc::Channel>> channel = channels.channel(options_.gnmi_address);
  if (!channel.isOk()) return channel.status().message();
  auto stub = ::gnmi::gNMI::NewStub(*channel);
  grpc::ClientContext ctx;
  {
    std::lock_guard lock(mu_);
    if (stopping_) return "stopping";
    ctx_ = &ctx;
  }
  auto stream = stub->Subscribe(&ctx);
  ::gnmi::SubscribeRequest req;
  ::gnmi::SubscriptionList* list = req.mutable_subscribe();
  list->mutable_prefix()->set_target("*");  // the whole fleet: the server forwards and follows owners
  list->set_mode(::gnmi::SubscriptionList::STREAM);
  list->set_encoding(::gnmi::PROTO);
  for (const std::string& p : options_.paths) {
    ::gnmi::Subscription* s = list->add_subscription();
    // SAMPLE, not ON_CHANGE: a counter that stands still must still reach
    // the copy at each collection, as it reaches the owner's store, or its
    // window would hold one sample and no rate (an idle cable, a peer that
    // counts no pause, would go unjudged).
    s->set_mode(::gnmi::SAMPLE);
    s->set_sample_interval(uint64_t(std::chrono::nanoseconds(options_.sample_interval).count()));
    toGnmiPath(p, s->mutable_path());
  }
  refreshOwnership(true);
  ::gnmi::SubscribeResponse resp;
  if (stream->Write(req)) {
    while (stream->Read(&resp)) {
      if (resp.has_update()) apply(resp.update());
    }
  }
  const grpc::Status st = stream->Finish();
  std::lock_guard lock(mu_);
  ctx_ = nullptr;
  return "stream ended: " + std::to_string(int(st.error_code())) + " " + st.error_message();
}

void FleetPeerMirror::refreshOwnership(bool force) {
  const int64_t now = nowNs();
  if (!force && now - refreshed_ns_ < kRefreshNs) return;
  refreshed_ns_ = now;
  const FleetSnapshot fleet = view_.snapshot();
  mine_.clear();
  known_.clear();
  for (const auto& [target, owner] : fleet.owners) {
    known_.insert(target);
    if (owner == options_.self) mine_.insert(target);
  }
  // A target that became ours (or left the configuration) leaves the copy:
  // the store's own, fresher, leaves are the ones to read.
  for (const TargetStatus& t : peers_.targets()) {
    if (mine_.count(t.name) || !known_.count(t.name)) {
      peers_.removeTarget(t.name);
      up_.erase(t.name);
    }
  }
}

void FleetPeerMirror::apply(const ::gnmi::Notification& n) {
  const std::string& target = n.prefix().target();
  if (target.empty()) return;
  refreshOwnership(false);
  // Ours (the store has it), or not one of the fleet's configured targets
  // (a device another member relays: nobody here knows its kind).
  if (mine_.count(target) || !known_.count(target)) return;
  // Stamped with the owner's collection time: the counter windows stay true.
  southbound::gnmi::NotificationChanges changes = southbound::gnmi::fromRdmagwNotification(n);
  if (!up_.count(target)) {
    TargetHealth h;
    {
      std::lock_guard lock(mu_);
      auto kind = kinds_.find(target);
      if (kind == kinds_.end()) return;  // not placed yet: its kind comes with the next placement
      h.kind = kind->second;
    }
    h.transport = "fleet-mirror";
    h.up = true;
    h.last_success_ns = h.last_attempt_ns = nowNs();
    peers_.setHealth(target, h);
    up_.insert(target);
  }
  if (!changes.updates.empty()) peers_.apply(target, changes.updates);
  for (const Path& p : changes.deletes) peers_.remove(target, p);
}

void FleetPeerMirror::markDown(const std::string& why) {
  // Not up: the analytics judge no link by counters nobody refreshes.
  for (const std::string& target : up_) {
    TargetHealth h;
    {
      std::lock_guard lock(mu_);
      auto kind = kinds_.find(target);
      h.kind = kind == kinds_.end() ? "peer" : kind->second;
    }
    h.transport = "fleet-mirror";
    h.up = false;
    h.last_attempt_ns = nowNs();
    h.last_error = "fleet mirror: " + why;
    peers_.setHealth(target, h);
  }
  up_.clear();
}

}  // namespace rdmagw::gateway
