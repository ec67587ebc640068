#pragma once
// Offline parsers for `rdmagw parse --format FORMAT FILE`. Each turns a saved
// device output into the same updates the live collector produces, through
// the same code (no second parser to drift).

#include <span>
#include <string_view>

#include "models/status.h"
#include "models/update.h"
#include "models/value.h"
#include "southbound/parser_format.h"

namespace rdmagw::southbound::rdma {

using southbound::ParserFormat;

// "ethtool-s", "sysfs-dump".
std::span<const ParserFormat> rdmaParserFormats();

// The two formats, callable directly.
Status parseEthtoolS(std::string_view text, TimestampNs ts, PollBatch& out);
Status parseSysfsDump(std::string_view text, TimestampNs ts, PollBatch& out);

// "dcb-show" (iproute2 text) and "dcb-json" (`dcb -j` documents behind their
// '# dcb -j <object> show dev <netdev>' lines): the host port leaves
// (models/roce_leaves.h) of the netdev(s) they name.
Status parseDcbShowText(std::string_view text, TimestampNs ts, PollBatch& out);
Status parseDcbShowJson(std::string_view text, TimestampNs ts, PollBatch& out);

}  // namespace rdmagw::southbound::rdma
