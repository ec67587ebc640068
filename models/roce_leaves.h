#pragma once
// Writes a device's RoCE configuration (models/roce_config.h) as store
// leaves, the ones `rdmagw check roce` reads back:
//   host NIC port   /interfaces/interface[name]/ethernet/...
//                     dcb/state/trust, pfc/state/enabled-priorities,
//                     dcqcn/state/{np,rp}-enabled-priorities, cnp-dscp, cnp-802p-priority,
//                     dcb/dscp-priorities/dscp-priority[dscp]/state/priority,
//                     dcb/priorities/priority[id]/state/{traffic-class,receive-buffer-bytes},
//                     dcb/traffic-classes/traffic-class[id]/state/{tsa,bandwidth-percent}
//   RDMA CM         /rdma/devices/device[name]/ports/port[port-num]/state/default-roce-{tos,mode}
//   switch          /qos/dscp-map/dscp[value]/state/qos-group,
//                   /qos/qos-groups/qos-group[id]/state/..., /qos/pfc-watchdog/state/interval,
//                   /interfaces/interface[name]/ethernet/pfc/state/watchdog-interval
// Only what the configuration says is written: an unknown field is an
// absent leaf, never a default. The tables a reading holds whole are named
// as replaced subtrees (PollBatch::replaced): their rows the device no
// longer has are deleted when the batch is applied.

#include <vector>

#include "models/roce_config.h"
#include "models/update.h"

namespace rdmagw::roce {

// Every field of `port` that is set, under the port's name.
void appendHostPortLeaves(const HostPort& port, TimestampNs ts, PollBatch& out);

void appendRdmaCmLeaves(const std::vector<RdmaCmPort>& ports, TimestampNs ts, PollBatch& out);

// The switch's device-wide view: one dscp-map row per DSCP once a type-qos
// policy is known (class-default's as qos-group 0), one qos-group row per group 0..7 its
// policies say something about, the global and per-interface watchdog.
// The per-port PFC mode is not written here (the PFC counters' command
// already gives it).
void appendSwitchQosLeaves(const SwitchQos& qos, TimestampNs ts, PollBatch& out);

// A WRED threshold in bytes: bytes as is, kbytes x 1024, mbytes x 1048576;
// packets or an unknown unit: nothing (a packet count is not a size).
std::optional<uint64_t> wredThresholdBytes(uint64_t value, const std::string& unit);

}  // namespace rdmagw::roce
