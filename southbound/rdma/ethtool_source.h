#pragma once
// Where a netdev's `ethtool -S` statistics come from: the SIOCETHTOOL ioctl
// on a live host, text files in tests and for hosts read second-hand.

#include <cstdint>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "models/status.h"

namespace rdmagw::southbound::rdma {

using EthtoolStats = std::vector<std::pair<std::string, uint64_t>>;

class EthtoolSource {
 public:
  virtual ~EthtoolSource() = default;
  // Name/value pairs in driver order; names trimmed.
  virtual Result<EthtoolStats> stats(const std::string& netdev) = 0;
  // Problems that did not fail a stats() call (skipped lines), drained by the
  // collector into its batch's error lines.
  virtual std::vector<std::string> takeWarnings() { return {}; }
  // The netdev's `dcb -j <object> show dev <netdev>` output (iproute2;
  // object "pfc" or "app"), read alongside its stats for the fabric's DCB
  // consistency. NotFound when this source has none: that part of the host's
  // DCB configuration stays unknown.
  virtual Result<std::string> dcbJson(const std::string& object, const std::string& netdev) {
    return Status::notFound("no dcb " + object + " output for " + netdev);
  }
  // The netdev's `mlnx_qos -i <netdev>` text (NVIDIA MLNX_OFED), asked for
  // only when dcbJson() has nothing for any object of the netdev. NotFound
  // when this source has none.
  virtual Result<std::string> mlnxQosText(const std::string& netdev) {
    return Status::notFound("no mlnx_qos output for " + netdev);
  }
};
using EthtoolSourcePtr = std::unique_ptr<EthtoolSource>;

}  // namespace rdmagw::southbound::rdma
