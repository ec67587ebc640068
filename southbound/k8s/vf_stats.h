#pragma once
// Per-VF traffic statistics as the PF's driver reports them to the host
// (rtnetlink RTM_GETLINK with RTEXT_FILTER_VF): IFLA_VFINFO_LIST ->
// IFLA_VF_INFO -> IFLA_VF_MAC (the VF number) and IFLA_VF_STATS. Read from
// the host's netns, so a VF handed to a pod is counted even when the pod's
// netns cannot be entered.
//
// The parser is pure (bytes in) and never reads past what it is given; the
// reader owns one NETLINK_ROUTE socket and forks nothing.

#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "models/status.h"
#include "southbound/k8s/sriov_sysfs.h"

namespace rdmagw::southbound::k8s {

// One VF's IFLA_VF_STATS_*; a counter the kernel did not send (older
// kernels lack the drop counters) stays empty rather than 0.
struct VfStats {
  uint32_t vf = 0;         // ifla_vf_mac.vf
  bool has_stats = false;  // IFLA_VF_STATS was present
  std::optional<uint64_t> rx_packets, tx_packets, rx_bytes, tx_bytes;
  std::optional<uint64_t> broadcast, multicast, rx_dropped, tx_dropped;
  bool operator==(const VfStats&) const = default;
};

// What one RTM_NEWLINK says of a netdev's VFs.
struct LinkVfStats {
  int32_t ifindex = 0;
  std::string ifname;              // IFLA_IFNAME; empty when absent
  std::optional<uint32_t> num_vf;  // IFLA_NUM_VF: only for a netdev with a parent device
  std::vector<VfStats> vfs;        // in the kernel's order; empty without IFLA_VFINFO_LIST
  bool operator==(const LinkVfStats&) const = default;
};

// One netlink message (nlmsghdr first) of type RTM_NEWLINK. corrupt, naming
// what and where, for anything truncated, overlong or missing (an
// IFLA_VF_INFO without IFLA_VF_MAC, a counter not 8 bytes long).
Result<LinkVfStats> parseLinkVfStats(std::span<const uint8_t> message);

// Asks the kernel for one netdev's VF stats. The socket is opened on first
// use and kept; a reader is not shared between threads.
class VfStatsReader {
 public:
  VfStatsReader() = default;
  ~VfStatsReader();
  VfStatsReader(const VfStatsReader&) = delete;
  VfStatsReader& operator=(const VfStatsReader&) = delete;

  // notFound when the kernel knows no such netdev (ENODEV), unavailable when
  // netlink cannot be opened, ioError/corrupt otherwise; each names the netdev.
  Result<LinkVfStats> read(const std::string& ifname);
  Result<LinkVfStats> read(int32_t ifindex);

 private:
  Result<LinkVfStats> request(int32_t ifindex, const std::string& ifname, const std::string& what);
  Status open();
  int fd_ = -1;
  uint32_t seq_ = 0;
};

// The VF stats of one PF as its netdev reports them, to be written under
// each of its RDMA devices.
struct PfVfStats {
  std::vector<std::string> rdma_devices;
  std::string netdev;
  std::vector<VfStats> vfs;
};

// Every PF of `pfs` with an RDMA device and a netdev: the first of its
// netdevs whose answer lists VFs (a switchdev PF also lists its VF
// representors). A PF that could not be read adds one error to `errors`.
std::vector<PfVfStats> readPfVfStats(const std::vector<PhysicalFunction>& pfs, VfStatsReader& reader,
                                     std::vector<Status>& errors);

}  // namespace rdmagw::southbound::k8s
