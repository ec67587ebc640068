#pragma once
// `ethtool -S <netdev>` output as text: a pure parser plus an EthtoolSource
// that reads <dir>/<netdev>.txt (tests, hosts read second-hand), and
// <dir>/<netdev>.dcb-<object>.json for the netdev's `dcb -j <object> show`
// (pfc, app, ets, buffer), <dir>/<netdev>.mlnx_qos.txt for its `mlnx_qos -i`.
//
// Accepted: an optional "NIC statistics:" header, indented "name: value"
// lines, '#'/'$' lines (a "# ethtool -S ens1f0" line names the netdev). Lines
// that fit none of these are counted and skipped, never fatal: drivers print
// things no fixture shows.

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "southbound/rdma/ethtool_source.h"

namespace rdmagw::southbound::rdma {

struct EthtoolTextParse {
  EthtoolStats stats;
  std::optional<std::string> netdev;  // from a "# ethtool -S <netdev>" line
  size_t skipped_lines = 0;
  std::vector<std::string> skipped;  // the first few, as "line N: text"
};

EthtoolTextParse parseEthtoolText(std::string_view text);

class EthtoolText : public EthtoolSource {
 public:
  explicit EthtoolText(std::string dir) : dir_(std::move(dir)) {}

  Result<EthtoolStats> stats(const std::string& netdev) override;
  std::vector<std::string> takeWarnings() override;
  // <dir>/<netdev>.dcb-<object>.json, when there is one.
  Result<std::string> dcbJson(const std::string& object, const std::string& netdev) override;
  // <dir>/<netdev>.mlnx_qos.txt, when there is one.
  Result<std::string> mlnxQosText(const std::string& netdev) override;

 private:
  std::string dir_;
  std::vector<std::string> warnings_;
};

}  // namespace rdmagw::southbound::rdma
