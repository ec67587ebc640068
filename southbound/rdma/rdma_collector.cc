#include "southbound/rdma/rdma_collector.h"

#include <algorithm>

#include "models/roce_leaves.h"
#include "southbound/rdma/ecn_sysfs.h"
#include "southbound/rdma/ethtool_mapping.h"
#include "southbound/rdma/ib_updates.h"
#include "southbound/rdma/lldpctl_json.h"
#include "southbound/rdma/netdev_dcb.h"

namespace rdmagw::southbound::rdma {

RdmaCollector::RdmaCollector(SysfsReaderPtr reader, DeviceFilter filter, EthtoolSourcePtr ethtool,
                             IbClass::Clock clock)
    : reader_(std::move(reader)),
      ethtool_(std::move(ethtool)),
      clock_(std::move(clock)),
      ib_(*reader_, std::move(filter), clock_) {}

Status RdmaCollector::poll(PollBatch& batch) {
  Result<std::vector<IbDevice>> devices = ib_.read(&batch.errors);
  if (!devices.isOk()) return devices.status();
  appendIbUpdates(devices.value(), batch);
  pollLldp(batch);
  pollConfig(devices.value(), batch);
  if (!ethtool_) return Status::ok();

  // A netdev shared by two ports (bonding, multi-host) is read once.
  std::set<std::string> seen;
  for (const IbDevice& d : devices.value()) {
    for (const IbPort& p : d.ports) {
      if (!p.netdev || !seen.insert(p.netdev->value).second) continue;
      const std::string& netdev = p.netdev->value;
      Result<EthtoolStats> stats = ethtool_->stats(netdev);
      TimestampNs ts = clock_();
      if (!stats.isOk()) {
        batch.error("ethtool -S " + netdev + " (" + d.name + " port " + std::to_string(p.num) +
                    "): " + stats.status().message());
        continue;
      }
      appendEthtoolUpdates(netdev, stats.value(), ts, batch);
    }
  }
  for (std::string& w : ethtool_->takeWarnings()) batch.error(std::move(w));
  return Status::ok();
}

// Each netdev's DCB configuration (MTU, DCQCN knobs, PFC, trust), once per
// netdev: every config interval, and at once for a netdev not read this cycle.
void RdmaCollector::pollConfig(const std::vector<IbDevice>& devices, PollBatch& batch) {
  const TimestampNs now = clock_();
  if (now >= next_config_ns_ || config_every_ns_ <= 0) {
    config_read_.clear();
    next_config_ns_ = now + config_every_ns_;
    pollRdmaCm(devices, batch);
  }
  for (const IbDevice& d : devices) {
    for (const IbPort& p : d.ports) {
      if (p.netdev && config_read_.insert(p.netdev->value).second) {
        appendNetdevDcb(*reader_, ethtool_.get(), p.netdev->value, clock_(), batch);
      }
    }
  }
}

// The RDMA CM defaults (configfs) of the devices the filter keeps. No
// rdma_cm directory (configfs not mounted, or no device configured): the
// kernel's defaults apply and nothing is written.
void RdmaCollector::pollRdmaCm(const std::vector<IbDevice>& devices, PollBatch& batch) {
  std::vector<rdmagw::roce::RdmaCmPort> ports;
  const Status st = readRdmaCmDefaults(*reader_, ports);
  if (!st.isOk() && st.code() != Status::Code::kNotFound) batch.error(st.message());
  std::erase_if(ports, [&](const rdmagw::roce::RdmaCmPort& cm) {
    return std::none_of(devices.begin(), devices.end(), [&](const IbDevice& d) { return d.name == cm.device; });
  });
  rdmagw::roce::appendRdmaCmLeaves(ports, clock_(), batch);
}

void RdmaCollector::pollLldp(PollBatch& batch) {
  if (!lldp_) return;
  std::optional<std::string> json = lldp_->read();
  if (!json) return;
  if (Status st = parseLldpctlJson(*json, clock_(), batch); !st.isOk()) batch.error(st.message());
}

}  // namespace rdmagw::southbound::rdma
