#pragma once
// `esxcli network nic stats get -n vmnicN`:
//
//   NIC statistics for vmnic2
//      Packets received: 701280499176
//      ...
//
// -> /hypervisor/nics/nic[name=vmnic2]/state/counters/*. Labels are matched
// by name (case-insensitive), never by position, so reordered or new lines
// are fine; unknown labels are ignored. A value that is not a plain unsigned
// decimal is an error line and no update. A last line without its '\n' may
// have been cut mid-number and is dropped with an error line.

#include <string_view>

#include "models/status.h"
#include "models/update.h"
#include "models/value.h"

namespace rdmagw::southbound::esxi {

// The NIC name comes from the "NIC statistics for <nic>" header (or, lacking
// it, from a "-n <nic>" prompt line).
Status parseEsxiNicStats(std::string_view text, TimestampNs ts, PollBatch& out);

// For a live poll that knows which NIC it asked for. A header naming another
// NIC is refused (kInvalidArgument, nothing emitted): never a misattributed
// value.
Status parseEsxiNicStatsFor(std::string_view nic, std::string_view text, TimestampNs ts,
                            PollBatch& out);

}  // namespace rdmagw::southbound::esxi
