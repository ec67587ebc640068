#pragma once
// DCB consistency per link: the configuration both ends of a cable must
// agree on for the priority to be lossless, compared switch vs host:
//  - PFC-enabled priorities: the switch port's operational PFC bitmap (else
//    its network-qos no-drop CoS), the host netdev's `dcb pfc` prio-pfc;
//  - MTU: a host MTU above its switch port's (the switch drops the host's
//    biggest frames as giants), or one end at the 1500 default while the
//    other runs jumbo frames (two switch or two host ends must be equal);
//  - on a host NIC, a PFC priority whose DCQCN notification or reaction
//    point is off: a fabric that pauses instead of slowing down;
//  - trust mode, how each end classifies RoCE to a priority: dscp or pcp
//    (802.1p CoS). A host's from `dcb app` (dscp-prio rules: dscp); a
//    switch's from its type-qos class-maps, kept simple: any class matching
//    dscp makes the switch dscp, else any matching cos makes it pcp.
// The verdict goes to both ends of the link. It needs both ends' PFC
// configuration: while either is not collected the leaves are absent (an
// unknown is never a guess); MTU, trust and the DCQCN knobs count where
// known at both ends (one end unknown: no item).

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "analytics/derived_writer.h"
#include "analytics/run_context.h"
#include "models/store.h"

namespace rdmagw::analytics {

// Exported as consistency-code: never renumber.
enum class DcbConsistency : uint64_t {
  kConsistent = 0,
  kMismatch = 1,
};

// "3", "3,4", "" (none) for a priority bitmap.
std::string priorityList(uint64_t bitmap);

void deriveDcb(const RunContext& ctx, DerivedWriter& out);

}  // namespace rdmagw::analytics
