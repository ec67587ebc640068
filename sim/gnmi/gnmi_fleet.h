#pragma once
// One simulated gNMI target per leaf of a Fabric, for the demo and tests.
// Wiring to SimRunner: call publish(fabric, ts) from the runner's tick (the
// runner needs a per-tick hook for that; see the sim/gnmi report).
//
// With TLS, one CA of the fleet's signs every target's certificates (unless
// the options name a CA): as a fabric's switches carry certificates from
// their operator's CA, one ca_file (caFile()) trusts every target.

#include <chrono>
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
  ~GnmiFleet();  // stops the targets, removes the fleet's CA
  GnmiFleet(const GnmiFleet&) = delete;
  GnmiFleet& operator=(const GnmiFleet&) = delete;

  Status start();  // all or nothing: a failure stops the ones started
  void stop();
  // Every switch reboots at the same moment: open streams end, listeners
  // close for `down`, then every target listens again but refuses RPCs
  // (UNAVAILABLE) for `starting` more. Stops and starts run on several
  // threads, so hundreds of targets go down and come back together.
  Status restart(std::chrono::milliseconds down, std::chrono::milliseconds starting);
  // switches()[i] -> target i; the timestamp is shared.
  void publish(const Fabric& fabric, TimestampNs ts);

  size_t size() const { return targets_.size(); }
  GnmiTarget& target(size_t i) { return *targets_[i]; }
  GnmiTarget* find(const std::string& switch_name);
  // The CA certificate that signed every target's server certificate ("" without TLS).
  const std::string& caFile() const { return ca_.cert; }
  // Handshakes in progress across the whole fleet (unless the options
  // brought a meter of their own, which this then is).
  HandshakeMeter& handshakeMeter() { return *meter_; }

 private:
  GnmiCa ca_;
  std::shared_ptr<HandshakeMeter> meter_;
  std::string own_ca_dir_;  // set when the fleet made the CA (removed by the destructor)
  Status ca_status_ = Status::ok();  // making the CA failed: start() says so
  std::vector<std::unique_ptr<GnmiTarget>> targets_;
};

}  // namespace rdmagw::sim
