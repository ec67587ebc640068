#pragma once
// This gateway's part in a fleet, whole: the membership and placement
// (fleet.h), the copy of the other members' analytics inputs
// (fleet_peer_mirror.h), and the placement the Reloader asks for. The two
// programs' commands make one before the pipeline starts (so bad cluster
// settings stop the gateway before anything listens) and start it once the
// pipeline listens and the Reloader runs: the member set decides, through
// the Reloader, which targets the pipeline collects.

#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "gateway/config/config.h"
#include "gateway/fleet/fleet.h"
#include "gateway/runtime/pipeline.h"
#include "gateway/runtime/reloader.h"
#include "southbound/stream_source.h"

namespace rdmagw::gateway {

class FleetMember {
 public:
  // `config.cluster` must be enabled. Checks the cluster settings (reads
  // the password file); nothing runs yet. `pipeline` outlives the member.
  static Result<std::unique_ptr<FleetMember>> create(const GatewayConfig& config, Pipeline& pipeline);
  ~FleetMember();  // stop()
  FleetMember(const FleetMember&) = delete;
  FleetMember& operator=(const FleetMember&) = delete;

  // For ReloaderOptions::place: of the configured targets, those this
  // member collects now.
  std::function<std::vector<TargetConfig>(const std::vector<TargetConfig>&)> placement();

  // Joins the fleet; member-set changes ask `reloader` for a re-placement.
  // `advertised`: this member's northbounds as the others dial them. With
  // the analytics on and a gNMI server, the peers' mirror starts too.
  // Once; `reloader` outlives the member's stop().
  void start(Reloader& reloader, const std::map<std::string, std::string>& advertised);
  // Leaves the fleet first (the lease is revoked: the others take over at
  // once), then stops the mirror (before the pipeline that holds its store).
  void stop();

 private:
  FleetMember(const GatewayConfig& config, Pipeline& pipeline);
  void replace(const std::string& why);

  const GatewayConfig config_;
  Pipeline& pipeline_;
  std::unique_ptr<Fleet> fleet_;
  southbound::StreamSourcePtr mirror_;

  std::mutex mu_;
  Reloader* reloader_ = nullptr;  // guarded by mu_: from start(); the membership runs only after
};

}  // namespace rdmagw::gateway
