#pragma once
// Runs a host tool (dcb, mlnx_qos) for the local collector and returns its
// stdout. The collector's poll thread waits on it, so a tool that hangs (a
// driver stuck in a firmware command, an mlnx_qos waiting on a lock) or that
// prints without end must not hold the poll: the run has a deadline and an
// output bound, and a tool past either is killed with everything it started.

#include <chrono>
#include <cstddef>
#include <string>
#include <vector>

#include "models/status.h"

namespace rdmagw::southbound::rdma {

struct LocalToolLimits {
  // dcb answers in milliseconds and mlnx_qos (Python) in about a second; ten
  // seconds is a hung tool, not a slow one.
  std::chrono::milliseconds deadline{10000};
  // The largest `mlnx_qos -i` or `dcb -j ... show` output is a few KiB.
  size_t max_output = 1 << 20;
};

// Runs args[0] (PATH lookup, no shell) with stdin and stderr on /dev/null,
// in its own process group. Its stdout when it exits 0.
//   NotFound      the program is missing or exits non-zero (the netdev has
//                 no such support): the caller leaves that part unknown.
//   Unavailable   past the deadline, or killed by a signal.
//   Corrupt       more output than max_output.
// `what` names the run in the NotFound message.
Result<std::string> runLocalTool(std::vector<std::string> args, const std::string& what,
                                 const LocalToolLimits& limits = {});

}  // namespace rdmagw::southbound::rdma
