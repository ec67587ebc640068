#pragma once
// EthtoolSource over SIOCETHTOOL: ETHTOOL_GSSET_INFO (how many stats),
// ETHTOOL_GSTRINGS (their names), ETHTOOL_GSTATS (the values). Needs no
// CAP_NET_ADMIN, but works only in the netdev's network namespace.
//
// The names are cached per netdev: mlx5 adds and removes per-priority stats at
// runtime (PFC enabled per priority), so they are read again whenever the
// count changes, including between GSSET_INFO and GSTATS.

#include <map>
#include <string>
#include <vector>

#include "southbound/rdma/ethtool_source.h"

namespace rdmagw::southbound::rdma {

class EthtoolIoctl : public EthtoolSource {
 public:
  EthtoolIoctl();
  // Adopts `socket_fd` (closed with this object): a socket made inside
  // another network namespace speaks to that netns's netdevs, whichever
  // thread calls. -1 makes every call fail as without a socket.
  explicit EthtoolIoctl(int socket_fd);
  ~EthtoolIoctl() override;
  EthtoolIoctl(const EthtoolIoctl&) = delete;
  EthtoolIoctl& operator=(const EthtoolIoctl&) = delete;

  Result<EthtoolStats> stats(const std::string& netdev) override;
  // Runs iproute2's `dcb -j pfc show dev <netdev>` (netdev_dcb.h).
  Result<std::string> dcbJson(const std::string& object, const std::string& netdev) override;
  // Runs `mlnx_qos -i <netdev>` (netdev_dcb.h).
  Result<std::string> mlnxQosText(const std::string& netdev) override;

  // How often names were (re)read, for tests of the cache.
  int nameReadsForTest() const { return name_reads_; }

 private:
  Result<uint32_t> statCount(const std::string& netdev);
  Result<std::vector<std::string>> statNames(const std::string& netdev, uint32_t count);
  Result<std::vector<uint64_t>> statValues(const std::string& netdev, uint32_t count);
  Status call(const std::string& netdev, void* data, const char* what);

  int fd_ = -1;
  std::map<std::string, std::vector<std::string>> names_;  // netdev -> stat names
  int name_reads_ = 0;
};

}  // namespace rdmagw::southbound::rdma
