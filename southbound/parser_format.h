#pragma once
// A named offline parser: device output text in, updates out. Every
// southbound's parsers are pure functions of this shape, so the live
// collectors and `rdmagw parse --format NAME FILE` run the same code.

#include <string_view>

#include "models/status.h"
#include "models/update.h"

namespace rdmagw::southbound {

struct ParserFormat {
  std::string_view name;  // "nxos-pfc", "esxi-nic-stats", "sysfs-dump"...
  std::string_view help;
  // Fills `out` with what it could parse and an error line for every part it
  // could not; returns non-ok only when nothing usable was found.
  Status (*parse)(std::string_view text, TimestampNs ts, PollBatch& out);
};

}  // namespace rdmagw::southbound
