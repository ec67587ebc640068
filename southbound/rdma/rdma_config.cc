#include "southbound/rdma/rdma_config.h"

#include "southbound/rdma/device_filter.h"

namespace rdmagw::southbound::rdma {

// Collects every problem, each prefixed with its key, instead of stopping at
// the first (OpenTelemetry confmap style): the operator fixes them in one go.
Status RdmaConfig::validate() const {
  std::vector<std::string> problems;
  if (sysfs_root.empty()) problems.push_back("sysfs_root: must not be empty");
  auto checkGlobs = [&](const char* key, const std::vector<std::string>& globs) {
    for (size_t i = 0; i < globs.size(); ++i) {
      if (Status st = DeviceFilter::validateGlob(globs[i]); !st.isOk()) {
        problems.push_back(std::string(key) + "[" + std::to_string(i) + "]: " + st.message());
      }
    }
  };
  checkGlobs("include_devices", include_devices);
  checkGlobs("exclude_devices", exclude_devices);
  if (ethtool == EthtoolMode::kText && ethtool_dir.empty()) {
    problems.push_back("ethtool_dir: required when ethtool is 'text'");
  }
  if (problems.empty()) return Status::ok();
  std::string msg;
  for (const std::string& p : problems) msg += (msg.empty() ? "" : "; ") + p;
  return Status::invalidArgument(msg);
}

}  // namespace rdmagw::southbound::rdma
