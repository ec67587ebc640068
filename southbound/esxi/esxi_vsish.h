#pragma once
// `vsish -e cat /net/pNics/vmnicN/stats` (plain "name:value" lines) and
// `vsish -pe get /net/pNics/vmnicN/stats` (JSON-like: trailing commas, a
// multi-line "hw" string holding the driver-private stats). The form is
// detected from the text: a line starting with '{' means -pe.
//
// Generic counters (rxpkt, txbytes, rxdrp, ...) map through a table onto the
// same state/counters/* leaves as `esxcli network nic stats get`; generic
// names without a row (col, intrxpkt...) are ignored. The private block goes
// through EsxiPrivateStats (esxi_vsish_private.h).
//
// -pe syntax errors stop the parse at the error: members already complete
// (followed by ',' or '}') are kept, the one in progress is dropped, and an
// error line says where. "1,234" (a separator inside a number) is such an
// error, not 1.

#include <string_view>

#include "models/status.h"
#include "models/update.h"
#include "models/value.h"

namespace rdmagw::southbound::esxi {

// The NIC name comes from a "/net/pNics/<nic>/" path in the text (prompt or
// '#' line); "unknown" when there is none.
Status parseEsxiVsishStats(std::string_view text, TimestampNs ts, PollBatch& out);

// For a live poll that knows which NIC it asked for; a text naming another
// NIC's path is refused.
Status parseEsxiVsishStatsFor(std::string_view nic, std::string_view text, TimestampNs ts,
                              PollBatch& out);

}  // namespace rdmagw::southbound::esxi
