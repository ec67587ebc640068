#pragma once
// Links and PFC per link and priority:
//  - each configured link as leaves at both ends (peer target, peer port,
//    source);
//  - pause balance: PFC frames this end sent vs frames its peer counted as
//    received, as rates over the window (the two devices are polled at
//    different moments, so counts over "the same" window never match
//    exactly; rates within a tolerance do);
//  - the fraction of the window a priority was paused (where the NIC counts
//    pause durations);
//  - drops on a lossless priority: the one alarm that means the fabric is
//    not lossless (host rx discards of the priority, switch queue drops of
//    the qos-group serving it).

#include <set>
#include <string_view>

#include "analytics/derived_writer.h"
#include "analytics/run_context.h"

namespace rdmagw::analytics {

// Exported as pause-balance-code: never renumber.
enum class PauseBalance : uint64_t {
  kIdle = 0,        // neither end counted pause frames in the window
  kBalanced = 1,    // what one end sent, the other received
  kUnbalanced = 2,  // they differ beyond the tolerance: lost pause frames, or a
                    // peer that does not count (PFC off or another priority there)
};
std::string_view pauseBalanceName(PauseBalance b);

// sent and received are rates (frames/s); window_seconds sets the slack of
// one frame per window for rounding at low rates.
PauseBalance judgeBalance(double sent, double received, double window_seconds);

// The port's lossless priorities: its switch's PFC bitmap, else what its
// switch's (or its link peer's) qos-groups pause, else the config's.
std::set<int> losslessPriorities(const RunContext& ctx, const PortRef& port);

void deriveLinks(const RunContext& ctx, DerivedWriter& out);
void derivePfc(const RunContext& ctx, DerivedWriter& out);

}  // namespace rdmagw::analytics
