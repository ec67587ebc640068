#include "sim/gnmi/gnmi_fleet.h"

#include <filesystem>

#include "sim/gnmi/gnmi_tls.h"

namespace rdmagw::sim {

GnmiFleet::GnmiFleet(const std::vector<Switch>& switches, const GnmiTargetOptions& options) {
  GnmiTargetOptions shared = options;
  if (options.tls != GnmiTls::kNone && options.ca.cert.empty() && !switches.empty()) {
    ca_status_ = generateGnmiCa(&ca_);
    if (ca_status_.isOk()) {
      own_ca_dir_ = ca_.dir;
      shared.ca = ca_;
    }
  } else {
    ca_ = options.ca;
  }
  for (const Switch& sw : switches) targets_.push_back(std::make_unique<GnmiTarget>(sw.name, shared));
}

GnmiFleet::~GnmiFleet() {
  targets_.clear();
  if (!own_ca_dir_.empty()) {
    std::error_code ec;
    std::filesystem::remove_all(own_ca_dir_, ec);
  }
}

Status GnmiFleet::start() {
  if (!ca_status_.isOk()) return Status::ioError("the simulated switches' CA: " + ca_status_.message());
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
