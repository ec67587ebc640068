#pragma once
// One run of queued leaves of one target as the gNMI Notification a
// Subscribe stream sends: updates in the client's encoding, deletes as
// paths. A leaf JSON_IETF cannot carry (no YANG type, or a value its type
// refuses) is left out and reported, never sent malformed.

#include <cstdint>
#include <vector>

#include "gnmi.pb.h"
#include "northbound/gnmi/coalescing_queue.h"

namespace rdmagw::northbound::gnmi {

// Fills `n` from `run` (all of one target, timestamped as its first leaf)
// and appends the nonzero seen_ns of the run to `seen_ns`. Returns how many
// updates and deletes `n` carries.
size_t fillNotification(const std::vector<PendingLeaf>& run, ::gnmi::Encoding encoding, ::gnmi::Notification* n,
                        std::vector<int64_t>* seen_ns);

}  // namespace rdmagw::northbound::gnmi
