#pragma once
// NX-OS `show lldp neighbors detail`, `| json` (TABLE_nbor_detail /
// ROW_nbor_detail) or text (one "Chassis id: ..." block per neighbour), to
// the OpenConfig LLDP neighbour leaves (models/lldp.h). The local port is
// normalized as every NX-OS parser names it (Eth1/1 -> Ethernet1/1); the
// neighbour's own port ID is kept as it sent it. The neighbour's id (the
// list key) is its chassis ID, as NX-OS keys it over gNMI.

#include <string_view>

#include "models/status.h"
#include "models/update.h"

namespace rdmagw::southbound::nxos {

Status parseLldpNeighbors(std::string_view text, TimestampNs ts, PollBatch& out);

}  // namespace rdmagw::southbound::nxos
