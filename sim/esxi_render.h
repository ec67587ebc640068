#pragma once
// What a simulated ESXi host prints for the commands the gateway's CLI
// collector runs: `esxcli network nic list`, `esxcli network nic stats get`
// (layout of the Broadcom KB capture) and the vmnic stats node of vsish
// (layout of tests/fixtures/esxi/SYNTHETIC_nmlx5_vsish_pNics_stats.txt,
// with the nmlx5 private pause block).

#include <string>

#include "sim/device.h"
#include "sim/roce_qos.h"

namespace rdmagw::sim {

std::string esxcliNicList(const EsxiHost& host, double link_gbps);
std::string esxcliNicStats(const Vmnic& nic);
std::string vsishPnicStats(const Vmnic& nic, int roce_priority);
// esxcli network nic dcb status get -n <nic>: IEEE mode, PFC on the RoCE
// priority (off when the NIC does no PFC) and the same ETS as the Linux
// hosts' (sim/roce_qos.h hostEts). The layout is that of
// tests/fixtures/esxi/SYNTHETIC_esxcli_network_nic_dcb_status_get.txt,
// reconstructed from VMware's esxcli reference, not a capture.
std::string esxcliNicDcbStatus(const Vmnic& nic, const RoceQosPlan& plan);

}  // namespace rdmagw::sim
