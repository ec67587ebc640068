#pragma once
// Writes a Fabric as each device would show it: for RDMA hosts a Linux
// sysfs-like tree under <dir>/<host>/sys/class/infiniband/ and `ethtool -S`
// text under <dir>/<host>/ethtool/<netdev>.txt, in the real kernel layout so
// the RDMA collector reads it exactly as it reads a live host; for leaves
// and ESXi hosts the CLI outputs under <dir>/<device>/cli/<command slug>
// (sim/cli_catalog.h) plus an `os` marker file ("nxos", "esxi") that the
// device shell dispatches on. Only RDMA hosts have a sys/class/infiniband.
//
// Every file is replaced atomically (<name>.tmp, then rename), so a reader
// polling while the simulator writes never sees half a file.

#include <set>
#include <string>
#include <unordered_map>
#include <unordered_set>

#include "models/status.h"
#include "sim/cli_catalog.h"
#include "sim/fabric.h"

namespace rdmagw::sim {

// Writes every file of the tree once.
Status writeTree(const Fabric& fabric, const std::string& dir);

// The smallest fabric a gateway can run on: one RDMA host with the default
// devices, no switch, no ESXi, one tick in. Writes its tree into `dir` and
// returns the host's name (also its directory below `dir`).
Result<std::string> writeOneHostTree(const std::string& dir);

// Rewrites a tree tick after tick, touching only files whose content changed
// since its previous write: identity files and the many counters that stay 0
// are written once. File creation costs about a millisecond on small VMs,
// and a full rewrite of a few hosts would otherwise eat most of a 1 s tick.
// Assumes nothing else modifies the tree between calls.
class TreeWriter {
 public:
  explicit TreeWriter(std::string dir) : dir_(std::move(dir)) {}
  Status write(const Fabric& fabric);

  // A hidden RDMA device has no sys/class/infiniband/<device> directory
  // from the next write() on, as when its driver is unbound; shown again,
  // the next write() recreates every file of it. The netdev and its ethtool
  // text stay. Names that match no device are kept and ignored.
  void setDeviceHidden(const std::string& host, const std::string& device, bool hidden);

 private:
  // Removes a hidden device's directory and forgets what was written there.
  Status removeDevice(const std::string& ib_dir);

  Status writeDevice(const Fabric& fabric, const Device& dev, const std::string& host_dir);
  Status writeCli(const std::string& device_dir, const char* os,
                  const std::vector<RenderedCommand>& commands);
  Status writeCounters(const std::string& dir, const PortCounters& port, bool hw);
  // The netdev's RoCE configuration: sys/class/net/<if>/{mtu,ecn/roce_np/
  // {enable/<p>,cnp_dscp,cnp_802p_prio},ecn/roce_rp/enable/<p>}, the RDMA CM
  // defaults sys/kernel/config/rdma_cm/<dev>/ports/1/default_roce_{tos,mode}
  // and ethtool/<if>.dcb-{pfc,app,ets,buffer}.json (what `dcb -j
  // {pfc,app,ets,buffer} show dev <if>` prints), or on a host with
  // mlnx_qos instead ethtool/<if>.mlnx_qos.txt (`mlnx_qos -i <if>`).
  Status writeNetdevDcb(const Device& dev, const std::string& host_dir, const RoceQosPlan& plan, double link_gbps,
                        bool mlnx_qos);
  Status makeDirs(const std::string& path);
  Status writeFile(const std::string& path, std::string content);

  std::string dir_;
  std::set<std::pair<std::string, std::string>> hidden_;  // (host, device)
  std::set<std::string> removed_;                          // hidden devices' dirs already removed
  std::unordered_set<std::string> dirs_;                  // created so far
  std::unordered_map<std::string, std::string> written_;  // path -> content on disk
};

// What `ethtool -S <netdev>` prints on mlx5 for the device's counters.
std::string ethtoolText(const Device& device, int roce_priority);
// What iproute2 `dcb -j pfc show dev <netdev>` prints for the device: PFC on
// the RoCE priority alone, off when its NIC does no PFC (pfc-mismatch).
std::string dcbPfcJson(const Device& device, int roce_priority);
// What `dcb -j app show dev <netdev>` prints: RoCE (DSCP 26, AF31) on the
// RoCE priority and CNPs (DSCP 48, CS6) on the CNP priority; {} in
// trust-mismatch (trust pcp). `dcb -j ets|buffer show`: sim/roce_qos.h.
std::string dcbAppJson(const Device& device, const RoceQosPlan& plan);

}  // namespace rdmagw::sim
