#pragma once
// The path a packet with a given DSCP takes through one device, derived from
// that device's RoCE configuration (models/roce_config.h): DSCP -> priority
// -> (switch) qos-group -> egress queue, and whether it is lossless there.
// The checks compare these hops along a host-switch-host path instead of
// assuming a queue named "...3" serves priority 3.
//
// Nothing is guessed: a field the configuration does not decide stays empty
// (a host trusting PCP says nothing about a DSCP's priority; a switch with
// no network-qos policy attached pauses nothing).

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "models/roce_config.h"

namespace rdmagw::roce {

struct RoceHop {
  uint32_t dscp = 0;
  std::optional<uint32_t> priority;       // host: from the DSCP map; switch: the CoS its class pauses
  std::optional<uint32_t> qos_group;      // switch
  std::optional<uint32_t> traffic_class;  // host ETS traffic class
  std::string classified_by;              // switch: the type-qos class that matched ("class-default")
  std::string egress_queue;               // switch: the type-queuing output class
  std::optional<Tsa> tsa;                 // host: the TC's TSA; switch: strict with a priority level
  std::optional<uint32_t> bandwidth_percent;  // host ETS share; switch `bandwidth remaining percent`
  std::optional<uint32_t> priority_level;     // switch: strict priority level (1 = highest)
  bool lossless = false;                  // the priority (host) or the qos-group's CoS (switch) is paused
  std::optional<uint32_t> mtu;            // switch: the network-qos class MTU
  std::optional<Wred> wred;               // switch: the egress queue's WRED/ECN
  std::optional<PauseThresholds> ingress_pause;     // switch: no-drop ingress thresholds
  std::optional<uint64_t> receive_buffer_bytes;     // host: the priority's receive buffer
  std::optional<bool> dcqcn_np;           // host: notification point on the priority
  std::optional<bool> dcqcn_rp;           // host: reaction point on the priority
};

struct RocePath {
  std::optional<RoceHop> roce;  // the RoCE data DSCP
  std::optional<RoceHop> cnp;   // the CNP DSCP
  uint8_t paused_priorities = 0;
};

// A host port: where `dscp` goes. Priority only under DSCP trust with a rule
// for that DSCP.
RoceHop hostHop(const HostPort& port, uint32_t dscp);

// A host port's own path: the RoCE DSCP is `roce_dscp` or else the first RDMA
// CM default_roce_tos >> 2; the CNP DSCP is the port's cnp_dscp, tagged with
// cnp_802p_prio when the NIC sets one.
RocePath hostRocePath(const DeviceRoceConfig& device, const std::string& port,
                      std::optional<uint32_t> roce_dscp = std::nullopt);

// A switch: where `dscp` goes when it enters and leaves `interface` (long
// name, "Ethernet1/51"), with that interface's policies, else the `system
// qos` ones. interface "" asks for the device-wide view: the system's
// policies, else the one every interface that attaches such a policy
// attaches.
RoceHop switchHop(const SwitchQos& qos, uint32_t dscp, const std::string& interface = "");

// The CoS values the switch pauses on `interface` (the system network-qos
// policy's pause pfc-cos), 0 when its `priority-flow-control mode` is off.
uint8_t switchPausedPriorities(const SwitchQos& qos, const std::string& interface = "");

RocePath switchRocePath(const SwitchQos& qos, uint32_t roce_dscp, std::optional<uint32_t> cnp_dscp,
                        const std::string& interface = "");

// The DSCPs a switch classifies into a paused qos-group: what it treats as
// RoCE, in ascending order.
std::vector<uint32_t> switchLosslessDscps(const SwitchQos& qos, const std::string& interface = "");

// The qos-group an NX-OS system class name serves: c-8q-nq5, c-nq5,
// c-out-8q-q5, c-out-q5, c-in-q5 -> 5; ...-default -> 0; else nullopt.
std::optional<uint32_t> nxosClassQosGroup(const std::string& class_name);

}  // namespace rdmagw::roce
