#pragma once
// The forwarded Subscribes of one client subscription in a fleet: for each
// member that owns a target the subscription asks for, one UpstreamLink,
// opened, moved or dropped as the fleet's view changes, reopened after
// 0.5, 1, 2, 4 s (then every 4 s) when it ends, and the set of links whose
// own sync_response the client's first one waits for (at most kSyncWait).
// A POLL subscription instead opens a round of ONCE links per poll
// (pollRound), each poll's sync_response waiting for that round's.
//
// Bookkeeping only: it holds no lock and calls no gRPC method. The session
// owns it under its own lock, opens and cancels the calls outside that
// lock, and receives the links' data through its LinkSink; it hands each
// link event to the matching method here.

#include <grpcpp/grpcpp.h>

#include <chrono>
#include <map>
#include <memory>
#include <set>
#include <string>
#include <vector>

#include "models/fleet_view.h"
#include "northbound/gnmi/upstream_link.h"

namespace rdmagw::northbound::gnmi {

struct ServerStats;

class ForwardedLinks {
 public:
  using Clock = std::chrono::steady_clock;
  // How long the first sync_response waits for the links' own: a member
  // that hangs must not hold the client's sync forever.
  static constexpr auto kSyncWait = std::chrono::seconds(10);

  // `client` and `target` (the subscription's prefix target) name the
  // subscription in the log.
  ForwardedLinks(std::string client, ServerStats& stats) : client_(std::move(client)), stats_(stats) {}

  struct Opening {
    std::string member;
    std::string address;
    uint64_t id;
  };
  struct Plan {
    std::vector<Opening> opening;
    std::vector<std::shared_ptr<UpstreamLink>> cancelled;
  };
  // Whether the routes need a look: the view changed, a link ended, or a
  // retry is due. A first look is always due.
  bool due(uint64_t generation, Clock::time_point now) const;
  // Matches the links to the members `fleet` routes `target` to: the links
  // to cancel and the ones to open. `initial` (the subscription's first
  // sync is still to come): the first sync waits for the new links.
  Plan route(const FleetSnapshot& fleet, uint64_t generation, const std::string& target, bool initial,
             Clock::time_point now);
  // POLL: one round of links for the next poll (or the initial set), a
  // ONCE to each member `fleet` routes `target` to now (so a poll follows
  // an owner that changed since the last one). Links of an earlier round
  // still open (their member passed kSyncWait) are cancelled; the round's
  // sync waits for the new ones (deferSync).
  Plan pollRound(const FleetSnapshot& fleet, const std::string& target);
  bool routed() const { return routed_; }

  // A link opened by the session: false when it was dropped or ended while
  // it was opening (the session cancels it).
  bool attach(const Opening& o, std::shared_ptr<UpstreamLink> call);
  // Whether `id` is a link the subscription still wants data from.
  bool current(uint64_t id) const;
  // The link's sync came: true when the first sync waited for it.
  bool synced(uint64_t id);
  // The link ended; it is retried unless `finished` (a ONCE link that
  // completed). Logs why.
  void ended(uint64_t id, const grpc::Status& status, bool finished, const std::string& target);

  // The first sync: start waiting for the links (false: none to wait for,
  // send it now).
  bool deferSync(Clock::time_point now);
  bool syncDeferred() const { return sync_deferred_; }
  // True once the deferred sync may go (every link synced or kSyncWait passed).
  bool releaseSync(Clock::time_point now);

  // Every live call, the links forgotten (the session is done).
  std::vector<std::shared_ptr<UpstreamLink>> takeAll();
  size_t live() const;

 private:
  struct Link {
    std::string address;
    uint64_t id = 0;
    std::shared_ptr<UpstreamLink> call;  // null while opening or after it ended
    bool ended = false;
    int failures = 0;
    Clock::time_point retry_at{};
  };

  const std::string client_;
  ServerStats& stats_;
  bool routed_ = false;        // route() ran since the request was accepted
  bool routes_dirty_ = false;  // a link ended: look again
  uint64_t routed_generation_ = 0;
  Clock::time_point next_check_{};
  std::map<std::string, Link> links_;  // member -> its link
  uint64_t next_id_ = 1;
  std::set<uint64_t> sync_links_;  // links whose sync the first sync_response waits for
  bool sync_deferred_ = false;
  Clock::time_point sync_wait_until_{};
};

}  // namespace rdmagw::northbound::gnmi
