#pragma once
// gRPC's own log lines ("E1125 16:32:21.781339844 23888 file.cc:1501] ...",
// straight to stderr) routed through the gateway's log: its format, its
// level, and repeats held back (models/log_repeat_filter.h), so a switch
// whose TLS handshake fails on every reconnect costs one line per `every`.
//
// Levels: gRPC's ERROR becomes WARN (gRPC says ERROR for the trouble of one
// connection, which the gateway reports in its own terms too), INFO stays
// INFO, DEBUG stays DEBUG. Which lines gRPC makes at all follows the
// gateway's level: debug lets all through, any other level only ERROR
// (gRPC's own default) -- unless GRPC_VERBOSITY is set, which then decides
// as gRPC documents it.
//
// gRPC calls the bridge from any of its threads, also while the process
// exits: its state is never destroyed.

#include <chrono>

#include "models/log_repeat_filter.h"

namespace rdmagw::gateway {

// Idempotent; the last call's `every` wins (counts start over).
void installGrpcLogBridge(LogRepeatFilter::Clock::duration every = LogRepeatFilter::kDefaultEvery);
// Back to gRPC's own log.
void removeGrpcLogBridge();

}  // namespace rdmagw::gateway
