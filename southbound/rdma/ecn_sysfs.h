#pragma once
// The mlx5 DCQCN knobs and the RDMA CM defaults, read from a sysfs tree
// through SysfsReader (southbound/rdma/sysfs_reader.h: the live /sys, a test
// tree, or a remote host's dump):
//   class/net/<if>/ecn/roce_np/enable/<0..7>   notification point per priority (0/1)
//   class/net/<if>/ecn/roce_rp/enable/<0..7>   reaction point per priority (0/1)
//   class/net/<if>/ecn/roce_np/cnp_dscp        DSCP of the CNPs this NIC sends
//   class/net/<if>/ecn/roce_np/cnp_802p_prio   their 802.1p priority
//   kernel/config/rdma_cm/<dev>/ports/<n>/default_roce_tos   ToS of RDMA CM QPs
//   kernel/config/rdma_cm/<dev>/ports/<n>/default_roce_mode  "RoCE v2", "IB/RoCE v1"
// configfs has an rdma_cm/<dev> directory only after an administrator made
// it (mkdir); without it the kernel's defaults apply (ToS 0, RoCE v2) and
// nothing is reported, never guessed.

#include <string>
#include <vector>

#include "models/roce_config.h"
#include "models/status.h"
#include "southbound/rdma/sysfs_reader.h"

namespace rdmagw::southbound::rdma {

// Fills port.dcqcn. kNotFound when the netdev has no ecn/ directory (not
// mlx5); kInvalidArgument naming every file that could not be read or holds
// a bad value (the other knobs are kept). A priority directory missing one
// of its 8 files leaves that bitmap unknown.
Status readEcnKnobs(rdma::SysfsReader& reader, const std::string& netdev, rdmagw::roce::HostPort& port);

// Appends one RdmaCmPort per kernel/config/rdma_cm/<dev>/ports/<n>.
// kNotFound when there is no rdma_cm directory; kInvalidArgument naming
// every unreadable or bad file.
Status readRdmaCmDefaults(rdma::SysfsReader& reader, std::vector<rdmagw::roce::RdmaCmPort>& out);

}  // namespace rdmagw::southbound::rdma
