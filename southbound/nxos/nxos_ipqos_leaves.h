#pragma once
// NX-OS `show running-config ipqos` as a CLI command's parser: the QoS
// configuration (nxos_ipqos.h) written as the switch's device-wide RoCE
// leaves (models/roce_leaves.h).

#include <string_view>

#include "models/status.h"
#include "models/update.h"

namespace rdmagw::southbound::nxos {

// kUnavailable for a device error banner and kCorrupt when there is no QoS
// statement (the command failed: nothing written). A statement with a bad
// value is an error line; everything else is written.
Status parseNxosIpqosLeaves(std::string_view text, TimestampNs ts, PollBatch& out);

}  // namespace rdmagw::southbound::nxos
