#pragma once
// Roots of pause trees, per priority. A port that sends PFC pause is
// congested on ingress; if its own device is being paused downstream (some
// other port of a switch receives pause on that priority) or one of its
// switch's egress queues on that priority is congested (ECN marks on a port
// nothing pauses), the congestion came from further along and the port is a
// victim; if not, the congestion starts here: a root. A switch port whose
// egress queue marks while other ports of its switch pause on that priority
// is a root too: the queue toward an incast's receiver, whose senders'
// ports the switch pauses. A port only receiving pause is a victim. Ports are
// joined into one tree across links (both ends) and, inside a switch,
// between the ports sending and the ports receiving pause on that priority.
//
// Only switches forward, so only a switch's ports are each other's
// downstream; a host's or ESXi host's ports stand alone. A multi-ASIC
// switch is taken as one device: its internal ii ports are ordinary ports
// here (their pause is counted like any other's) until the ASIC of each
// port is known.

#include <string_view>

#include "analytics/derived_writer.h"
#include "analytics/run_context.h"

namespace rdmagw::analytics {

// Exported as pause-tree-state-code: never renumber.
enum class PauseTreeState : uint64_t {
  kClear = 0,   // neither sends nor receives pause in the window
  kVictim = 1,  // paused by its peer, or pausing because it is paused downstream
  kRoot = 2,    // pausing while nothing downstream pauses it: congestion starts here
};
std::string_view pauseTreeStateName(PauseTreeState s);

void derivePauseTree(const RunContext& ctx, DerivedWriter& out);

}  // namespace rdmagw::analytics
