#include "gateway/fleet/member.h"

#include <algorithm>

#include "gateway/fleet/fleet_peer_mirror.h"
#include "models/log.h"

namespace rdmagw::gateway {

Result<std::unique_ptr<FleetMember>> FleetMember::create(const GatewayConfig& config, Pipeline& pipeline) {
  std::unique_ptr<FleetMember> member(new FleetMember(config, pipeline));
  Result<std::unique_ptr<Fleet>> fleet = Fleet::create(
      config.cluster, &pipeline.fleetView(), [m = member.get()](const std::string& why) { m->replace(why); });
  if (!fleet.isOk()) return fleet.status();
  member->fleet_ = std::move(fleet).value();
  return member;
}

FleetMember::FleetMember(const GatewayConfig& config, Pipeline& pipeline) : config_(config), pipeline_(pipeline) {}

FleetMember::~FleetMember() { stop(); }

std::function<std::vector<TargetConfig>(const std::vector<TargetConfig>&)> FleetMember::placement() {
  Fleet* fleet = fleet_.get();
  return [fleet](const std::vector<TargetConfig>& t) { return fleet->owned(t); };
}

void FleetMember::start(Reloader& reloader, const std::map<std::string, std::string>& advertised) {
  {
    std::lock_guard lock(mu_);
    reloader_ = &reloader;
  }
  fleet_->start(advertised);
  // The analytics of a member judge links and pause trees that cross into
  // other members' targets through a copy of those targets' inputs. It
  // runs whether or not analytics are on now: a reload may switch them on.
  auto gnmi = advertised.find("gnmi");
  if (gnmi == advertised.end()) return;
  FleetPeerMirrorOptions mo;
  mo.gnmi_address = gnmi->second;
  mo.gnmi = config_.gnmi;
  mo.analytics_period = [p = &pipeline_]() -> std::optional<std::chrono::milliseconds> {
    const Pipeline::AnalyticsState state = p->analyticsState();
    if (!state.enabled) return std::nullopt;
    return state.period;
  };
  mo.needs = &pipeline_.mirrorNeeds();
  Result<southbound::StreamSourcePtr> mirror =
      createFleetPeerMirror(std::move(mo), *fleet_, pipeline_.fleetView(), pipeline_.peerStore());
  if (!mirror.isOk()) {
    RDMAGW_LOG(kError, "fleet") << "no copy of the peers' analytics inputs: " << mirror.status().message();
    return;
  }
  mirror_ = std::move(mirror).value();
  (void)mirror_->start();  // a stream that fails is retried, never an error here
}

void FleetMember::stop() {
  if (fleet_) fleet_->stop();
  if (mirror_) mirror_->stop();
}

void FleetMember::replace(const std::string& why) {
  std::lock_guard lock(mu_);
  if (reloader_ != nullptr) reloader_->requestReplace(why);
}

}  // namespace rdmagw::gateway
