#pragma once
// Per-priority PFC counters: `show interface priority-flow-control detail`
// and the "PFC Statistics" part of modern `show queuing interface`.

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "models/status.h"
#include "models/update.h"
#include "southbound/nxos/nxos_emit.h"

namespace rdmagw::southbound::nxos {

// Emits per port X and priority N:
//   /interfaces/interface[name=X]/ethernet/pfc/priorities/priority[id=N]/state/counters/
//       {in-pause-frames,out-pause-frames}
// plus the port's admin/oper mode, VL bitmap and Total Rx/Tx PFC frames from
// the detail blocks, and TxPPP/RxPPP from "PFC Statistics". Output whose line
// breaks were lost is cut again first (see decollapseLines).
Status parsePfcDetail(std::string_view text, TimestampNs ts, PollBatch& out);

// Reads the "PFC Statistics" block whose title is lines[title]; returns the
// index of the first line after it. Rows of the per-CoS table are found by
// header name (PFC_COS/COS, TxCount, RxCount; QOS_Group, PG and the pause
// states are checked but not emitted); a table whose rows were joined into
// one line is split into header-sized rows when every one of them fits.
size_t parsePfcStatisticsBlock(const std::vector<std::string>& lines, size_t title,
                               const std::optional<std::string>& ifname, Emitter& em);

}  // namespace rdmagw::southbound::nxos
