#pragma once
// Pause storms, per port and priority: a port that keeps its peer paused
// (nearly) all the time, so nothing behind the peer moves on that priority.
// Two ways to see one:
//  - the NIC says so: its pause storm warning or error events rose in the
//    window (mlx5 tx_pause_storm_*_events, ESXi nmlx5 the same), on the
//    priorities it sent pause on (its lossless ones if it sent none: a NIC
//    in storm error has stopped pausing);
//  - the time it held its peer paused (its own pause duration sent, else
//    the peer's pause duration received) stayed at or above
//    pause_storm_percent of the window, run after run, for pause_storm_for.
// The second needs memory across runs: since when each port has been above.

#include <map>
#include <optional>
#include <utility>

#include "analytics/derived_writer.h"
#include "analytics/run_context.h"

namespace rdmagw::analytics {

class PauseStormDetector {
 public:
  void derive(const RunContext& ctx, DerivedWriter& out);

 private:
  std::map<std::pair<PortRef, int>, TimestampNs> above_since_;
};

// The fraction of the window `port` held its peer paused on `prio`: its own
// out-pause duration, else its peer's in-pause duration; none when neither
// end counts durations.
std::optional<double> peerPausedRatio(const RunContext& ctx, const PortRef& port, int prio);
// The same as seconds held paused within the window.
std::optional<double> peerPausedSeconds(const RunContext& ctx, const PortRef& port, int prio);

}  // namespace rdmagw::analytics
