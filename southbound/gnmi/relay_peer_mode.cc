// A fleet member's copy of other members' targets: the peer mode of the relay
// (relay_source.h, createPeerRelaySource).

#include <algorithm>
#include <mutex>

#include "models/path.h"
#include "southbound/gnmi/relay_mode.h"
#include "southbound/gnmi/relay_source.h"

namespace rdmagw::southbound::gnmi {
namespace {

constexpr int64_t kRefreshNs = 500'000'000;  // how stale a peer relay's idea of the owners may be

// Fleet peers: the other members' targets, read by the analytics only.
class PeerMode final : public RelayMode {
 public:
  explicit PeerMode(PeerRelayOptions options) : options_(std::move(options)) {}
  const char* threadRole() const override { return "fleet-mirror"; }
  const char* logTag() const override { return "fleet-mirror"; }
  std::chrono::milliseconds backoffInitial() const override { return options_.backoff_initial; }
  std::chrono::milliseconds backoffMax() const override { return options_.backoff_max; }
  bool resetAfterLongStream() const override { return true; }
  Result<std::shared_ptr<grpc::Channel>> channel() override { return options_.channel(); }
  Status prepare(grpc::ClientContext*) override { return Status::ok(); }
  void subscriptions(::gnmi::SubscriptionList* list, Store& store) override {
    PeerSubscription next = options_.subscription();
    {
      std::lock_guard lock(mu_);
      dropUnasked(current_, next, store);
      if (!current_.empty() && next != current_ && options_.resubscribed) options_.resubscribed();
      current_ = next;
    }
    for (const std::string& p : next.everywhere) addSample(list, next.sample_interval, "", p);
    for (const auto& [target, paths] : next.per_target) {
      for (const std::string& p : paths) addSample(list, next.sample_interval, target, p);
    }
  }
  bool watches() const override { return true; }
  // Sampled every interval: three missed samples, and at least ten
  // seconds, is an owner that is gone, not a slow one (or a busy machine).
  int64_t silenceLimitNs() override {
    std::lock_guard lock(mu_);
    if (current_.empty()) return 0;
    return std::max<int64_t>(3 * std::chrono::nanoseconds(current_.sample_interval).count(), 10'000'000'000) +
           1'000'000'000;
  }
  std::string silentHealth(const std::string& target, TargetHealth* h) override {
    h->kind = options_.kind(target);
    if (h->kind.empty()) h->kind = "peer";
    h->transport = "fleet-mirror";
    return "fleet mirror: no sample from its owner for 3 intervals and at least 10 s (stale)";
  }
  bool idle() override {
    if (!options_.subscription().empty()) return false;
    std::lock_guard lock(mu_);
    current_ = {};
    return true;
  }
  bool wantsResubscribe() override {
    PeerSubscription next = options_.subscription();
    std::lock_guard lock(mu_);
    return next != current_;
  }
  void received(const ::gnmi::SubscribeResponse& r) override {
    if (options_.received && r.has_update()) options_.received(r.ByteSizeLong(), r.update().timestamp());
  }
  void refresh(bool force, Store& store, std::set<std::string>* up) override {
    const int64_t now = nowNs();
    if (!force && now - refreshed_ns_ < kRefreshNs) return;
    refreshed_ns_ = now;
    owners_ = options_.ownership();
    // A target that became ours (or left the configuration) leaves the copy:
    // the store's own, fresher, leaves are the ones to read.
    for (const TargetStatus& t : store.targets()) {
      if (owners_.mine.count(t.name) || !owners_.known.count(t.name)) {
        store.removeTarget(t.name);
        up->erase(t.name);
      }
    }
  }
  bool health(const std::string& target, TargetHealth* h) override {
    // Ours (the store has it), or not one of the fleet's configured targets
    // (a device another member relays: nobody here knows its kind).
    if (owners_.mine.count(target) || !owners_.known.count(target)) return false;
    h->kind = options_.kind(target);
    if (h->kind.empty()) return false;  // not placed yet: its kind comes with the next placement
    h->transport = "fleet-mirror";
    return true;
  }
  std::string downHealth(const std::string& target, const grpc::Status& st, TargetHealth* h) override {
    h->kind = options_.kind(target);
    if (h->kind.empty()) h->kind = "peer";
    h->transport = "fleet-mirror";
    return "fleet mirror: " + ended(st);
  }
  std::string endedMessage(const grpc::Status& st) const override {
    return "peer targets' analytics inputs: " + ended(st);
  }
  void stopped(Store& store) override {
    for (const TargetStatus& t : store.targets()) store.removeTarget(t.name);
  }

 private:
  static std::string ended(const grpc::Status& st) {
    return "stream ended: " + std::to_string(int(st.error_code())) + " " + st.error_message();
  }

  // SAMPLE, not ON_CHANGE: a counter that stands still must still reach
  // the copy at each collection, as it reaches the owner's store, or its
  // window would hold one sample and no rate (an idle cable, a peer that
  // counts no pause, would go unjudged).
  static void addSample(::gnmi::SubscriptionList* list, std::chrono::milliseconds interval, const std::string& target,
                        const std::string& path) {
    ::gnmi::Subscription* s = list->add_subscription();
    s->set_mode(::gnmi::SAMPLE);
    s->set_sample_interval(uint64_t(std::chrono::nanoseconds(interval).count()));
    toGnmiPath(path, s->mutable_path());
    if (!target.empty()) s->mutable_path()->set_target(target);
  }

  // The leaves of a target's paths the next stream no longer asks for.
  static void dropUnasked(const PeerSubscription& before, const PeerSubscription& next, Store& store) {
    for (const auto& [target, paths] : before.per_target) {
      auto now = next.per_target.find(target);
      for (const std::string& p : paths) {
        if (now != next.per_target.end() && std::find(now->second.begin(), now->second.end(), p) != now->second.end()) {
          continue;
        }
        if (Result<Path> parsed = Path::parse(p); parsed.isOk()) store.remove(target, *parsed);
      }
    }
  }

  const PeerRelayOptions options_;
  std::mutex mu_;
  PeerSubscription current_;  // guarded by mu_: what the running stream asked for
  RelayOwnership owners_;     // relay thread only: per the last refresh
  int64_t refreshed_ns_ = 0;
};

}  // namespace

Result<StreamSourcePtr> createPeerRelaySource(PeerRelayOptions options, Store& peers) {
  if (!options.channel || !options.ownership || !options.kind || !options.subscription) {
    return Status::invalidArgument("peer relay: subscription, channel, ownership and kind are required");
  }
  return makeRelaySource(std::make_unique<PeerMode>(std::move(options)), peers);
}

}  // namespace rdmagw::southbound::gnmi
