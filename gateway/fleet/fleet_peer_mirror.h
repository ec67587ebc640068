#pragma once
// A fleet member's copy of what its analytics need of the targets the other
// members collect, so they judge a link whose far end, or a pause tree
// whose other branches, another member owns (analytics_engine.h: the peer
// store is read, never written, and verdicts go only onto this member's
// own ports).
//
// What is copied follows the analytics' own account after each run
// (analytics/mirror_needs.h, turned into rows by mirror_paths.h): the far
// ends of this member's links, not the other members' whole share, so a
// member's copy grows with its share of the cabling, not with the fabric.
// Analytics switched off (at start or by a reload): no stream, an empty
// copy; switched on or given a new period: the copy follows within a second.
//
// It is the gNMI relay source in its fleet-peer mode
// (southbound/gnmi/relay_source.h), subscribed through this member's OWN
// gNMI server: the server forwards to every other member and follows owner
// changes and member joins and deaths (northbound/gnmi/fleet_routes.h), so
// the mirror holds no routing of its own. A member that dies takes its
// streams with it: its targets' copies are marked down until their new
// owner answers, and the analytics judge no port on a far end that is down.
// Data flows one way: owner -> this member's analytics, never back.

#include <chrono>
#include <functional>
#include <optional>
#include <string>

#include "analytics/mirror_needs.h"
#include "gateway/fleet/fleet.h"
#include "models/fleet_view.h"
#include "models/store.h"
#include "northbound/gnmi/gnmi_server_config.h"
#include "southbound/stream_source.h"

namespace rdmagw::gateway {

struct FleetPeerMirrorOptions {
  std::string gnmi_address;   // this member's gNMI server, as the others dial it
  northbound::gnmi::GnmiServerConfig gnmi;  // its security: the mirror dials it as a member would
  // The analytics' period now, nullopt while they are off. The owners'
  // latest values are sampled at this period (each run then sees each
  // counter's latest collection), at least the server's min_sample_interval.
  std::function<std::optional<std::chrono::milliseconds>()> analytics_period;
  const analytics::MirrorNeedsBoard* needs = nullptr;  // what the last analytics run asked for
  std::chrono::milliseconds backoff_initial{500};
  std::chrono::milliseconds backoff_max{10000};
};

// `fleet` gives this member's name and the targets' kinds; `view` the
// owners. All outlive the mirror; stop() empties `peers`.
Result<southbound::StreamSourcePtr> createFleetPeerMirror(FleetPeerMirrorOptions options, const Fleet& fleet,
                                                          const FleetView& view, Store& peers);

}  // namespace rdmagw::gateway
