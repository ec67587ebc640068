#pragma once
// `show queuing interface`: the modern N9K layout (per qos-group boxes,
// per-port ingress statistics, PFC statistics) and the legacy N5K layout
// ("EthernetX queuing information:", RX Queuing per qos-group).

#include <string_view>

#include "models/status.h"
#include "models/update.h"

namespace rdmagw::southbound::nxos {

// Emits, per port X and qos-group Q (the number as printed):
//   /qos/interfaces/interface[interface-id=X]/output/queues/queue[name=Q]/state/
//       {transmit-pkts,transmit-octets,dropped-pkts,dropped-octets,ecn-marked-pkts,ecn-marked-octets}
//   /qos/interfaces/interface[interface-id=X]/input/state/dropped-pkts
//   per-CoS PFC counters and TxPPP/RxPPP as parsePfcDetail does.
// Text starting with '{' is handed to parseQueuingJson.
Status parseQueuing(std::string_view text, TimestampNs ts, PollBatch& out);

}  // namespace rdmagw::southbound::nxos
