#pragma once
// `show interface priority-flow-control` (text, and `| json`): per port the
// PFC admin/oper mode, the VL bitmap and the RxPPP/TxPPP totals.

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "models/status.h"
#include "models/update.h"

namespace rdmagw::southbound::nxos {

// Emits, per port X:
//   /interfaces/interface[name=X]/ethernet/pfc/state/{admin-mode,oper-mode,enabled-priorities}
//   /interfaces/interface[name=X]/ethernet/pfc/state/counters/{in-pfc-frames,out-pfc-frames}
// Text starting with '{' (after prompt/comment lines) is read as `| json`.
Status parsePfc(std::string_view text, TimestampNs ts, PollBatch& out);

// Shared with the detail parser.
// "Auto"/"On"/"Off" (any case) -> "auto"/"on"/"off"; nullopt otherwise.
std::optional<std::string> pfcAdminMode(std::string_view cell);

struct PfcOper {
  std::string mode;                 // "on" / "off"
  std::optional<uint64_t> bitmap;   // enabled priorities
};
// "Off", "On", "On (8)", "On(8)". The number in parentheses is NX-OS's VL
// bitmap printed in hex, bit N = priority (CoS) N: "(8)" = 0x08 = priority 3
// (the FCoE no-drop class on the N5K/UCS FI fixtures), "(20)" = 0x20 =
// priority 5 on the N93180FX2 fixture whose RoCE class is pfc-cos 5.
// Off means no priority is PFC-operational: bitmap 0.
std::optional<PfcOper> pfcOper(std::string_view cell);
// "(20)" or "20" -> 0x20.
std::optional<uint64_t> pfcBitmap(std::string_view cell);

}  // namespace rdmagw::southbound::nxos
