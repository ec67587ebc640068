#pragma once
// `show class-map type qos` (text; `show class-map` works too, only its
// "class-map type qos" blocks are read): how the switch classifies traffic
// to a qos-group, by DSCP (`match dscp 26`) or by 802.1p CoS (`match cos 3`).
// The fabric's DCB consistency (analytics/dcb_consistency.h) takes the
// switch's trust mode from it: any class matching dscp -> dscp, else any
// matching cos -> pcp.

#include <string_view>

#include "models/status.h"
#include "models/update.h"

namespace rdmagw::southbound::nxos {

// Emits, per type-qos class C that matches on dscp or cos:
//   /qos/type-qos/classes/class[name=C]/state/match  "dscp" | "cos"
// (dscp wins in a class matching both). Classes matching anything else
// (precedence, protocol, `match any`) are left out; none matching dscp or
// cos at all is a failed parse (the trust stays unknown). A dscp/cos line
// without a value is an error line; the other classes stay.
Status parseClassMapQos(std::string_view text, TimestampNs ts, PollBatch& out);

}  // namespace rdmagw::southbound::nxos
