#pragma once
// NX-OS `show queuing pfc-queue [interface X] detail | json` into the same
// switch model as the text form (nxos_pfc_watchdog.h), the counters under
// the text form's names so both read alike:
//   glb-wd-status                          -> watchdog_global_enabled
//   TABLE_queuing_interface / ROW_...:     if_name_str, wd-status, disable-action, intf-multi
//     TABLE_qosgrp_stats / ROW_...:        eq-qosgrp, eq-qosgrp-state, pfc-configured, pfc-cos
//       TABLE_qosgrp_stats_entry / ROW_...: q-shutdown "Shutdown", q-restored "Restored",
//                                          q-pkt-drained "Total pkts drained", q-pkt-dropped
//                                          "Total pkts dropped", q-pkt-drained-n-dropped "Total pkts
//                                          drained + dropped", q-aggr-pkt-dropped "Aggregate pkts
//                                          dropped", q-ing-pkt-dropped "Total Ingress pkts dropped",
//                                          q-ing-aggr-pkt-dropped "Aggregate Ingress pkts dropped"
// UNVERIFIED: the names come from the `__readonly__` grammar of Cisco's
// 9.3(x) show-command reference; no capture was found, so the value
// spellings are guesses read loosely (Enabled/Disabled, on/off, YES/NO,
// true/false; numbers as JSON numbers or strings). Unknown members are skipped.

#include <string_view>

#include "models/roce_config.h"
#include "models/status.h"

namespace rdmagw::southbound::nxos {

// kCorrupt when the JSON is damaged or has neither glb-wd-status nor an
// interface row; kInvalidArgument naming every bad value (the rest kept).
Status parseNxosPfcWatchdogJson(std::string_view text, rdmagw::roce::SwitchQos& qos);

}  // namespace rdmagw::southbound::nxos
