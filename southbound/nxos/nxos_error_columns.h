#pragma once
// The columns of NX-OS `show interface counters errors` (text headers and
// `| json` keys) and the model leaf each one feeds. One table, read by the
// text and the JSON parser, so the two cannot drift.

#include <span>
#include <string_view>

namespace rdmagw::southbound::nxos {

struct ErrorColumn {
  std::string_view header;    // text column header, matched case-insensitively
  std::string_view json_key;  // NX-API key in ROW_interface
  std::string_view leaf;      // model leaf name
  bool ethernet;              // under ethernet/state/counters, else state/counters
};

// Every column NX-OS prints, in its print order (four sections, plus
// Stomped-CRC on releases that count it).
std::span<const ErrorColumn> nxosErrorColumns();

// True for the leaves the NX-OS parsers write under
// /interfaces/interface/ethernet/state/counters (802.3x pause and the
// Ethernet error columns); every other interface counter sits under
// /interfaces/interface/state/counters.
bool isEthernetCounterLeaf(std::string_view leaf);

}  // namespace rdmagw::southbound::nxos
