#pragma once
// `show policy-map system type network-qos` (text): the system network-qos
// policy, per class its PFC CoS values (`pause pfc-cos 3[,4]`, the no-drop
// priorities) and its MTU. What a switch port's PFC and MTU are checked
// against by the fabric's DCB consistency (analytics/dcb_consistency.h).

#include <string_view>

#include "models/status.h"
#include "models/update.h"

namespace rdmagw::southbound::nxos {

// Emits, per class C that configures either:
//   /qos/network-qos/classes/class[name=C]/state/{pfc-priorities,mtu}
// pfc-priorities is a bitmap (bit N = CoS N), written for every class (0
// when the class pauses nothing), so "no no-drop class" is a value, not a
// gap. A line that does not parse is an error line; the other classes stay.
Status parseNetworkQos(std::string_view text, TimestampNs ts, PollBatch& out);

}  // namespace rdmagw::southbound::nxos
