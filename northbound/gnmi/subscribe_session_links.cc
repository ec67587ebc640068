// The fleet half of SubscribeSession: the forwarded Subscribes to other
// members (ForwardedLinks) opened and dropped as the fleet's view changes,
// and what their LinkSink delivers. The store half is subscribe_session.cc.

#include "models/log.h"
#include "northbound/gnmi/fleet_routes.h"
#include "northbound/gnmi/subscribe_session.h"
#include "northbound/gnmi/subscription_hub.h"
#include "northbound/gnmi/upstream_link.h"

namespace rdmagw::northbound::gnmi {

void SubscribeSession::routeCheck(const FleetSnapshot& fleet, uint64_t generation, Clock::time_point now) {
  ForwardedLinks::Plan plan;
  ::gnmi::SubscribeRequest request;
  {
    std::lock_guard lock(mu_);
    if (origin_.forwarded || phase_ != Phase::kActive || finish_pending_) return;
    if (spec_.list_mode == ::gnmi::SubscriptionList::POLL) {
      if (!pollRoundLocked(fleet, now, &plan)) return;
    } else {
      // ONCE: after its sync nothing more is wanted.
      if (spec_.list_mode == ::gnmi::SubscriptionList::ONCE && links_.routed() && !initial_pending_ &&
          !links_.syncDeferred()) {
        return;
      }
      if (links_.releaseSync(now)) markSyncLocked();
      if (!links_.due(generation, now)) return;
      plan = links_.route(fleet, generation, list_.prefix().target(), initial_pending_, now);
      if (links_.releaseSync(now)) markSyncLocked();
    }
    if (!plan.opening.empty()) {
      *request.mutable_subscribe() = list_;
      request.mutable_subscribe()->set_encoding(::gnmi::PROTO);  // scalars, encoded here as the client asked
      // A poll's round asks each owner once, exactly as a ONCE through this member would.
      if (spec_.list_mode == ::gnmi::SubscriptionList::POLL) {
        request.mutable_subscribe()->set_mode(::gnmi::SubscriptionList::ONCE);
      }
    }
  }
  for (const std::shared_ptr<UpstreamLink>& c : plan.cancelled) c->cancel();
  std::vector<std::pair<std::string, std::string>> metadata = origin_.credentials;
  metadata.emplace_back(kForwardedByMetadata, fleet.self);
  metadata.emplace_back(kForwardedForMetadata, origin_.client);
  for (const ForwardedLinks::Opening& o : plan.opening) {
    Result<std::shared_ptr<grpc::Channel>> channel = hub_->memberChannels()->channel(o.address);
    if (!channel.isOk()) {
      linkEnded(o.id, grpc::Status(grpc::StatusCode::FAILED_PRECONDITION, channel.status().message()));
      continue;
    }
    std::shared_ptr<UpstreamLink> call =
        UpstreamLink::open(o.id, *channel, request, metadata, sink_, hub_->stats().forwardingTo(o.member));
    hub_->stats().forwarded_streams_opened.fetch_add(1);
    std::lock_guard lock(mu_);
    if (!links_.attach(o, call)) call->cancel();  // dropped or ended while it was opening
  }
}

bool SubscribeSession::pollRoundLocked(const FleetSnapshot& fleet, Clock::time_point now, ForwardedLinks::Plan* plan) {
  // A member that did not answer within kSyncWait: the poll's sync goes without it.
  if (links_.releaseSync(now)) markSyncLocked();
  // The initial set is the first round; later ones open when a poll waits
  // and the round before it has sent its sync.
  const bool first = initial_pending_ && !links_.routed();
  const bool next = !initial_pending_ && polls_pending_ > 0 && !poll_round_open_ && !links_.syncDeferred();
  if (!first && !next) return false;
  *plan = links_.pollRound(fleet, list_.prefix().target());
  poll_round_open_ = next;
  return true;
}

void SubscribeSession::linkLeaves(uint64_t id, const std::vector<ChangedLeaf>& leaves) {
  {
    std::lock_guard lock(mu_);
    if (phase_ != Phase::kActive || finish_pending_) return;
    if (!links_.current(id)) return;  // a link being dropped: its member no longer owns what we ask
    hub_->stats().forwarded_updates_received.fetch_add(leaves.size());
    for (const ChangedLeaf& c : leaves) queue_.put(c.target, c.path, c.leaf, c.value, c.timestamp_ns, c.deleted);
  }
  kick();
}

void SubscribeSession::linkSynced(uint64_t id) {
  bool next_poll = false;
  {
    std::lock_guard lock(mu_);
    if (!links_.synced(id)) return;
    if (links_.releaseSync(Clock::now())) {
      markSyncLocked();
      next_poll = polls_pending_ > 0;  // its round may open now
    }
  }
  if (next_poll) hub_->wake();
  kick();
}

void SubscribeSession::linkEnded(uint64_t id, const grpc::Status& status) {
  {
    std::lock_guard lock(mu_);
    // ONCE links (a ONCE subscription's, a poll round's) end when done.
    const bool finished = spec_.list_mode != ::gnmi::SubscriptionList::STREAM && status.ok();
    links_.ended(id, status, finished, list_.prefix().target());
    if (links_.releaseSync(Clock::now())) markSyncLocked();
  }
  hub_->wake();
  kick();
}

}  // namespace rdmagw::northbound::gnmi
