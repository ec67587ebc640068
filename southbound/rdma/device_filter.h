#pragma once
// Include/exclude device globs. Applied to the names listed under
// class/infiniband BEFORE any file of a device is read: some ConnectX-7
// functions answer every read with EINVAL and flood dmesg, so an excluded
// device must not be touched at all (node_exporter #3265, #3823).

#include <string>
#include <vector>

#include "models/status.h"

namespace rdmagw::southbound::rdma {

class DeviceFilter {
 public:
  DeviceFilter() = default;
  DeviceFilter(std::vector<std::string> include, std::vector<std::string> exclude)
      : include_(std::move(include)), exclude_(std::move(exclude)) {}

  // Included (no include globs = all) and not excluded.
  bool accepts(const std::string& device) const;

  // fnmatch(3) accepts nearly anything; reject what is surely a typo.
  static Status validateGlob(const std::string& glob);

 private:
  std::vector<std::string> include_;
  std::vector<std::string> exclude_;
};

}  // namespace rdmagw::southbound::rdma
