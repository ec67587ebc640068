#pragma once
// Subscribing to an upstream rdmagw's gNMI northbound, prefix.target "*":
// every notification names its device in prefix.target, and the relay
// writes it into a store as that device's own target, with the collection
// timestamp the upstream gateway stamped. Deletes remove leaves; a lost
// stream marks the relayed targets down and is retried with jittered
// exponential backoff. One thread per upstream gateway (blocking gRPC
// reads): a relay is one stream, not one per device.
//
// Two modes share that loop:
//  - chaining (createRelaySource): a regional rdmagw relays a site rdmagw
//    (target `kind: rdmagw`, `transport: gnmi`), one ON_CHANGE subscription
//    to "/", so each remote device stays a target downstream.
//  - fleet peers (createPeerRelaySource): a fleet member's copy of the
//    analytics inputs of the targets the other members collect, through
//    its own gNMI server (which forwards to the owners and follows owner
//    changes). Only the rows asked for are subscribed (SAMPLE, so a
//    counter that stands still still reaches the copy at each collection):
//    some rows everywhere, the rest only of the ports named (a path may
//    name its target under prefix "*": our server's extension); the owner
//    filter keeps out the targets this member collects itself.

#include <grpcpp/grpcpp.h>

#include <chrono>
#include <functional>
#include <map>
#include <memory>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "models/status.h"
#include "models/store.h"
#include "southbound/gnmi/gnmi_config.h"
#include "southbound/stream_source.h"

namespace rdmagw::southbound::gnmi {

// `name` is the upstream gateway's target name in the config; relayed
// targets carry the label via=<name> besides `labels`.
Result<StreamSourcePtr> createRelaySource(const std::string& name, const GnmiConfig& config, Store& store,
                                          std::vector<std::pair<std::string, std::string>> labels = {});

// Which relayed targets a peer relay keeps, per the fleet's placement.
struct RelayOwnership {
  std::set<std::string> mine;   // collected here: the local store has them
  std::set<std::string> known;  // every configured target; the rest are not copied
};

// What a peer relay asks for: some rows of every peer target, and some
// rows (keys allowed, models/path.h form) of a few named targets.
struct PeerSubscription {
  std::vector<std::string> everywhere;                         // rows of every peer target
  std::map<std::string, std::vector<std::string>> per_target;  // target -> paths of that target only
  std::chrono::milliseconds sample_interval{10000};
  bool empty() const { return everywhere.empty() && per_target.empty(); }
  bool operator==(const PeerSubscription&) const = default;
};

struct PeerRelayOptions {
  // Asked at each stream start and about every second while it runs. A
  // different answer restarts the stream at once (no backoff, targets stay
  // up) and drops the copied leaves the new one no longer asks for.
  // Empty: no stream at all (and an empty copy) until it is not.
  std::function<PeerSubscription()> subscription;
  std::chrono::milliseconds backoff_initial{500};
  std::chrono::milliseconds backoff_max{10000};
  // Dials the upstream gateway with the caller's security settings (this
  // library knows no server's configuration).
  std::function<Result<std::shared_ptr<grpc::Channel>>()> channel;
  // The owner filter: asked when a stream starts and at most every half
  // second while it runs.
  std::function<RelayOwnership()> ownership;
  // A target's kind (gNMI does not carry it); empty: not placed yet, its
  // notifications are dropped until it is.
  std::function<std::string(const std::string& target)> kind;
  // Every notification received, if set: its size on the wire and the
  // owner's collection time (the mirror's cost and lag).
  std::function<void(size_t bytes, int64_t timestamp_ns)> received;
  // A stream started with a subscription other than the last one's, if set.
  std::function<void()> resubscribed;
};

// stop() empties `peers`.
Result<StreamSourcePtr> createPeerRelaySource(PeerRelayOptions options, Store& peers);

}  // namespace rdmagw::southbound::gnmi
