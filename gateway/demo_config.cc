#include "gateway/demo_config.h"

#include <algorithm>
#include <filesystem>

namespace rdmagw::gateway {

namespace fs = std::filesystem;

Result<GatewayConfig> demoConfig(const std::string& sim_dir, const std::string& listen,
                                 std::chrono::milliseconds interval) {
  GatewayConfig cfg;
  cfg.prometheus.listen = listen;
  if (Status st = cfg.prometheus.validate(); !st.isOk()) return st;
  std::error_code ec;
  std::vector<std::string> hosts;
  for (const auto& entry : fs::directory_iterator(sim_dir, ec)) {
    if (fs::is_directory(entry.path() / "sys" / "class" / "infiniband")) {
      hosts.push_back(entry.path().filename().string());
    }
  }
  if (ec) return Status::ioError(sim_dir + ": " + ec.message());
  if (hosts.empty()) return Status::notFound(sim_dir + ": the simulator wrote no hosts");
  std::sort(hosts.begin(), hosts.end());
  for (const std::string& host : hosts) {
    TargetConfig t;
    t.name = host;
    t.kind = "rdma-host";
    t.transport = "sysfs";
    t.interval = interval;
    t.labels = {{"fabric", "sim"}};
    t.rdma.sysfs_root = (fs::path(sim_dir) / host / "sys").string();
    t.rdma.ethtool = southbound::rdma::RdmaConfig::EthtoolMode::kText;
    t.rdma.ethtool_dir = (fs::path(sim_dir) / host / "ethtool").string();
    cfg.targets.push_back(std::move(t));
  }
  return cfg;
}

}  // namespace rdmagw::gateway
