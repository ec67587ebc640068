#pragma once
// `esxcli network nic dcb status get -n vmnicN`: a vmnic's DCBX mode, PFC
// priorities and IEEE ETS table, into a host port's RoCE configuration.
// The layout ("Key: value" lines; 8 space-separated values per priority or
// TC) follows tests/fixtures/esxi/SYNTHETIC_esxcli_network_nic_dcb_status_get.txt,
// reconstructed, not captured (no recording of this command was found).
//   PFC Enabled / PFC Configuration      -> pfc_enabled (0 when PFC Enabled: false)
//   TX Bandwidth Per TC                  -> tc[i].bandwidth_percent
//   TSA Assignment Table Per TC          -> tc[i].tsa (IEEE 802.1Qaz codes: 0 strict,
//                                           1 CBS, 2 ETS, 255 vendor)
//   Priority Assignment Per TC           -> priority_tc (index = priority: the
//                                           "1 0 2 3 ..." default is 802.1Q's
//                                           priority->TC table)
// ESXi reports no trust mode: it stays unknown.

#include <string_view>

#include "models/roce_config.h"
#include "models/status.h"

namespace rdmagw::southbound::esxi {

// kNotFound when esxcli answered with an error (a driver without DCB);
// kCorrupt when there is no "PFC Enabled" line; kInvalidArgument naming
// every bad value, the rest kept.
Status parseEsxiDcbConfig(std::string_view text, rdmagw::roce::HostPort& port);

}  // namespace rdmagw::southbound::esxi
