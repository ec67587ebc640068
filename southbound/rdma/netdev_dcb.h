#pragma once
// A RoCE netdev's DCB configuration, for the fabric's DCB consistency check
// (analytics/dcb_consistency.h):
//   MTU                 /sys/class/net/<if>/mtu
// and its link, for IF-MIB's rows (ifOperStatus, ifAdminStatus, ifSpeed):
//   oper-status         /sys/class/net/<if>/operstate (up -> UP, ...)
//   admin-status        /sys/class/net/<if>/flags, IFF_UP
//   speed, port-speed   /sys/class/net/<if>/speed (Mb/s; -1 or EINVAL while
//                       down: absent), as bits/s and OpenConfig's identity
//   DCQCN NP / RP knobs /sys/class/net/<if>/ecn/roce_{np,rp}/enable/<0..7> (mlx5)
//   PFC per priority    `dcb -j pfc show dev <if>` (iproute2), from the
//                       EthtoolSource: run on a live host, a file in text
//                       mode, a section of the remote dump.
//   trust mode          `dcb -j app show dev <if>`, the same three ways:
//                       dscp when the APP table has dscp-prio rules (the
//                       NIC classifies RoCE by DSCP), else pcp (802.1p).
//   DSCP map, ETS,      `dcb -j app|ets|buffer show dev <if>`; on a host
//   receive buffers     where dcb shows nothing of the netdev (not
//                       installed, or an iproute2 without these objects),
//                       NVIDIA's `mlnx_qos -i <if>` instead, trust and PFC
//                       included: the same leaves, never both for a port.
// What a host does not have (no ecn/ directory: not mlx5; dcb missing or
// the driver without DCBNL) is left out quietly: the leaf is absent and the
// check says nothing about that host, it never guesses. What is there but
// unreadable or malformed is an error line, and the rest is kept.

#include <cstdint>
#include <string>
#include <string_view>

#include "models/status.h"
#include "models/update.h"
#include "southbound/rdma/ethtool_source.h"
#include "southbound/rdma/sysfs_reader.h"

namespace rdmagw::southbound::rdma {

// The prio_pfc array of `dcb -j pfc show dev X` ([false,false,false,true,...];
// an object {"0":false,...} is accepted too) as a bitmap, bit N = priority N.
Result<uint64_t> parseDcbPfcJson(std::string_view text);

// `dcb -j app show dev X`: "dscp" when its dscp_prio array has a rule
// ({"dscp_prio":[["AF31",3]]}), else "pcp" (`{}`: no APP rules).
Result<std::string> parseDcbAppTrust(std::string_view text);

// Runs `dcb -j <object> show dev <netdev>` (PATH lookup, no shell). NotFound
// when dcb is missing or the netdev has no DCB support; the output otherwise;
// Unavailable when it hangs past local_tool.h's deadline.
Result<std::string> runDcbShow(const std::string& object, const std::string& netdev);

// Runs `mlnx_qos -i <netdev>` (MLNX_OFED; PATH lookup, no shell). NotFound
// when mlnx_qos is missing or fails for the netdev; its text otherwise;
// Unavailable when it hangs past local_tool.h's deadline.
Result<std::string> runMlnxQos(const std::string& netdev);

// Appends the MTU, the DCQCN knob bitmaps, the PFC bitmap and the trust mode
// of `netdev` (source may be null: no PFC, no trust), stamped ts.
void appendNetdevDcb(SysfsReader& reader, EthtoolSource* source, const std::string& netdev,
                     TimestampNs ts, PollBatch& batch);

// `rdmagw parse --format dcb-pfc-json`: the bitmap of a netdev named by a
// "# dcb -j pfc show dev <if>" line (else "unknown").
Status parseDcbPfcShow(std::string_view text, TimestampNs ts, PollBatch& out);

// `rdmagw parse --format mlnx-qos`: the host port leaves of `mlnx_qos -i`
// text, of the netdev its command line names ("unknown" without one).
// kCorrupt when it is not mlnx_qos output; bad values are error lines.
Status parseMlnxQosShow(std::string_view text, TimestampNs ts, PollBatch& out);

// `rdmagw parse --format dcb-app-json`: the trust mode of a netdev named by a
// "# dcb -j app show dev <if>" line (else "unknown").
Status parseDcbAppShow(std::string_view text, TimestampNs ts, PollBatch& out);

}  // namespace rdmagw::southbound::rdma
