#include "northbound/snmp/snmp_agent.h"

#include <malloc.h>

#include <filesystem>

#include "models/log.h"
#include "models/self_metrics.h"
#include "northbound/snmp/agentx_subagent.h"
#include "northbound/snmp/snapshot_builder.h"
#include "models/thread_role.h"

namespace rdmagw::northbound::snmp {
namespace {

// Net-SNMP's state is process-wide: one running agent at a time.
std::atomic<bool> g_agent_running{false};

}  // namespace

SnmpAgent::SnmpAgent(const Store& store, SnmpConfig config, const FleetView* fleet)
    : store_(store), config_(std::move(config)), fleet_(fleet) {}

SnmpAgent::~SnmpAgent() { stop(); }

Status SnmpAgent::start() {
  if (running_) return Status::ok();
  if (Status st = config_.validate(); !st.isOk()) return st;
  if (Status st = config_.validateNotifications(); !st.isOk()) return st;
  if (Status st = snmp::MibCatalog::instance().checkSchema(); !st.isOk()) return st;
  std::error_code ec;
  std::filesystem::create_directories(config_.state_dir, ec);
  if (ec) return Status::ioError("state_dir " + config_.state_dir + ": " + ec.message());
  bool expected = false;
  if (!g_agent_running.compare_exchange_strong(expected, true)) {
    return Status::unavailable("an SNMP agent is already running in this process (Net-SNMP state is global)");
  }
  registry_ = std::make_unique<snmp::IfIndexRegistry>(config_.ifIndexStateFile(), config_.if_index);
  if (Status st = registry_->load(); !st.isOk()) {
    RDMAGW_LOG(kWarn, "snmp") << st.message();
  }
  {
    std::lock_guard lock(mu_);
    stopping_ = false;
    refresh_requested_ = false;
  }
  agent_start_ns_ = nowNs();
  snmp::SnapshotBuilder first(store_, *registry_, agent_start_ns_, fleet_);
  {
    std::lock_guard lock(mu_);
    latest_ = first.build();
    ++latest_generation_;
  }
  if (!config_.notifications.empty()) {
    notify_counters_ = std::make_unique<snmp::NotifyCounters>(config_.notifications.size());
    self_metrics_id_ = SelfMetrics::instance().add(
        [this](std::vector<SelfMetricSample>* out) { appendNotifyMetrics(out); });
  }
  agent_ = std::make_unique<snmp::AgentxSubagent>(
      config_, [this](uint64_t* generation) { return takeIfNewer(generation); }, &served_,
      &fast_answered_, notify_counters_.get());
  if (Status st = agent_->start(); !st.isOk()) {
    agent_.reset();
    dropNotifyMetrics();
    g_agent_running = false;
    return st;
  }
  refresh_thread_ = std::thread([this] {
    enterThreadRole("snmp-refresh", ThreadRole::kServe);
    refreshLoop();
  });
  running_ = true;
  RDMAGW_LOG(kInfo, "snmp") << "AgentX subagent on " << config_.agentx_socket << ", refresh every "
                            << config_.refresh_period.count() << "ms, ifIndex "
                            << (config_.if_index == snmp::IfIndexScheme::kDerived
                                    ? std::string("derived from interface names")
                                    : "state " + config_.ifIndexStateFile());
  return Status::ok();
}

void SnmpAgent::stop() {
  if (!running_) return;
  {
    std::lock_guard lock(mu_);
    stopping_ = true;
  }
  cv_.notify_all();
  if (refresh_thread_.joinable()) refresh_thread_.join();
  agent_->stop();
  agent_.reset();
  dropNotifyMetrics();
  running_ = false;
  g_agent_running = false;
}

// Not against a concurrent start()/stop(): the caller (the admin server)
// stops before the agent does.
bool SnmpAgent::agentxConnected() const { return running_ && agent_ != nullptr && agent_->connected(); }

void SnmpAgent::refreshNow() {
  {
    std::lock_guard lock(mu_);
    refresh_requested_ = true;
  }
  cv_.notify_all();
}

void SnmpAgent::appendNotifyMetrics(std::vector<SelfMetricSample>* out) const {
  std::span<const snmp::NotificationDef> defs = snmp::notificationTable();
  for (size_t t = 0; t < defs.size(); ++t) {
    const std::string type(defs[t].type);
    for (size_t d = 0; d < config_.notifications.size(); ++d) {
      const std::string dest = config_.notifications[d].label();
      out->push_back({"snmp_notifications_sent", {dest, type}, double(notify_counters_->sent[d][t].load())});
      out->push_back({"snmp_notifications_failed", {dest, type}, double(notify_counters_->failed[d][t].load())});
    }
    out->push_back({"snmp_notifications_dropped", {type}, double(notify_counters_->dropped[t].load())});
  }
  out->push_back({"snmp_notifications_in_flight", {}, double(notify_counters_->in_flight.load())});
}

void SnmpAgent::dropNotifyMetrics() {
  if (self_metrics_id_ != 0) SelfMetrics::instance().remove(self_metrics_id_);
  self_metrics_id_ = 0;
  notify_counters_.reset();
}

std::string SnmpAgent::engineIdHex() const { return agent_ ? agent_->engineIdHex() : std::string(); }

snmp::MibSnapshotPtr SnmpAgent::latestSnapshot() const {
  std::lock_guard lock(mu_);
  return latest_;
}

snmp::MibSnapshotPtr SnmpAgent::takeIfNewer(uint64_t* generation) {
  std::lock_guard lock(mu_);
  if (latest_generation_ == *generation) return nullptr;
  *generation = latest_generation_;
  return latest_;
}

void SnmpAgent::refreshLoop() {
  snmp::SnapshotBuilder builder(store_, *registry_, agent_start_ns_, fleet_);
  std::unique_lock lock(mu_);
  while (!stopping_) {
    cv_.wait_for(lock, config_.refresh_period, [this] { return stopping_ || refresh_requested_; });
    if (stopping_) break;
    refresh_requested_ = false;
    lock.unlock();
    snmp::MibSnapshotPtr snap = builder.build();  // store reads only; no lock of ours held
    RDMAGW_LOG(kDebug, "snmp") << "snapshot: " << snap->cells << " objects in "
                               << snap->build_duration_ns / 1000 << "us";
    if (snap->mismatched_cells > 0) {
      // Cannot happen for schema leaves (checkSchema); a builder column would be a code bug.
      RDMAGW_LOG(kWarn, "snmp") << snap->mismatched_cells << " values left out: SNMP type not their column's";
    }
    lock.lock();
    latest_ = std::move(snap);
    ++latest_generation_;
    lock.unlock();
    // The previous snapshot (tens of MB at a million series, in blocks below
    // glibc's mmap threshold) went back to the heap, which keeps it: hand
    // the free pages back to the kernel (in a 1M-series scale run, this trim
    // and the one after each scrape together kept ~70-90 MB of RSS off).
    malloc_trim(0);
    lock.lock();
  }
}

}  // namespace rdmagw::northbound::snmp
