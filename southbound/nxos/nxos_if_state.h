#pragma once
// One interface's state as `show interface` prints it (text or `| json`):
// oper and admin state, description, MTU, bandwidth and speed. Both forms
// gather it here and emit it by one rule, so the two agree leaf for leaf.
//
// Leaves, per interface X:
//   /interfaces/interface[name=X]/state/{oper-status,admin-status,description,mtu,speed}
//   /interfaces/interface[name=X]/ethernet/state/port-speed   (Ethernet ports, mgmt, ii)
// Speed: a physical Ethernet port's is the rate it runs at ("full-duplex,
// 100 Gb/s", eth_speed), SPEED_UNKNOWN and no number while it has none
// ("auto-speed": down); without a speed word, and for every other kind
// (port-channel, Vlan, loopback, sub-interface), it is the BW NX-OS prints
// (Kbit), which it also serves as IF-MIB ifSpeed: a port-channel's is the sum
// of its members, where the speed word names one member's rate.

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "southbound/nxos/nxos_emit.h"

namespace rdmagw::southbound::nxos {

struct NxosIfState {
  std::optional<std::string> oper;    // the device's word: up, down
  std::optional<std::string> admin;   // up, down
  std::optional<std::string> description;
  std::optional<uint64_t> mtu;
  std::optional<uint64_t> bw_kbit;
  std::optional<std::string> speed;   // "100 Gb/s", "auto-speed"

  bool empty() const { return !oper && !admin && !description && !mtu && !bw_kbit && !speed; }
};

// Ethernet1/1, mgmt0, ii1/1/1: a port with a line rate of its own (not a
// sub-interface, aggregate or logical interface).
bool isPhysicalEthernetPort(std::string_view ifname);

// Emits what `s` holds for `ifname`; a speed word that is not a speed is
// an error line (the rest stays).
void emitIfState(const std::string& ifname, const NxosIfState& s, Emitter& em);

}  // namespace rdmagw::southbound::nxos
