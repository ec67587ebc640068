#pragma once
// Wires one running gateway: store, northbound servers, analytics,
// southbound pollers. Starts sinks before sources and stops in reverse, so no
// update is written into a store nobody serves and collectors drain before
// servers go. Analytics sits between: it starts before the sources (it
// derives nothing until they write) and stops right after them.

#include <memory>
#include <string>
#include <vector>

#include "gateway/config.h"
#include "models/store.h"
#include "northbound/admin/status_report.h"
#include "southbound/stream_source.h"

namespace rdmagw::northbound {
class PrometheusServer;
class SnmpAgent;
class GnmiServer;
class AdminServer;
}
namespace rdmagw::southbound {
class PollScheduler;
}
namespace rdmagw::analytics {
class AnalyticsStage;
}

namespace rdmagw::gateway {

class PipelineWatchdog;

class Pipeline {
 public:
  explicit Pipeline(GatewayConfig config);
  ~Pipeline();
  Pipeline(const Pipeline&) = delete;
  Pipeline& operator=(const Pipeline&) = delete;

  // Tells systemd READY=1 (a no-op outside a Type=notify unit) once every
  // configured northbound listens, and starts the watchdog pets when the
  // unit sets WatchdogSec=.
  Status start();
  void stop();

  Store& store() { return store_; }
  int prometheusPort() const;  // bound port, or -1 when Prometheus is off
  northbound::SnmpAgent* snmpAgent() { return snmp_.get(); }  // null when SNMP is off
  std::string gnmiAddress() const;  // host:port, or "" when gNMI is off
  std::string adminSocket() const;  // the socket `rdmagw status` reads, or "" when none is served

 private:
  // What the admin socket shows of the northbounds (its thread calls this).
  northbound::admin::NorthboundStates northboundStates() const;

  GatewayConfig config_;
  Store store_;
  std::unique_ptr<northbound::PrometheusServer> prometheus_;
  std::unique_ptr<northbound::SnmpAgent> snmp_;
  std::unique_ptr<northbound::GnmiServer> gnmi_;
  std::unique_ptr<northbound::AdminServer> admin_;  // reads the others: starts after, stops before them
  std::unique_ptr<analytics::AnalyticsStage> analytics_;  // reads and writes the store, between both ends
  std::unique_ptr<southbound::PollScheduler> scheduler_;
  std::vector<southbound::StreamSourcePtr> streams_;  // gNMI targets
  std::unique_ptr<PipelineWatchdog> watchdog_;         // only under a WatchdogSec= unit
  void notifyServiceManager();
};

}  // namespace rdmagw::gateway
