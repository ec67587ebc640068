#pragma once
// Every Subscribe stream of one server, and the one dispatcher thread that
// feeds them: it takes the store's changes from an inbox, runs initial
// sets, polls, samples and heartbeats, and kicks each stream's writer.
//
// The store's writers only touch the inbox: onChanges copies the changes
// some stream listens for (ChangeInterest) into a map keyed by (target,
// path), coalescing repeats, and signals the dispatcher. It never waits for
// a subscriber, so a stalled client cannot delay collection or the other
// northbounds.

#include <grpcpp/support/status.h>

#include <condition_variable>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <thread>
#include <unordered_map>
#include <vector>

#include "models/change_listener.h"
#include "models/fleet_view.h"
#include "models/store.h"
#include "northbound/gnmi/change_interest.h"
#include "northbound/gnmi/leaf_cache.h"
#include "northbound/gnmi/member_channels.h"
#include "northbound/gnmi/server_stats.h"
#include "northbound/gnmi/subscription_spec.h"

namespace rdmagw::northbound::gnmi {

class SubscribeSession;

struct HubOptions {
  SampleLimits sample;
  size_t max_subscriptions_per_client = 64;
  size_t max_subscriptions = 256;
  size_t queue_capacity = 200'000;          // pending leaves per subscriber
  size_t max_updates_per_notification = 500;  // keeps messages far below gRPC's 4 MiB
  // In a fleet: the view the dispatcher routes forwarded subscriptions by,
  // and the channels to the other members. Null outside a fleet.
  const FleetView* fleet = nullptr;
  std::shared_ptr<MemberChannels> member_channels;
};

class SubscriptionHub : public ChangeListener {
 public:
  SubscriptionHub(Store& store, HubOptions options, ServerStats& stats);
  ~SubscriptionHub() override;

  void start();
  // Ends every stream with `status` and stops the dispatcher.
  void stop(const grpc::Status& status);

  // Registers a new stream, or refuses it (RESOURCE_EXHAUSTED) past a limit.
  grpc::Status admit(SubscribeSession* session, const std::string& client);
  // From OnDone: returns once the dispatcher no longer uses `session`.
  void unregister(SubscribeSession* session);
  // What `session` listens to on change. Called once its request is
  // accepted and before its initial sync reads the store, so no change
  // falls between the two; unregister drops it.
  void setInterest(const SubscribeSession* session, std::vector<ChangeInterest::Pattern> patterns);
  // Something is due (a new request, a poll): run the dispatcher now.
  void wake();

  void onChanges(std::string_view target, std::span<const Change> changes) override;

  const Store& store() const { return store_; }
  const HubOptions& options() const { return options_; }
  ServerStats& stats() { return stats_; }
  // Dispatcher thread: true once the fleet view is enabled (sessions then
  // route before their initial set).
  bool fleetRouting() const { return fleet_enabled_; }
  MemberChannels* memberChannels() const { return options_.member_channels.get(); }
  size_t sessionCount() const;
  // Sum of the sessions' pending leaves (tests: bounded memory).
  size_t queuedLeaves();

 private:
  void loop();
  std::vector<SubscribeSession*> pinAll();
  void unpin(const std::vector<SubscribeSession*>& pinned);

  Store& store_;
  const HubOptions options_;
  ServerStats& stats_;
  uint64_t listener_id_ = 0;

  mutable std::mutex reg_mu_;
  std::condition_variable reg_cv_;
  std::vector<SubscribeSession*> sessions_;  // guarded by reg_mu_
  bool stopping_ = false;                    // guarded by reg_mu_

  // The writers read `interest_` (a copy of the pointer, under the lock);
  // setInterest and unregister replace it whole.
  std::mutex interest_mu_;
  std::map<const SubscribeSession*, std::vector<ChangeInterest::Pattern>> interests_;  // guarded
  std::shared_ptr<const ChangeInterest> interest_ = std::make_shared<ChangeInterest>();  // guarded

  std::mutex inbox_mu_;
  std::condition_variable inbox_cv_;
  struct Inbox {
    std::vector<Change> changes;
    std::vector<std::string> targets;             // one per change
    std::vector<int64_t> seen_ns;                 // one per change: steady clock when applied
    std::unordered_map<std::string, size_t> at;   // target '\0' path -> index
  } inbox_;                                       // guarded by inbox_mu_
  bool woken_ = false;                            // guarded by inbox_mu_
  bool stop_ = false;                             // guarded by inbox_mu_
  std::thread thread_;
  LeafCache cache_;  // dispatcher thread only
  // Dispatcher thread only: the fleet view as last read, and a number that
  // changes whenever it does.
  FleetSnapshot fleet_snapshot_;
  uint64_t fleet_generation_ = 0;
  uint64_t fleet_view_version_ = 0;  // the FleetView's version() when last copied
  bool fleet_enabled_ = false;
  std::chrono::steady_clock::time_point next_fleet_read_{};
};

}  // namespace rdmagw::northbound::gnmi
