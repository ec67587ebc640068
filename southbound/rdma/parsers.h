#pragma once
// Offline parsers for `rdmagw parse --format FORMAT FILE`. Each turns a saved
// device output into the same updates the live collector produces, through
// the same code (no second parser to drift).

#include <span>
#include <string_view>

#include "models/status.h"
#include "models/update.h"
#include "models/value.h"

namespace rdmagw::southbound::rdma {

struct ParserFormat {
  std::string_view name;
  std::string_view help;
  Status (*parse)(std::string_view text, TimestampNs ts, PollBatch& out);
};

// "ethtool-s", "sysfs-dump".
std::span<const ParserFormat> rdmaParserFormats();

// The two formats, callable directly.
Status parseEthtoolS(std::string_view text, TimestampNs ts, PollBatch& out);
Status parseSysfsDump(std::string_view text, TimestampNs ts, PollBatch& out);

}  // namespace rdmagw::southbound::rdma
