#pragma once
// Turns recorded NX-OS outputs back into the gNMI Notifications the switch
// sent: no prefix (NX-OS sends none), the origin echoed in every path,
// uint_val/string_val/bool_val leaves for OpenConfig and native scalars, a
// json_val blob where NX-OS sends DME objects.

#include <string_view>
#include <vector>

#include "gnmi.pb.h"

namespace rdmagw::testing {

struct Replay {
  std::vector<::gnmi::Notification> notifications;
  size_t skipped = 0;  // records the store cut short (truncated fixtures)
};

// gnmic `--format event` JSONL: {"timestamp", "tags": {"<elem>_<key>": v},
// "values": {"origin:/a/b/leaf": v}}; keys come back from the tags.
Replay fromGnmicEvents(std::string_view text);

// gnmic `get` output: [{"timestamp", "updates": [{"Path": "...", "values":
// {...: v}}]}] after the command line.
Replay fromGnmicGet(std::string_view text);

// NX-API REST reply of one DME object (`GET .../<dn>.json`, two header
// lines): one Notification for origin DME at the object's dn, the object as
// a json_val blob, timestamp 0 (the REST reply carries none).
Replay fromDmeRest(std::string_view text);

// NETCONF <rpc-reply><data> of an OpenConfig tree: every leaf becomes an
// update with origin openconfig, uint_val for digits and string_val else;
// list entries keyed by their first child (name, interface-id). Stops at a
// cut-off tag; the incomplete leaf is not sent.
Replay fromNetconfReply(std::string_view text);

}  // namespace rdmagw::testing
