#include "southbound/rdma/rdma_factory.h"

#include "southbound/rdma/ethtool_ioctl.h"
#include "southbound/rdma/ethtool_text.h"
#include "southbound/rdma/rdma_collector.h"
#include "southbound/rdma/sysfs_reader_impl.h"

namespace rdmagw::southbound::rdma {

Result<southbound::PollSourcePtr> createRdmaSource(const RdmaConfig& config) {
  if (Status st = config.validate(); !st.isOk()) return st;
  EthtoolSourcePtr ethtool;
  switch (config.ethtool) {
    case RdmaConfig::EthtoolMode::kIoctl:
      ethtool = std::make_unique<EthtoolIoctl>();
      break;
    case RdmaConfig::EthtoolMode::kText:
      ethtool = std::make_unique<EthtoolText>(config.ethtool_dir);
      break;
    case RdmaConfig::EthtoolMode::kNone:
      break;
  }
  auto collector = std::make_unique<RdmaCollector>(std::make_unique<SysfsReaderImpl>(config.sysfs_root),
                                                   DeviceFilter(config.include_devices, config.exclude_devices),
                                                   std::move(ethtool));
  collector->setConfigInterval(config.config_interval);
  if (config.lldpWanted()) collector->setLldp(std::make_unique<LldpctlCommand>());
  return southbound::PollSourcePtr(std::move(collector));
}

}  // namespace rdmagw::southbound::rdma
