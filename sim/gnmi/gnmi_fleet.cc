#include "sim/gnmi/gnmi_fleet.h"

#include <algorithm>
#include <atomic>
#include <filesystem>
#include <functional>
#include <mutex>
#include <thread>

#include "sim/gnmi/gnmi_tls.h"

namespace rdmagw::sim {

GnmiFleet::GnmiFleet(const std::vector<Switch>& switches, const GnmiTargetOptions& options) {
  GnmiTargetOptions shared = options;
  if (!shared.handshake_meter) shared.handshake_meter = std::make_shared<HandshakeMeter>();
  meter_ = shared.handshake_meter;
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

namespace {

// fn(i) for every i < n, on a few threads: a target's stop or start takes
// milliseconds, which in a row would spread 500 "simultaneous" reboots over
// seconds.
void forEachParallel(size_t n, const std::function<void(size_t)>& fn) {
  std::atomic<size_t> next{0};
  std::vector<std::thread> threads;
  const size_t k = std::min<size_t>(n, 32);
  for (size_t t = 0; t < k; ++t) {
    threads.emplace_back([&] {
      for (size_t i = next++; i < n; i = next++) fn(i);
    });
  }
  for (std::thread& t : threads) t.join();
}

}  // namespace

Status GnmiFleet::restart(std::chrono::milliseconds down, std::chrono::milliseconds starting) {
  forEachParallel(targets_.size(), [this](size_t i) { targets_[i]->stop(); });
  std::this_thread::sleep_for(down);
  std::mutex mu;
  Status first = Status::ok();
  forEachParallel(targets_.size(), [&](size_t i) {
    targets_[i]->setStartingFor(starting);
    Status st = targets_[i]->start();
    std::lock_guard lock(mu);
    if (!st.isOk() && first.isOk()) first = st;
  });
  return first;
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
