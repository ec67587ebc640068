#pragma once
// `show interface` (text and `| json`), `show interface counters` and
// `show interface counters errors` (text tables, or `| json`), and
// `show interface counters detailed | json`.
//
// Leaves, per interface X:
//   /interfaces/interface[name=X]/state/counters/{in-octets,out-octets,in-pkts,out-pkts,
//       in-unicast-pkts,out-unicast-pkts,in-multicast-pkts,out-multicast-pkts,
//       in-broadcast-pkts,out-broadcast-pkts,in-discards,out-discards,in-errors,out-errors}
//   /interfaces/interface[name=X]/ethernet/state/counters/{in-mac-pause-frames,out-mac-pause-frames}
//   `show interface` (text, json) also: state/counters/in-fcs-errors (CRC)
//   and the state leaves of nxos_if_state.h (oper/admin state, description,
//   MTU, speed and port-speed)
//   and the `show interface counters errors` leaves of nxos_error_columns.h
//   (in-fcs-errors under state/counters, the rest under ethernet/state/counters)
// in-pkts / out-pkts: the device's own total where it prints one; where it
// prints only unicast, multicast and broadcast, their sum.

#include <string_view>

#include "models/status.h"
#include "models/update.h"

namespace rdmagw::southbound::nxos {

// "show interface": blocks "<name> is up|down ...", counters from the RX/TX
// (or Rx/Tx) parts; text starting with '{' goes to parseInterfaceJson.
Status parseInterface(std::string_view text, TimestampNs ts, PollBatch& out);

// ROW_interface (show interface, show interface counters detailed),
// ROW_rx_counters / ROW_tx_counters (show interface counters) rows.
Status parseInterfaceJson(std::string_view text, TimestampNs ts, PollBatch& out);

// "Port InOctets InUcastPkts ..." tables; JSON goes to parseInterfaceJson.
Status parseInterfaceCounters(std::string_view text, TimestampNs ts, PollBatch& out);

// "Port Align-Err FCS-Err Xmit-Err Rcv-Err ..." tables, every section in any
// order, or `| json` (to parseInterfaceCountersErrorsJson). Every column
// feeds a leaf (nxos_error_columns.h); "--" is a column the switch does not
// count on that port: no leaf. Unknown columns are read and ignored.
Status parseInterfaceCountersErrors(std::string_view text, TimestampNs ts, PollBatch& out);

// `show interface counters errors | json`: ROW_interface rows, one per
// interface and section, merged per interface; an absent key is no leaf.
Status parseInterfaceCountersErrorsJson(std::string_view text, TimestampNs ts, PollBatch& out);

}  // namespace rdmagw::southbound::nxos
