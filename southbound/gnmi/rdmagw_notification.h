#pragma once
// A notification from another rdmagw's gNMI server (a site gateway relayed
// upward, a fleet member's store copied sideways) as store changes. An
// rdmagw serves its own model with PROTO values and keyed paths, so the
// conversion is exact: no mapping table, the paths are already the model's.

#include <vector>

#include "gnmi.pb.h"
#include "models/path.h"
#include "models/update.h"

namespace rdmagw::southbound::gnmi {

struct NotificationChanges {
  std::vector<Update> updates;  // stamped with the notification's timestamp: the sender's collection time
  std::vector<Path> deletes;
};

// Updates whose value is not a scalar PROTO value are skipped (an rdmagw
// sends none); deletes whose path does not parse are skipped.
NotificationChanges fromRdmagwNotification(const ::gnmi::Notification& n);

}  // namespace rdmagw::southbound::gnmi
