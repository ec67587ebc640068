#pragma once
// Small pure helpers shared by the ESXi parsers: line splitting, strict
// numbers, NIC names and the /hypervisor/nics path layout.

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "models/status.h"

namespace rdmagw::southbound::esxi {

std::string_view esxiTrim(std::string_view s);

struct EsxiLine {
  size_t number = 0;       // 1-based
  std::string_view text;   // without the line break ('\r' stripped)
  bool terminated = true;  // false for a last line with no '\n' (output cut off?)
};
std::vector<EsxiLine> esxiLines(std::string_view text);

// Strict unsigned decimal: digits only (surrounding blanks allowed), no sign,
// no thousands separators, no fraction, fits in 64 bits. The message says
// which of these failed.
Result<uint64_t> esxiParseUnsigned(std::string_view text);

// vmnic names and other vmkernel device names: [A-Za-z0-9_.-]{1,64}.
bool esxiValidNicName(std::string_view name);

// The NIC of a "/net/pNics/<nic>/" path in the text, preferring a line that
// runs vsish ("# vsish -pe get /net/pNics/vmnic4/stats"); empty if none.
std::string esxiNicFromVsishPath(std::string_view text);

// An esxcli/vsish error line ("Error: Unknown command or namespace ...",
// "VSISHCmdGetInt():Get failed: Failure"); empty when the text has none.
std::string esxiErrorLine(std::string_view text);

// /hypervisor/nics/nic[name=<nic>]/state/<leaf>; leaf may hold '/'.
std::string esxiNicStatePath(std::string_view nic, std::string_view leaf);
// /hypervisor/nics/nic[name=<nic>]/priorities/priority[id=<prio>]/state/counters/<leaf>
std::string esxiPriorityPath(std::string_view nic, int priority, std::string_view leaf);

// Driver-private stat name -> one path element: lower case, camelCase and
// every run of other characters turned into single '-', at most 96 chars.
// "rxPauseCtrlPhy" -> "rx-pause-ctrl-phy", "PFC TC[0]" -> "pfc-tc-0".
std::string esxiSanitizeName(std::string_view name);

// Lower case with '_', '-', ' ' removed: "rx_prio3_pause" and "rxPrio3Pause"
// both give "rxprio3pause" (the key of the name tables).
std::string esxiFoldName(std::string_view name);

}  // namespace rdmagw::southbound::esxi
