#pragma once
// Text helpers shared by the NX-OS CLI parsers: lines, tokens, counters,
// interface names, device error banners. Pure functions, no I/O.

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "models/status.h"

namespace rdmagw::southbound::nxos {

std::string_view trim(std::string_view s);
std::string toLower(std::string_view s);
bool startsWith(std::string_view s, std::string_view prefix);
bool iequals(std::string_view a, std::string_view b);

std::vector<std::string_view> splitLines(std::string_view text);
std::vector<std::string_view> splitWs(std::string_view line);
// Splits on '|' and trims each cell; a leading/trailing empty cell (the
// box border) is dropped.
std::vector<std::string_view> splitBars(std::string_view line);

// A line made only of '-', '=', '+' and blanks (table rules), or empty.
bool isRuleLine(std::string_view line);
// "switch# show ..." / "P1#": a CLI prompt, never data.
bool isPromptLine(std::string_view line);
// "% Invalid command at '^' marker." and friends; the bare "^" marker line
// counts too. Returns the banner text.
std::optional<std::string> deviceErrorLine(std::string_view line);

// A counter cell: "1234", "1,234,567" (thousands separators in groups of 3),
// an optional trailing ',' ("150," in "TxPPP: 150, RxPPP: 0").
//   NotFound        "--", "-", "N/A", "NA": the device has no value
//   InvalidArgument digits beyond 2^64-1 (overflow)
//   Corrupt         anything else (not a number: a misaligned column)
Result<uint64_t> parseCount(std::string_view token);
bool isNumberToken(std::string_view token);  // parseCount would not say Corrupt

// Long NX-OS form of an interface name, or nullopt when the token does not
// look like one. Eth1/1, eth1/1, e1/1 -> Ethernet1/1; Br-Eth1/1/2 and
// Br-Ethernet1/1/2 (UCS FI breakouts) -> Ethernet1/1/2 so every command
// names a breakout port the same; Po7 -> port-channel7; Veth9 -> Vethernet9;
// ii1/1/1, mgmt0, Vlan1, nve1 ... as printed.
std::optional<std::string> normalizeIfName(std::string_view token);

// NX-OS output whose line breaks were lost (pasted from a web page): lines
// longer than kCollapsedLineLength are cut again before table rules, box
// borders ("||", "|+", "+|"), known section labels and an interface name glued
// to a digit ("|0Ethernet1/52"). Normal output passes unchanged.
inline constexpr size_t kCollapsedLineLength = 250;
std::vector<std::string> decollapseLines(std::string_view text);

// The interface in a prompt line that runs `show queuing interface e1/51 ...`
// or `show interface e1/51 ...`; nullopt for lists, ranges or no interface.
std::optional<std::string> interfaceFromPrompt(std::string_view line);

// Where the JSON starts when the text is `| json` output: after blank lines,
// '#' comment lines and CLI prompt lines, the first character is '{'.
// Returns npos for text output.
size_t jsonStart(std::string_view text);

}  // namespace rdmagw::southbound::nxos
