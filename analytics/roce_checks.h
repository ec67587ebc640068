#pragma once
// The RoCE check: is every hop of the lossless path configured for RoCE,
// and does the traffic behave as configured. Six groups, each answering
// PASS / WARN / FAIL per target with the items behind it:
//  1 lossless            the RoCE priority is paused on every host NIC and
//                        switch of the path, nothing else is; PFC mode on on
//                        the switch ports; live: PFC frames on a lossy priority;
//  2 classification      host trust and DSCP->priority agree with the switch's
//                        DSCP->qos-group; the RoCE DSCP lands in a no-drop
//                        qos-group; the hosts' CNP DSCP in a strict queue on
//                        every switch;
//  3 congestion-control  ECN on the RoCE egress queue of every switch, its
//                        WRED thresholds present, ordered and the same on
//                        every switch; DCQCN NP and RP on the RoCE priority
//                        of every RDMA NIC;
//  4 flow-control        MTU large enough for RoCE and not smaller on the
//                        switch than on the host; ingress pause buffer and
//                        thresholds for the no-drop qos-group; host receive
//                        buffer for the RoCE priority; PFC watchdog on;
//  5 ets                 the RoCE traffic class has bandwidth (not 0 %, not
//                        below strict classes carrying data); host and switch
//                        shares agree;
//  6 live                the verdicts the engine derived this run (lossless
//                        drops, pause storms, pause-tree roots, the DCQCN
//                        chain), read from what it wrote, never recomputed.
//
// The path: each host port is paired with its switch port by the link map
// (LLDP or static). The host's RoCE DSCP is its RDMA CM default_roce_tos >> 2,
// else the DSCP its dscp-prio rules map to its PFC priority; it is followed
// into the switch's dscp-map -> qos-group -> pause-cos / egress queue.
//
// Unknown is not a failure: an item whose inputs are not collected is not
// checked at all (no item, no WARN), so a device whose configuration is not
// collected has no RoCE check leaves; its absence is what says "not
// checked". A target with at least one item gets all six groups.

#include <cstdint>
#include <map>
#include <string>
#include <string_view>

#include "analytics/derived_writer.h"
#include "analytics/run_context.h"

namespace rdmagw::analytics {

// kGpu (GPUDirect readiness, gpu_checks.h) is written only for a target
// that has GPU items: a switch has no GPU to pass.
enum class CheckGroup { kLossless, kClassification, kCongestionControl, kFlowControl, kEts, kLive, kGpu };
inline constexpr CheckGroup kCheckGroups[] = {CheckGroup::kLossless,          CheckGroup::kClassification,
                                              CheckGroup::kCongestionControl, CheckGroup::kFlowControl,
                                              CheckGroup::kEts,               CheckGroup::kLive};
std::string_view checkGroupName(CheckGroup g);

// Exported as status-code: never renumber.
enum class CheckStatus : uint64_t { kPass = 0, kWarn = 1, kFail = 2 };
std::string_view checkStatusName(CheckStatus s);

// Items of one run, per target. An item is (group, check, port); the same
// item reached twice (two hosts behind one switch) counts once, at its
// worst, with every distinct finding text kept.
class CheckResults {
 public:
  void pass(const std::string& target, CheckGroup g, std::string_view check, const std::string& port);
  void warn(const std::string& target, CheckGroup g, std::string_view check, const std::string& port,
            const std::string& expected, const std::string& found);
  void fail(const std::string& target, CheckGroup g, std::string_view check, const std::string& port,
            const std::string& expected, const std::string& found);
  // PASS or `bad`, as `ok` says.
  void judge(bool ok, CheckStatus bad, const std::string& target, CheckGroup g, std::string_view check,
             const std::string& port, const std::string& expected, const std::string& found);

  // Every target's six groups and its findings (id "<group>/<check>/<port>").
  void write(DerivedWriter& out) const;

 private:
  struct Item {
    CheckGroup group;
    std::string check, port;
    CheckStatus status = CheckStatus::kPass;
    std::string expected, found;
  };
  void add(const std::string& target, CheckGroup g, std::string_view check, const std::string& port,
           CheckStatus s, const std::string& expected, const std::string& found);
  std::map<std::string, std::map<std::string, Item>> items_;  // target -> id -> item
};

// The configuration groups (1-5) from the RoCE configuration leaves.
void checkRoceConfig(const RunContext& ctx, CheckResults& results);
// The live items: PFC frames on a lossy priority (lossless), and the
// verdicts `derived` holds (this run's other signals).
void checkRoceLive(const RunContext& ctx, const DerivedWriter& derived, CheckResults& results);

// The switch ports' PFC watchdog as it runs against this run's pause-storm
// verdicts in `derived` (flow-control), per watched queue of a port whose
// link peer has a verdict on the queue's CoS:
//  - watchdog-shutdown-without-storm (WARN): the queue is Shutdown, or its
//    shutdown-events rose in the window, while the peer neither storms by
//    our verdict nor held the port paused for half the window (the
//    watchdog trips faster than our rules confirm a storm: half the window
//    is evidence enough that one is starting);
//  - watchdog-missed-storm (WARN): the watchdog runs on the port, our
//    verdict says the peer storms and held the port paused for at least
//    pause_storm_percent of the window, and the watchdog neither holds the
//    queue shut nor shut or restored it in the window.
void checkWatchdogStorms(const RunContext& ctx, const DerivedWriter& derived, CheckResults& results);

// Runs all three after the other signals have been derived into `out`.
void deriveRoceChecks(const RunContext& ctx, DerivedWriter& out);

}  // namespace rdmagw::analytics
