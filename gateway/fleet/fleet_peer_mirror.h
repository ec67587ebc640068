#pragma once
// A fleet member's copy of the analytics inputs of the targets the other
// members collect, so its analytics judge a link whose far end, or a pause
// tree whose other branches, another member owns (analytics_engine.h: the
// peer store is read, never written, and verdicts go only onto this
// member's own ports).
//
// It is the gNMI relay source in its fleet-peer mode
// (southbound/gnmi/relay_source.h), subscribed through this member's OWN
// gNMI server: the server forwards to every other member and follows owner
// changes and member joins and deaths (northbound/gnmi/fleet_routes.h), so
// the mirror holds no routing of its own. Here it gets what only the
// gateway knows: the dial (the server's own security, as a member would
// dial it), the owner filter (the targets the fleet view says are this
// member's are dropped: its own store has them) and the targets' kinds.
// Data flows one way: owner -> this member's analytics, never back.
//
// Cost: every member receives the analytics inputs of the whole fabric
// (PFC, ECN, CNP, queue and DCB leaves of every port), not its share.

#include <chrono>
#include <string>
#include <vector>

#include "gateway/fleet/fleet.h"
#include "models/fleet_view.h"
#include "models/store.h"
#include "northbound/gnmi/gnmi_server_config.h"
#include "southbound/stream_source.h"

namespace rdmagw::gateway {

struct FleetPeerMirrorOptions {
  std::string gnmi_address;   // this member's gNMI server, as the others dial it
  northbound::gnmi::GnmiServerConfig gnmi;  // its security: the mirror dials it as a member would
  std::vector<std::string> paths;     // rows to mirror (analytics::inputRowPaths())
  // How often the owners' latest values are sampled: the analytics period
  // (each run then sees each counter's latest collection), at least the
  // server's min_sample_interval.
  std::chrono::milliseconds sample_interval{10000};
  std::chrono::milliseconds backoff_initial{500};
  std::chrono::milliseconds backoff_max{10000};
};

// `fleet` gives this member's name and the targets' kinds; `view` the
// owners. All three outlive the mirror; stop() empties `peers`.
Result<southbound::StreamSourcePtr> createFleetPeerMirror(FleetPeerMirrorOptions options, const Fleet& fleet,
                                                          const FleetView& view, Store& peers);

}  // namespace rdmagw::gateway
