#include "gateway/demo/demo_churn.h"

#include <cstdio>
#include <fstream>

#include "models/log.h"
#include "sim/gnmi/gnmi_fleet.h"
#include "sim/sim_runner.h"
#include "sim/snmpd_launcher.h"
#include "sim/sshd_launcher.h"

namespace rdmagw::gateway {

namespace {

sim::ChurnShape shapeOf(const DemoChurn::Parts& p) {
  sim::ChurnShape s;
  s.switches = p.fleet ? int(p.fleet->size()) : 0;
  s.rdma_devices = p.runner ? int(p.rdma_devices.size()) : 0;
  s.sshd = p.sshd != nullptr && p.sshd->running();
  s.snmpd = p.snmpd != nullptr && p.snmpd->running();
  return s;
}

}  // namespace

DemoChurn::DemoChurn(Parts parts, std::chrono::milliseconds cycle, std::chrono::milliseconds run_for,
                     std::string stats_file)
    : parts_(std::move(parts)), schedule_(cycle, shapeOf(parts_)), run_for_(run_for),
      stats_file_(std::move(stats_file)) {}

DemoChurn::~DemoChurn() { stop(); }

void DemoChurn::start() {
  if (thread_.joinable()) return;
  writeStats(false);
  thread_ = std::thread([this] { run(); });
}

void DemoChurn::stop() {
  {
    std::lock_guard lock(mu_);
    stopping_ = true;
  }
  cv_.notify_all();
  if (thread_.joinable()) thread_.join();
}

bool DemoChurn::sleepUntil(std::chrono::steady_clock::time_point t) {
  std::unique_lock lock(mu_);
  return !cv_.wait_until(lock, t, [this] { return stopping_; });
}

std::pair<std::string, std::string> DemoChurn::rdmaDevice(int subject) const {
  // Host-major list; walk it across hosts first so that consecutive cycles
  // take devices from different hosts.
  const auto& all = parts_.rdma_devices;
  size_t hosts = 1;
  while (hosts < all.size() && all[hosts].first != all[0].first) ++hosts;
  if (all.size() % hosts != 0) return all[size_t(subject) % all.size()];
  const size_t per_host = all.size() / hosts;
  const size_t host = size_t(subject) % hosts, dev = size_t(subject) / hosts % per_host;
  return all[host * per_host + dev];
}

std::string DemoChurn::subjectName(const sim::ChurnEvent& e) const {
  switch (e.kind) {
    case sim::ChurnKind::kGnmiDown:
    case sim::ChurnKind::kGnmiUp: return parts_.fleet->target(size_t(e.subject)).switchName();
    case sim::ChurnKind::kRdmaDeviceGone:
    case sim::ChurnKind::kRdmaDeviceBack: {
      const auto dev = rdmaDevice(e.subject);
      return dev.first + ":" + dev.second;
    }
    case sim::ChurnKind::kSshdDown:
    case sim::ChurnKind::kSshdUp: return "sshd";
    case sim::ChurnKind::kSnmpdRestart: return "snmpd";
  }
  return "?";
}

void DemoChurn::apply(const sim::ChurnEvent& e) {
  const char* kind = sim::churnKindName(e.kind);
  const std::string subject = subjectName(e);
  // Logged first: the warnings the fault causes follow it in the log.
  RDMAGW_LOG(kInfo, "churn") << kind << " " << subject;
  ++events_;
  Status st = Status::ok();
  switch (e.kind) {
    case sim::ChurnKind::kGnmiDown:
    case sim::ChurnKind::kGnmiUp: {
      sim::GnmiTarget& t = parts_.fleet->target(size_t(e.subject));
      if (e.kind == sim::ChurnKind::kGnmiDown) {
        t.stop();
        gnmi_down_.insert(e.subject);
      } else {
        st = t.start();
        gnmi_down_.erase(e.subject);
      }
      break;
    }
    case sim::ChurnKind::kRdmaDeviceGone:
    case sim::ChurnKind::kRdmaDeviceBack: {
      const auto [host, dev] = rdmaDevice(e.subject);
      const bool gone = e.kind == sim::ChurnKind::kRdmaDeviceGone;
      parts_.runner->setDeviceHidden(host, dev, gone);
      if (gone) hidden_.insert(e.subject);
      else hidden_.erase(e.subject);
      break;
    }
    case sim::ChurnKind::kSshdDown:
      parts_.sshd->stopServer();
      sshd_down_ = true;
      break;
    case sim::ChurnKind::kSshdUp:
      st = parts_.sshd->start();
      sshd_down_ = false;
      break;
    case sim::ChurnKind::kSnmpdRestart:
      st = parts_.snmpd->restart();
      break;
  }
  if (!st.isOk()) {
    RDMAGW_LOG(kError, "churn") << kind << " " << subject << " failed: " << st.message();
  }
}

void DemoChurn::undoAll() {
  for (int s : std::set<int>(gnmi_down_)) apply({{}, sim::ChurnKind::kGnmiUp, s, -1});
  for (int s : std::set<int>(hidden_)) apply({{}, sim::ChurnKind::kRdmaDeviceBack, s, -1});
  if (sshd_down_) apply({{}, sim::ChurnKind::kSshdUp, 0, -1});
}

void DemoChurn::writeStats(bool final) const {
  unsigned long long notifications = 0, updates = 0;
  if (parts_.fleet) {
    for (size_t i = 0; i < parts_.fleet->size(); ++i) {
      notifications += parts_.fleet->target(i).notificationsSent();
      updates += parts_.fleet->target(i).updatesSent();
    }
  }
  const std::string tmp = stats_file_ + ".tmp";
  {
    std::ofstream out(tmp);
    out << "notifications_sent=" << notifications << "\nupdates_sent=" << updates << "\nevents=" << events_
        << "\nfinal=" << (final ? 1 : 0) << "\n";
    if (!out) return;
  }
  std::rename(tmp.c_str(), stats_file_.c_str());
}

void DemoChurn::run() {
  using namespace std::chrono;
  const auto t0 = steady_clock::now();
  milliseconds done{0};  // events before this offset are applied
  bool final = false;
  for (auto wake = t0 + seconds(1); sleepUntil(wake); wake += seconds(1)) {
    if (final) {
      writeStats(true);
      continue;
    }
    milliseconds now = duration_cast<milliseconds>(steady_clock::now() - t0);
    const bool ending = run_for_.count() > 0 && now >= run_for_;
    if (ending) now = run_for_;
    for (const sim::ChurnEvent& e : schedule_.between(done, now)) apply(e);
    done = now;
    if (ending) {
      undoAll();
      RDMAGW_LOG(kInfo, "churn") << "done: every fault undone; the gNMI servers stop (sent counts final)";
      // Nothing is sent after this: the counts written next are final.
      if (parts_.fleet) parts_.fleet->stop();
      final = true;
    }
    writeStats(final);
  }
}

}  // namespace rdmagw::gateway
