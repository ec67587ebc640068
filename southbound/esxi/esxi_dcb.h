#pragma once
// `esxcli network nic dcb status get -n vmnicN`: the vmnic's DCBX mode and
// its PFC configuration, for the fabric's DCB consistency check. The layout
// (indented "Key: value" lines; "PFC Configuration: 0 0 0 1 0 0 0 0", one
// flag per priority 0..7) is reconstructed from VMware's esxcli reference
// and operators' notes, not from a capture (tests/fixtures/esxi/SOURCES.md).

#include <string_view>

#include "models/status.h"
#include "models/update.h"

namespace rdmagw::southbound::esxi {

// Emits /hypervisor/nics/nic[name=<nic>]/state/{pfc-enabled-priorities,dcbx-mode}.
// pfc-enabled-priorities is 0 when "PFC Enabled: false" (the vmnic honours
// no pause at all). kNotFound when esxcli answered with an error (a driver
// without DCB): the vmnic's DCB is unknown, not broken; kCorrupt when the
// PFC lines are there but do not parse.
Status parseEsxiDcbStatusFor(std::string_view nic, std::string_view text, TimestampNs ts, PollBatch& out);

}  // namespace rdmagw::southbound::esxi
