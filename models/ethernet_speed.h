#pragma once
// Link speed in the two forms the model keeps from one reading: OpenConfig's
// ETHERNET_SPEED identity (openconfig-if-ethernet, stored bare: "SPEED_100GB")
// for ethernet/state/port-speed and negotiated-port-speed, and a number in
// bits per second for state/speed (rdmagw-interfaces), which IF-MIB
// ifSpeed/ifHighSpeed and Prometheus read. Every collector converts here, so
// the two never disagree.

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace rdmagw {

inline constexpr std::string_view kSpeedUnknown = "SPEED_UNKNOWN";

// "openconfig-if-ethernet:SPEED_100GB", "oc-eth:SPEED_100GB" -> "SPEED_100GB".
std::string_view bareSpeedIdentity(std::string_view identity);

// Bits per second of an ETHERNET_SPEED identity (module prefix allowed);
// nothing for SPEED_UNKNOWN and for names OpenConfig does not define.
std::optional<uint64_t> ethernetSpeedBps(std::string_view identity);

// The identity naming exactly `bps`; SPEED_UNKNOWN for a rate OpenConfig has
// no identity for (56 Gb/s, 0).
std::string_view ethernetSpeedIdentity(uint64_t bps);

// Is `identity` (module prefix allowed) one of OpenConfig's ETHERNET_SPEED
// identities, SPEED_UNKNOWN included?
bool isEthernetSpeedIdentity(std::string_view identity);

// A speed as devices print it: "100 Gb/s", "25Gb/s", "1000 Mb/s", "10 Mbps",
// "100G", "auto-speed" (nothing), in bits per second. Nothing for text that
// is not a speed.
std::optional<uint64_t> parseSpeedText(std::string_view text);

// Model paths of the two forms, for interface `ifname`.
std::string interfaceSpeedPath(const std::string& ifname);      // .../state/speed
std::string portSpeedPath(const std::string& ifname);           // .../ethernet/state/port-speed
std::string negotiatedPortSpeedPath(const std::string& ifname); // .../ethernet/state/negotiated-port-speed

}  // namespace rdmagw
