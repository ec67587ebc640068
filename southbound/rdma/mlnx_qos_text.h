#pragma once
// `mlnx_qos -i <netdev>` (NVIDIA MLNX_OFED / mstflint tool) text: one host
// port's trust state, DSCP->priority map, receive buffer sizes, PFC and
// buffer per priority, and per traffic class the TSA, bandwidth and the
// priorities it serves. What a host has when `dcb` is not the tool in use.
//
//   DCBX mode: OS controlled
//   Priority trust state: dscp
//   dscp2prio mapping:
//           prio:5 dscp:40,47,46,45,44,43,42,41,
//   Receive buffer size (bytes): 19872,220896,0,0,0,0,0,0,max_buffer_size=4151520
//   PFC configuration:
//           priority    0   1   2   3   4   5   6   7
//           enabled     0   0   0   0   0   1   0   0
//           buffer      0   0   0   0   0   1   0   0
//   tc: 5 ratelimit: unlimited, tsa: strict
//            priority:  5
//
// Output whose line breaks were lost (pasted from a web page) is cut again
// before the same labels first. Lines it does not know (Cable len, default
// priority, ratelimit values) are skipped.

#include <string_view>

#include "models/roce_config.h"
#include "models/status.h"

namespace rdmagw::southbound::rdma {

// Fills what parsed; kCorrupt when none of the labels is there (not
// mlnx_qos output); kInvalidArgument naming every bad value.
Status parseMlnxQos(std::string_view text, rdmagw::roce::HostPort& port);

}  // namespace rdmagw::southbound::rdma
