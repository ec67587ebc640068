#pragma once
// EthtoolSource answering from a map; records which netdevs were asked.

#include <map>
#include <string>
#include <vector>

#include "southbound/rdma/ethtool_source.h"

namespace rdmagw::testing {

class FakeEthtoolSource : public southbound::rdma::EthtoolSource {
 public:
  void set(const std::string& netdev, southbound::rdma::EthtoolStats stats) {
    answers_.insert_or_assign(netdev, Result<southbound::rdma::EthtoolStats>(std::move(stats)));
  }
  void fail(const std::string& netdev, Status st) {
    answers_.insert_or_assign(netdev, Result<southbound::rdma::EthtoolStats>(std::move(st)));
  }
  Result<southbound::rdma::EthtoolStats> stats(const std::string& netdev) override {
    asked_.push_back(netdev);
    auto it = answers_.find(netdev);
    if (it == answers_.end()) return Status::notFound("fake ethtool: no netdev " + netdev);
    return it->second;
  }
  const std::vector<std::string>& asked() const { return asked_; }

 private:
  std::map<std::string, Result<southbound::rdma::EthtoolStats>> answers_;
  std::vector<std::string> asked_;
};

}  // namespace rdmagw::testing
