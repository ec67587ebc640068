#pragma once
// Remote Linux RDMA hosts in one SSH round trip: a POSIX sh command that
// prints the host's /sys/class/infiniband as a sysfs dump plus `ethtool -S`
// of every netdev the ports map to, and the parser that feeds that text to
// THE SAME code as the local collector (MemorySysfsReader::fromDump ->
// IbClass -> ib_updates, and parseEthtoolText -> ethtool_mapping, driven by
// RdmaCollector::poll itself). No second parser to drift.
//
// Output of the command ("rdma-remote-dump" format):
//
//   ### rdmagw-remote-dump 1 ethtool=1
//   /sys/class/infiniband/
//   /sys/class/infiniband/mlx5_0/
//   /sys/class/infiniband/mlx5_0/fw_ver: 22.36.1010
//   /sys/class/infiniband/mlx5_0/ports/1/counters/symbol_error: <read error>
//   /sys/kernel/config/rdma_cm/mlx5_0/ports/1/default_roce_tos: 106   (configfs, when made)
//   /sys/class/net/ens1f0np0/ecn/roce_np/cnp_dscp: 48
//   ...
//   ### ethtool -S ens1f0np0
//   NIC statistics:
//        rx_prio3_pause: 12
//   ### ethtool-failed ib0 94          (only when ethtool exits non-zero)
//   ### lldpctl                        (only when lldpWanted() and lldpctl is there)
//   {"lldp": [...]}                    (lldpctl -f json0, lldpctl_json.h)
//   ### dcb -j pfc show dev ens1f0np0  (iproute2 dcb, with ethtool; then app, ets, buffer)
//   {"pfc_cap":8,...,"prio_pfc":[false,false,false,true,...]}
//   ### dcb-failed ens1f0np0 127       (dcb missing or no DCBNL: PFC unknown)
//   ### rdmagw-end
//
// A file that cannot be read prints `path: <read error>`; the parser turns it
// into a read failure of that file (MemorySysfsReader::failRead), so IbClass
// reports it exactly as a failed local read (one error line, rest kept; an
// empty GID slot stays quiet). Excluded devices are filtered in the shell
// with `case` patterns before any of their files is opened (node_exporter
// #3265). Names read from the host (devices, ports, netdevs) are checked
// against a safe character set before use; others are skipped with a
// `### rdmagw-skipped` line that becomes an error line.

#include <string>
#include <string_view>

#include "models/status.h"
#include "models/update.h"
#include "models/value.h"
#include "southbound/rdma/rdma_config.h"

namespace rdmagw::southbound::rdma {

// One line: `sh -c '<script>'`, safe to pass to any login shell over SSH.
// Reads config.sysfs_root (default /sys; tests point it at a temp tree) but
// always prints paths as /sys/...; applies include/exclude_devices; skips
// ethtool when config.ethtool is kNone. Runs no temp files and needs only
// sh builtins plus `ethtool`.
std::string remoteDumpCommand(const RdmaConfig& config);

// Parses the command's output into the local collector's updates, all
// stamped ts. Non-ok only when the text is not such a dump or the host has
// no class/infiniband (kUnavailable, as the local collector).
Status parseRemoteDump(std::string_view text, TimestampNs ts, PollBatch& out);

// Exposed for tests: a POSIX single-quoted word; an fnmatch(3) glob as a
// `case` pattern with the same meaning (literal characters escaped).
std::string shellQuote(std::string_view s);
std::string shellCasePattern(std::string_view glob);

}  // namespace rdmagw::southbound::rdma
