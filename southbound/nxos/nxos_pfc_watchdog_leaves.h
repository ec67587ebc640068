#pragma once
// NX-OS `show queuing pfc-queue detail` (text, nxos_pfc_watchdog.h, or its
// `| json` form, nxos_pfc_watchdog_json.h) as CLI commands' parsers: the
// watchdog's live state written as the ports' watchdog leaves
// (models/roce_watchdog_leaves.h).

#include <string_view>

#include "models/status.h"
#include "models/update.h"

namespace rdmagw::southbound::nxos {

// kUnavailable for a device error banner and kCorrupt when the output holds
// no watchdog at all (nothing written). A bad value is an error line; the
// rest is written.
Status parseNxosPfcWatchdogLeaves(std::string_view text, TimestampNs ts, PollBatch& out);
Status parseNxosPfcWatchdogJsonLeaves(std::string_view text, TimestampNs ts, PollBatch& out);

}  // namespace rdmagw::southbound::nxos
