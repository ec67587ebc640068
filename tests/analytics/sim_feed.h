#pragma once
// The real simulated fabric (sim/fabric.h) fed into a Store through the
// gateway's own readers, one tick at a time at simulated time, with the
// analytics engine run after every tick:
//   RDMA hosts  -> their sysfs tree and ethtool text on disk, and what their
//                  lldpd prints (Fabric::lldpctlJson) -> RdmaCollector
//   Nexus leaves -> their rendered CLI outputs -> the NX-OS profile's parsers
//                   (or, with SimFeedOptions::gnmi, their simulated gNMI tree
//                   rendered as Notifications -> the gNMI mapping, plus the
//                   CLI supplement commands, as a gNMI-carried switch is read)
//   ESXi hosts  -> their rendered esxcli/vsish outputs, bundled as the ESXi
//                  profile's one command answers -> parseEsxiBundle
// No sshd, no threads, no clock: what a scenario test waits for is a number
// of simulated ticks, bounded generously, never wall time.

#include <functional>
#include <map>
#include <memory>
#include <set>
#include <string>

#include "analytics/analytics_config.h"
#include "analytics/analytics_engine.h"
#include "models/store.h"
#include "sim/fabric.h"
#include "sim/tree_writer.h"
#include "southbound/ssh/cli_command.h"

namespace rdmagw::testing {
using namespace rdmagw::analytics;  // the helpers speak the vocabulary of the code they test

struct SimFeedOptions {
  // The config's links are the simulator's cabling (as `rdmagw-demo` had
  // them before LLDP); false: no static links, every link from LLDP.
  bool static_links = true;
  bool gnmi = false;  // switches over gNMI instead of their CLI
};

class SimFeed {
 public:
  static constexpr int64_t kTickNs = 1'000'000'000;  // one tick, one poll, one analytics run

  SimFeed(sim::FabricConfig fabric, AnalyticsConfig config, SimFeedOptions options = {});
  ~SimFeed();
  SimFeed(const SimFeed&) = delete;
  SimFeed& operator=(const SimFeed&) = delete;
  static sim::FabricConfig calmFabric();  // 4 hosts x 2, one leaf, 2 ESXi hosts, calm
  static AnalyticsConfig config();        // period 1s, window 4s, storm at 90% for 3s

  sim::Fabric& fabric() { return fabric_; }
  const sim::Fabric& fabric() const { return fabric_; }
  Store& store() { return store_; }

  void tick();
  void ticks(int n);
  // Ticks until `done` holds, at most `max_ticks`; whether it held.
  bool tickUntil(const std::function<bool()>& done, int max_ticks);

  // Endpoints the model paused (PFC from the leaf) since the last forget(),
  // from its own tick reports: what a victim may be.
  const std::set<int>& pausedByModel() const { return paused_; }
  void forget() { paused_.clear(); }

  // Every derived leaf named `leaf`: "target:key1[:key2]" -> value text.
  std::map<std::string, std::string> derived(const std::string& leaf) const;
  // Only those whose value is not `normal` (the clear/idle/0 state).
  std::map<std::string, std::string> flagged(const std::string& leaf, const std::string& normal) const;

  // Names as the derived leaves' keys spell them: "host01:ens1f0np0" for
  // an endpoint's host end, "leaf01:Ethernet1/3" for its switch port,
  // "host01:mlx5_0:1" for its RDMA port.
  std::string hostPort(int endpoint) const;
  std::string switchPort(int endpoint) const;
  std::string rdmaPort(int endpoint) const;

 private:
  void collect();
  void collectSwitchCli(const sim::Switch& sw, const std::vector<southbound::ssh::CliCommand>& commands,
                        TimestampNs ts, PollBatch& batch);
  void collectSwitchGnmi(const sim::Switch& sw, TimestampNs ts, PollBatch& batch);
  void apply(const std::string& target, const std::string& kind, PollBatch& batch);

  SimFeedOptions options_;
  sim::Fabric fabric_;
  // In memory (/dev/shm) where there is one: a tick rewrites every file.
  std::string dir_;
  sim::TreeWriter writer_;
  Store store_;
  AnalyticsEngine engine_;
  TimestampNs now_ = 1'700'000'000'000'000'000;
  std::set<int> paused_;
};

}  // namespace rdmagw::testing
