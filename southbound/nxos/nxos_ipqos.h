#pragma once
// NX-OS `show running-config ipqos` (the QoS part of the running
// configuration; the same statements as `show class-map|policy-map type
// qos|queuing|network-qos` print) into a switch's RoCE configuration:
//   class-map type qos [match-all|match-any] C     match dscp 26 | 24-31 | af31 ..., match cos N
//   class-map type network-qos|queuing C           match qos-group N
//   policy-map type qos P / class C                set qos-group N
//   policy-map type network-qos P / class ... C    pause [no-drop] [buffer-size B pause-threshold T
//                                                   resume-threshold R] pfc-cos LIST, mtu M
//   policy-map type queuing P / class ... C        bandwidth [remaining] percent N, priority [level N],
//                                                   random-detect minimum-threshold X U
//                                                   maximum-threshold Y U [drop-probability P]
//                                                   [weight W] [ecn] | random-detect threshold PROFILE [ecn],
//                                                   pause buffer-size B pause-threshold T resume-threshold R
//   system qos                                      service-policy type network-qos|queuing ...
//   interface X[-N][, Y]                             service-policy type qos|queuing input|output P,
//                                                   priority-flow-control mode on|off|auto,
//                                                   priority-flow-control watch-dog-interval on|off
//   priority-flow-control watch-dog-interval on|off (global)
//   congestion-control random-detect forward-nonecn
// Statements belong to the block opened before them; an unindented
// statement closes the block (real output is indented). Output whose line
// breaks were lost (a configuration pasted from a web page) is cut again
// before the statements' keywords; it carries no indentation, so there the
// keyword alone decides. Anything else (hardware ..., shape, queue-limit,
// comments) is skipped.

#include <string_view>

#include "models/roce_config.h"
#include "models/status.h"

namespace rdmagw::southbound::nxos {

// Fills `qos`; kUnavailable for a device error banner ("% Invalid
// command"); kCorrupt when no QoS statement is there at all;
// kInvalidArgument naming every statement with a bad value (the rest kept).
Status parseNxosIpqos(std::string_view text, rdmagw::roce::SwitchQos& qos);


}  // namespace rdmagw::southbound::nxos
