#pragma once
// NX-OS gNMI notifications -> model updates.
//
// A Nexus answers in three dialects (origins `openconfig`, `device` for the
// native /System tree, `DME` for DN paths such as sys/intf/phys-[eth1/1]),
// echoes the origin in every path, never sends a prefix (other targets do),
// and packs native values into JSON blobs (gnmic #154). mapNotification turns
// all of that into the same model paths and label values the SSH parsers
// produce for the same port, queue and priority, so a switch's series carry
// on when its transport changes. Which source leaf becomes which model leaf
// is data: mapping_table.cc.

#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "gnmi.pb.h"
#include "models/path.h"
#include "models/status.h"
#include "models/update.h"
#include "models/value.h"

namespace rdmagw::southbound::gnmi {

struct MappedNotification {
  std::vector<Update> updates;
  // Canonical model path strings (Path::toString()); a delete may be a
  // prefix (a whole interface) and key values may be "*" (Path::hasPrefix
  // matches them as wildcards), so hand each to Store::remove.
  std::vector<std::string> deletes;
  // One line per update or delete that could not be mapped (bad JSON, a
  // missing list key, a string sent to a counter); the rest is still mapped.
  std::vector<std::string> errors;

  void clear() {
    updates.clear();
    deletes.clear();
    errors.clear();
  }
};

// Maps one notification, APPENDING to `out` (call out.clear() to reuse the
// buffers for the next one; appending lets a caller batch a whole
// SubscribeResponse stream before one Store::apply).
//   - path = prefix + update path; origin from the path, else the prefix,
//     and stripped: the model has no origins.
//   - timestamp = n.timestamp() (ns), or receive_ts when the switch sent 0.
//   - Rows of the mapping table give model paths (interface names in long
//     form, queues by qos-group number, PFC by priority); counters accept
//     uint/int/double/decimal and numeric strings ("12": NX-OS does that).
//   - JSON values (json_val, json_ietf_val) are flattened into leaves first.
//   - Leaves no row knows are kept under their own path (origin stripped,
//     keys as sent), typed as sent.
//   - Deletes go through the same rows (an interface delete removes the
//     model interface subtree) and are also kept under their own path.
// Returns OK unless the notification as a whole is unusable (bad prefix);
// per-leaf problems are lines in out.errors. Never throws, never aborts.
Status mapNotification(const ::gnmi::Notification& n, TimestampNs receive_ts,
                       MappedNotification& out);

// Flattens a JSON value received at `base` into (leaf path, value) pairs,
// appended to `out`: objects nest, arrays of objects are list entries keyed
// by the list's key leaves (QueuingStats-list: cmapName, statType; otherwise
// name or id), arrays of scalars are leaf-lists (one comma-joined string),
// DME {"class": {"attributes": {...}, "children": [...]}} wrappers are
// unwrapped. Numbers keep their JSON type (uint64, int64, double); strings
// stay strings here (only mapNotification knows which leaves are counters).
// `ts` is accepted for symmetry with mapNotification: the pairs carry no time.
// Malformed JSON returns non-OK and appends nothing (a damaged blob's digits
// may be cut short, and a short counter would read as a reset). List entries
// without any key leaf are skipped and reported in the returned Status; the
// rest is still appended.
Status flattenJson(std::string_view json, const Path& base, TimestampNs ts,
                   std::vector<std::pair<Path, Value>>& out);

// The paths (with origin) a Nexus must be subscribed to so that every model
// leaf of the mapping table arrives, each from exactly one source: OpenConfig
// interface and Ethernet counters, the native ipqos queuing statistics (queue
// counters, ECN marks and per-priority PFC: OpenConfig has no PFC counters),
// and the native dbgDot3Stats error counters OpenConfig lacks, leaf by leaf
// (that container also holds second sources). List keys are left out (all
// entries). One Subscribe per switch carries them.
std::vector<std::string> nxosSubscriptionPaths();

}  // namespace rdmagw::southbound::gnmi
