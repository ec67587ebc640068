#pragma once
// `show queuing interface | json` in the grammar of the NX-OS 9.3(x) show
// command reference (TABLE_queuing_interface ...; see
// tests/fixtures/nxos/nxos_93x_show_queuing_json_schema__N9K_show_commands_ref.txt).

#include <string_view>

#include "models/status.h"
#include "models/update.h"

namespace rdmagw::southbound::nxos {

// Same leaves as parseQueuing:
//   ROW_qosgrp_egress_stats {eq-qosgrp} / ROW_qosgrp_egress_stats_entry
//     {eq-stat-type, eq-stat-units, eq-uc-stat-value, eq-oobfc-uc-stat-value,
//      eq-mc-stat-value}                        -> output/queues/queue[name=eq-qosgrp]
//   ROW_ingress_stats_entry {ip-stat-type, ip-stat-units, ip-stat-value}
//                                               -> input/state/dropped-pkts
//   tx-ppp, rx-ppp                              -> ethernet/pfc/state/counters
//   ROW_pfc_stats {cos, tx-pause-count, rx-pause-count} -> per-priority counters
// A damaged document keeps the rows read before the damage; an entry cut
// short is skipped.
Status parseQueuingJson(std::string_view text, TimestampNs ts, PollBatch& out);

}  // namespace rdmagw::southbound::nxos
