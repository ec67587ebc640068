#include "sim/gnmi/gnmi_fleet.h"

namespace rdmagw::sim {

GnmiFleet::GnmiFleet(const std::vector<Switch>& switches, const GnmiTargetOptions& options) {
  for (const Switch& sw : switches) targets_.push_back(std::make_unique<GnmiTarget>(sw.name, options));
}

Status GnmiFleet::start() {
  for (auto& t : targets_) {
    Status st = t->start();
    if (!st.isOk()) {
      stop();
      return st;
    }
  }
  return Status::ok();
}

void GnmiFleet::stop() {
  for (auto& t : targets_) t->stop();
}

void GnmiFleet::publish(const Fabric& fabric, TimestampNs ts) {
  const std::vector<Switch>& sws = fabric.switches();
  for (size_t i = 0; i < sws.size() && i < targets_.size(); ++i) targets_[i]->publish(sws[i], ts);
}

GnmiTarget* GnmiFleet::find(const std::string& switch_name) {
  for (auto& t : targets_) {
    if (t->switchName() == switch_name) return t.get();
  }
  return nullptr;
}

}  // namespace rdmagw::sim
