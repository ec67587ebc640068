#pragma once
// The DCB configuration leaves of one target as readFabric takes them row by
// row (MTU, DCQCN knobs, network-qos classes, trust); dcb_consistency.h
// compares them across a link.

#include <cstdint>
#include <map>
#include <string>
#include <string_view>
#include <vector>

#include "analytics/port_ref.h"
#include "models/store.h"

namespace rdmagw::analytics {

// The DCB configuration leaves of the ports and switches, bitmaps with bit N
// = priority N (a switch port's PFC is FabricInventory::enabled_priorities).
// Compared by analytics/dcb_consistency.h. A host's own PFC is kept apart:
// the lossless priorities the other signals judge stay the switch's (or the
// config's), so a host that turned PFC off still has its drops alarmed.
struct DcbInventory {
  std::map<PortRef, uint64_t> host_pfc;             // Linux netdev `dcb pfc` priorities
  std::map<PortRef, uint64_t> mtu;
  std::map<PortRef, uint64_t> np_enabled;           // host NIC DCQCN notification point knobs
  std::map<PortRef, uint64_t> rp_enabled;           // and reaction point knobs
  std::map<PortRef, uint64_t> vmnic_pfc;            // ESXi vmnic (esxcli nic dcb) PFC priorities
  std::map<std::string, uint64_t> no_drop_cos;      // switch -> its network-qos classes' pause pfc-cos
  std::map<PortRef, std::string> host_trust;        // Linux netdev trust mode (`dcb app`): dscp | pcp
  std::map<std::string, std::string> switch_trust;  // switch -> dscp (a type-qos class matches dscp) | pcp
};

// Takes a DCB configuration leaf into `dcb`; whether it took it. A
// switch's own PFC bitmap is left to readFabric (is_switch).
bool readDcbLeaf(const std::string& target, bool is_switch, const SeriesView& s, DcbInventory& dcb);
// The schema rows readDcbLeaf takes.
std::vector<std::string_view> dcbRowPaths();

}  // namespace rdmagw::analytics
