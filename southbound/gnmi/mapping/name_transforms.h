#pragma once
// Label values the SSH parsers use, computed from the names NX-OS gNMI
// sends, so a port/queue/priority keeps one series across transports.

#include <string>
#include <string_view>

namespace rdmagw::southbound::gnmi {

// Appends the long NX-OS interface name, the form the SSH parsers emit
// (southbound/nxos/nxos_text.h normalizeIfName): eth1/1, Eth1/1,
// e1/1 -> Ethernet1/1; breakouts eth1/1/2 -> Ethernet1/1/2; po7 and the
// native model's pc7 -> port-channel7; veth9 -> Vethernet9; anything that
// does not look like an interface name (vlan3745, mgmt0, ...) as sent.
void appendIfName(std::string_view in, std::string& out);
std::string ifName(std::string_view in);

// qos-group number of an NX-OS queuing class or OpenConfig queue name:
// c-out-8q-q3, c-out-q3, c-8q-nq3 -> "3"; *q-default, class-default -> "0";
// "3" -> "3". Returns false for names that carry no group (user classes).
bool qosGroupOf(std::string_view queue_name, std::string_view& digits_out);

// PFC priority of a queuing class. Assumption (default NX-OS RoCE QoS,
// network-qos and queuing policies from the RoCE configuration guides):
// qos-group N carries CoS N, so class q3 pauses priority 3; q-default is
// qos-group 0 / CoS 0. Only 0..7 are priorities.
bool priorityOf(std::string_view queue_name, std::string_view& digit_out);

}  // namespace rdmagw::southbound::gnmi
