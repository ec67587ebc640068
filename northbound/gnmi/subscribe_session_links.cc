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
      links_.markRouted();
      return;
    }
    // ONCE: after its sync nothing more is wanted.
    if (spec_.list_mode == ::gnmi::SubscriptionList::ONCE && links_.routed() && !initial_pending_ &&
        !links_.syncDeferred()) {
      return;
    }
    if (links_.releaseSync(now)) markSyncLocked();
    if (!links_.due(generation, now)) return;
    plan = links_.route(fleet, generation, list_.prefix().target(), initial_pending_, now);
    if (!plan.opening.empty()) {
      *request.mutable_subscribe() = list_;
      request.mutable_subscribe()->set_encoding(::gnmi::PROTO);  // scalars, encoded here as the client asked
    }
    if (links_.releaseSync(now)) markSyncLocked();
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
    std::shared_ptr<UpstreamLink> call = UpstreamLink::open(o.id, *channel, request, metadata, sink_);
    hub_->stats().forwarded_streams_opened.fetch_add(1);
    std::lock_guard lock(mu_);
    if (!links_.attach(o, call)) call->cancel();  // dropped or ended while it was opening
  }
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
  {
    std::lock_guard lock(mu_);
    if (!links_.synced(id)) return;
    if (links_.releaseSync(Clock::now())) markSyncLocked();
  }
  kick();
}

void SubscribeSession::linkEnded(uint64_t id, const grpc::Status& status) {
  {
    std::lock_guard lock(mu_);
    const bool finished = spec_.list_mode == ::gnmi::SubscriptionList::ONCE && status.ok();
    links_.ended(id, status, finished, list_.prefix().target());
    if (links_.releaseSync(Clock::now())) markSyncLocked();
  }
  hub_->wake();
  kick();
}

}  // namespace rdmagw::northbound::gnmi
