#pragma once
// What a simulated ESXi host prints for the commands the gateway's CLI
// collector runs: `esxcli network nic list`, `esxcli network nic stats get`
// (layout of the Broadcom KB capture) and the vmnic stats node of vsish
// (layout of tests/fixtures/esxi/SYNTHETIC_nmlx5_vsish_pNics_stats.txt,
// with the nmlx5 private pause block).

#include <string>

#include "sim/device.h"

namespace rdmagw::sim {

std::string esxcliNicList(const EsxiHost& host, double link_gbps);
std::string esxcliNicStats(const Vmnic& nic);
std::string vsishPnicStats(const Vmnic& nic, int roce_priority);
// esxcli network nic dcb status get -n <nic>: IEEE mode, PFC on the RoCE
// priority (off when the NIC does no PFC). The layout is reconstructed from
// VMware's esxcli reference and operators' notes, not a capture.
std::string esxcliNicDcbStatus(const Vmnic& nic, int roce_priority);

}  // namespace rdmagw::sim
