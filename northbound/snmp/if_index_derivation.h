#pragma once
// ifIndex values computed from the interface name alone, so that every
// member of a fleet gives a target's interfaces the same numbers without
// talking to the others: when a target moves to another member (its owner
// died), an NMS keyed on ifIndex sees no renumbering.
//
// Why derived rather than shared assignments (in etcd): the numbers must
// stay the same exactly when a member dies, which is when a shared store is
// least to be relied on (etcd unreachable from the survivor, an assignment
// written by the dead member not yet replicated); a function of the name
// needs no store, no migration and no coordination, and the northbound
// keeps knowing nothing of the fleet.
//
// Two parts of 1..2^31-1 that never overlap:
//  - NX-OS names of the canonical shape get the number NX-OS 9000 itself
//    gives them (an NMS sees the gateway's and the switch's own ifIndex
//    agree): Ethernet<slot>/<port> 0x1a000000 + (slot-1)<<19 + (port-1)<<9,
//    port-channel<n> 0x16000000 + n-1, Vlan<n> 0x09010000 + n,
//    loopback<n> 0x14000000 + n, mgmt<n> 0x05000000 + n. All below
//    kHashedFirst. Breakout ports (Ethernet1/49/1) and every other name are
//    hashed.
//  - Any other name: FNV-1a 64 of its bytes, folded into
//    kHashedFirst..kMaxIfIndex. A name whose number another name of the
//    context already holds takes the next number up (wrapping within the
//    hashed part): see IfIndexRegistry for the order names are settled in.

#include <cstdint>
#include <optional>
#include <string_view>

namespace rdmagw::northbound::snmp {

// InterfaceIndex (IF-MIB) is 1..2^31-1.
inline constexpr uint32_t kMaxIfIndex = 2147483647;
// The first number a hashed name may get; every structural number is below.
inline constexpr uint32_t kHashedFirst = 0x20000000;

// The number NX-OS gives `name`, when it has one of the shapes above.
std::optional<uint32_t> nxosIfIndex(std::string_view name);
// A name's own number: its NX-OS one, else its hash (its "home").
uint32_t homeIfIndex(std::string_view name);
// Where a hashed name goes when `taken` is held: the next number up,
// wrapping from kMaxIfIndex to kHashedFirst.
uint32_t nextHashedIfIndex(uint32_t taken);

}  // namespace rdmagw::northbound::snmp
