#pragma once
// One simulated gNMI target per leaf of a Fabric, for the demo and tests.
// Wiring to SimRunner: call publish(fabric, ts) from the runner's tick (the
// runner needs a per-tick hook for that; see the sim/gnmi report).

#include <memory>
#include <string>
#include <vector>

#include "models/status.h"
#include "sim/fabric.h"
#include "sim/gnmi/gnmi_target.h"

namespace rdmagw::sim {

class GnmiFleet {
 public:
  // Targets named after the switches, all with the same options.
  GnmiFleet(const std::vector<Switch>& switches, const GnmiTargetOptions& options);

  Status start();  // all or nothing: a failure stops the ones started
  void stop();
  // switches()[i] -> target i; the timestamp is shared.
  void publish(const Fabric& fabric, TimestampNs ts);

  size_t size() const { return targets_.size(); }
  GnmiTarget& target(size_t i) { return *targets_[i]; }
  GnmiTarget* find(const std::string& switch_name);

 private:
  std::vector<std::unique_ptr<GnmiTarget>> targets_;
};

}  // namespace rdmagw::sim
