#pragma once
// Wires one running gateway: store, northbound servers, analytics,
// southbound pollers. Starts sinks before sources and stops in reverse, so no
// update is written into a store nobody serves and collectors drain before
// servers go. Analytics sits between: it starts before the sources (it
// derives nothing until they write) and stops right after them.
//
// While running, targets can be added, removed and replaced one at a time
// (applyTargets, for a config reload): the others keep their sessions and
// streams untouched.

#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "analytics/mirror_needs.h"
#include "gateway/config/config.h"
#include "models/fleet_view.h"
#include "models/store.h"
#include "northbound/admin/status_report.h"
#include "southbound/stream_source.h"

namespace rdmagw::northbound::prometheus {
class PrometheusServer;
}
namespace rdmagw::northbound::snmp {
class SnmpAgent;
}
namespace rdmagw::northbound::gnmi {
class GnmiServer;
}
namespace rdmagw::northbound::admin {
class AdminServer;
}
namespace rdmagw::southbound {
class PollScheduler;
}
namespace rdmagw::analytics {
class AnalyticsStage;
}

namespace rdmagw::gateway {

struct TargetSetDiff;
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

  // After start(), never concurrently with stop(). Makes the sources of
  // every added and changed target first: when one cannot be made, nothing
  // changes and the error says which. Then removed and changed targets stop
  // and their series leave the store (every northbound follows: Prometheus
  // at its next scrape, SNMP contexts, gNMI deletes), and the new sources
  // start. Targets not named in the diff are not touched.
  Status applyTargets(const TargetSetDiff& diff);
  // The analytics stage rebuilt with new settings (its windows restart);
  // enabled false stops it.
  void setAnalytics(bool enabled, const analytics::AnalyticsConfig& config);

  Store& store() { return store_; }
  // In a fleet, the other members' targets' analytics inputs
  // (gateway/fleet/fleet_peer_mirror.h writes them): the analytics read it beside
  // the store, no northbound serves it. Empty outside a fleet.
  Store& peerStore() { return peer_store_; }
  // What the peer copy must hold for the analytics' next run (each run
  // says), and whether analytics run now and how often: the copy follows a
  // reload that switches them on or off or changes their period.
  const analytics::MirrorNeedsBoard& mirrorNeeds() const { return mirror_needs_; }
  struct AnalyticsState {
    bool enabled = false;
    std::chrono::milliseconds period{0};
  };
  AnalyticsState analyticsState() const;
  // The fleet as the servers show it (gateway/fleet/fleet.h writes it); disabled
  // outside a fleet.
  FleetView& fleetView() { return fleet_view_; }
  int prometheusPort() const;  // bound port, or -1 when Prometheus is off
  northbound::snmp::SnmpAgent* snmpAgent() { return snmp_.get(); }  // null when SNMP is off
  std::string gnmiAddress() const;  // host:port, or "" when gNMI is off
  std::vector<std::string> targetNames() const;  // running targets, sorted
  std::string adminSocket() const;  // the socket `rdmagw status` reads, or "" when none is served

 private:
  struct Built;
  Result<Built> build(const TargetConfig& t);
  void startBuilt(Built built);  // targets_mu_ held
  void stopTarget(const std::string& name);  // targets_mu_ held
  // What the admin socket shows of the northbounds (its thread calls this).
  northbound::admin::NorthboundStates northboundStates() const;

  GatewayConfig config_;
  Store store_;
  Store peer_store_;
  analytics::MirrorNeedsBoard mirror_needs_;
  mutable std::mutex analytics_state_mu_;
  AnalyticsState analytics_state_;  // guarded by analytics_state_mu_
  FleetView fleet_view_;  // before the servers that read it
  std::unique_ptr<northbound::prometheus::PrometheusServer> prometheus_;
  std::unique_ptr<northbound::snmp::SnmpAgent> snmp_;
  std::unique_ptr<northbound::gnmi::GnmiServer> gnmi_;
  std::unique_ptr<northbound::admin::AdminServer> admin_;  // reads the others: starts after, stops before them
  std::unique_ptr<analytics::AnalyticsStage> analytics_;  // reads and writes the store, between both ends
  std::unique_ptr<southbound::PollScheduler> scheduler_;
  mutable std::mutex targets_mu_;  // serializes live changes and guards the two below
  std::map<std::string, southbound::StreamSourcePtr> streams_;  // gNMI targets by name
  std::map<std::string, bool> running_;                         // every running target -> streamed
  std::unique_ptr<PipelineWatchdog> watchdog_;         // only under a WatchdogSec= unit
  void notifyServiceManager();
};

}  // namespace rdmagw::gateway
