#pragma once
// One gNMI Subscribe stream (gRPC callback API: no thread of its own).
//
// The first request must carry a SubscriptionList; afterwards only Poll
// (POLL mode) may follow. Values reach the client through a per-stream
// CoalescingQueue: the SubscriptionHub's dispatcher thread fills it (initial
// set, polls, samples, store changes) and the stream writes from it, one
// write outstanding at a time. A client that reads slowly only makes its
// own queue coalesce; nobody waits for it.
//
// In a fleet (fleet_routes.h), a STREAM or ONCE subscription whose
// prefix.target another member owns, or "*", also holds a forwarded
// Subscribe (UpstreamLink, kept in ForwardedLinks) to each member
// concerned; their notifications join the same queue through the
// session's LinkSink. The dispatcher checks the routes against the
// fleet's view: when a target's owner changes, the link to the old owner
// is cancelled and one to the new owner opened (its initial values reach
// the client as updates; no second sync_response, no deletes for what the
// old owner had), or, when this member became the owner, the store serves
// it. The first sync_response waits for the links' own (at most
// ForwardedLinks::kSyncWait). POLL: each poll (and the initial set) is a
// ONCE through this member: ONCE links to the members routed to then, one
// sync_response once they synced or ended; the next poll waits for it.
//
// Lifetime: gRPC owns the reactor. OnDone unregisters it from the hub,
// which waits until the dispatcher no longer uses it, detaches its links,
// then deletes it.

#include <grpcpp/grpcpp.h>

#include <chrono>
#include <deque>
#include <memory>
#include <mutex>
#include <string>
#include <unordered_map>
#include <vector>

#include "gnmi.grpc.pb.h"
#include "models/fleet_view.h"
#include "northbound/gnmi/coalescing_queue.h"
#include "northbound/gnmi/forwarded_links.h"
#include "northbound/gnmi/leaf_cache.h"
#include "northbound/gnmi/subscription_spec.h"

namespace rdmagw::northbound::gnmi {

class SubscriptionHub;
class LinkSink;
class UpstreamLink;

// How a stream came in: a member forwarding for its client never has its
// stream forwarded again.
struct StreamOrigin {
  std::string client;
  bool forwarded = false;
  std::vector<std::pair<std::string, std::string>> credentials;  // username/password, passed on
};

class SubscribeSession
    : public grpc::ServerBidiReactor<::gnmi::SubscribeRequest, ::gnmi::SubscribeResponse> {
 public:
  using Clock = std::chrono::steady_clock;

  // `refusal` not OK: the stream ends at once with it (auth, limits).
  SubscribeSession(SubscriptionHub* hub, grpc::CallbackServerContext* ctx, StreamOrigin origin,
                   const grpc::Status& refusal);

  // --- dispatcher thread only ---
  // Initial sets, polls, due samples and heartbeats.
  void serviceDue(Clock::time_point now, LeafCache& cache);
  // Store changes (already parsed), for ON_CHANGE and TARGET_DEFINED.
  void offerChanges(const std::vector<ChangedLeaf>& changes);
  // When serviceDue next has something to do (max() when nothing is timed).
  Clock::time_point nextDue() const;
  // Opens, moves or drops forwarded links to match `fleet` (the hub's
  // snapshot; `generation` changes when it does).
  void routeCheck(const FleetSnapshot& fleet, uint64_t generation, Clock::time_point now);

  // Starts the next write (or the Finish). Any thread; never under mu_.
  void kick();
  void requestFinish(const grpc::Status& status);
  const std::string& client() const { return origin_.client; }
  size_t linkCountForTest();
  size_t queuedForTest();

  int pins = 0;  // guarded by the hub's registry lock

  void OnReadDone(bool ok) override;
  void OnWriteDone(bool ok) override;
  void OnCancel() override;
  void OnDone() override;

 private:
  struct Timed {
    Clock::time_point next_sample{};
    Clock::time_point next_heartbeat{};
  };

  grpc::Status acceptRequestLocked();
  // Queues the leaves `e` selects now. counters_only: TARGET_DEFINED's
  // sampled part; baseline_only: remember values for suppress_redundant but
  // send nothing (updates_only); only_changed: suppress_redundant.
  void queueMatchingLocked(const SubscriptionEntry& e, LeafCache& cache, bool counters_only,
                           bool baseline_only, bool only_changed = false);
  void markSyncLocked();
  void finishLocked(const grpc::Status& status, bool drop_queue);
  bool buildNextLocked();  // fills write_buf_; false when there is nothing to write
  void startRead();
  // Forwarded links' callbacks (gRPC threads, under the sink's lock).
  void linkLeaves(uint64_t id, const std::vector<ChangedLeaf>& leaves);
  void linkSynced(uint64_t id);
  void linkEnded(uint64_t id, const grpc::Status& status);
  // POLL: whether a round of links (initial set, next poll) is due; fills *plan.
  bool pollRoundLocked(const FleetSnapshot& fleet, Clock::time_point now, ForwardedLinks::Plan* plan);

  SubscriptionHub* const hub_;
  grpc::CallbackServerContext* const ctx_;
  const StreamOrigin origin_;
  std::shared_ptr<LinkSink> sink_;

  std::mutex ops_mu_;  // serializes StartRead with Finish; taken before mu_, never after

  mutable std::mutex mu_;  // guards everything below
  enum class Phase { kAwaitRequest, kActive } phase_ = Phase::kAwaitRequest;
  SubscriptionSpec spec_;
  std::vector<Timed> timed_;  // one per spec_ entry
  bool registered_mode_ = false;
  bool initial_pending_ = false;
  int polls_pending_ = 0;
  bool poll_round_open_ = false;  // the next poll's round of links is open
  CoalescingQueue queue_;
  std::deque<uint64_t> sync_marks_;  // send sync_response once the queue's head reaches each
  std::unordered_map<std::string, Value> last_sent_;  // suppress_redundant: last queued per target '\0' path
  bool writing_ = false;
  bool finish_pending_ = false;
  bool finish_after_sync_ = false;  // ONCE: close once the sync went out
  bool finish_decided_ = false;
  grpc::Status finish_status_;
  ::gnmi::SubscribeResponse write_buf_;
  std::vector<int64_t> in_flight_seen_ns_;  // the changes write_buf_ carries (PendingLeaf::seen_ns)
  uint64_t counted_coalesced_ = 0;
  uint64_t counted_dropped_ = 0;
  ::gnmi::SubscribeRequest req_;  // the read buffer
  // Forwarding (guarded by mu_).
  ::gnmi::SubscriptionList list_;  // as the client sent it
  ForwardedLinks links_;
};

}  // namespace rdmagw::northbound::gnmi
