#pragma once
// The Linux RDMA host collector: IB class (sysfs) for devices and ports, plus
// ethtool stats of each port's netdev for PFC and interface counters, and
// the RoCE configuration (netdev_dcb.h; configfs RDMA CM defaults).

#include <chrono>
#include <cstdint>
#include <functional>
#include <set>
#include <string>
#include <vector>
#include <string_view>

#include "southbound/poll_source.h"
#include "southbound/rdma/device_filter.h"
#include "southbound/rdma/ethtool_source.h"
#include "southbound/rdma/ib_class.h"
#include "southbound/rdma/lldp_source.h"
#include "southbound/rdma/sysfs_reader.h"

namespace rdmagw::southbound::rdma {

class RdmaCollector : public southbound::PollSource {
 public:
  // ethtool may be null (EthtoolMode::kNone). clock stamps every value read.
  RdmaCollector(SysfsReaderPtr reader, DeviceFilter filter, EthtoolSourcePtr ethtool,
                IbClass::Clock clock = nowNs);

  std::string_view transport() const override { return "sysfs"; }
  // Non-ok only when class/infiniband cannot be listed at all.
  Status poll(PollBatch& batch) override;
  // LLDP neighbours of the host's netdevs each poll (none by default).
  void setLldp(LldpSourcePtr lldp) { lldp_ = std::move(lldp); }
  // How often each netdev's DCB configuration is read again (RdmaConfig::
  // config_interval); zero, the default here, reads it every poll.
  void setConfigInterval(std::chrono::nanoseconds every) { config_every_ns_ = every.count(); }

 private:
  void pollLldp(PollBatch& batch);
  void pollConfig(const std::vector<IbDevice>& devices, PollBatch& batch);
  void pollRdmaCm(const std::vector<IbDevice>& devices, PollBatch& batch);
  LldpSourcePtr lldp_;
  SysfsReaderPtr reader_;
  EthtoolSourcePtr ethtool_;
  IbClass::Clock clock_;
  IbClass ib_;
  int64_t config_every_ns_ = 0;
  TimestampNs next_config_ns_ = 0;
  std::set<std::string> config_read_;  // netdevs whose configuration this cycle read
};

}  // namespace rdmagw::southbound::rdma
