#include "northbound/snmp/snmp_agent.h"

#include <filesystem>

#include "models/log.h"
#include "northbound/snmp/agentx_subagent.h"
#include "northbound/snmp/snapshot_builder.h"

namespace rdmagw::northbound {
namespace {

// Net-SNMP's state is process-wide: one running agent at a time.
std::atomic<bool> g_agent_running{false};

}  // namespace

SnmpAgent::SnmpAgent(const Store& store, SnmpConfig config) : store_(store), config_(std::move(config)) {}

SnmpAgent::~SnmpAgent() { stop(); }

Status SnmpAgent::start() {
  if (running_) return Status::ok();
  if (Status st = config_.validate(); !st.isOk()) return st;
  if (Status st = snmp::MibCatalog::instance().checkSchema(); !st.isOk()) return st;
  std::error_code ec;
  std::filesystem::create_directories(config_.state_dir, ec);
  if (ec) return Status::ioError("state_dir " + config_.state_dir + ": " + ec.message());
  bool expected = false;
  if (!g_agent_running.compare_exchange_strong(expected, true)) {
    return Status::unavailable("an SNMP agent is already running in this process (Net-SNMP state is global)");
  }
  registry_ = std::make_unique<snmp::IfIndexRegistry>(config_.ifIndexStateFile());
  if (Status st = registry_->load(); !st.isOk()) {
    RDMAGW_LOG(kWarn, "snmp") << st.message();
  }
  {
    std::lock_guard lock(mu_);
    stopping_ = false;
    refresh_requested_ = false;
  }
  agent_start_ns_ = nowNs();
  snmp::SnapshotBuilder first(store_, *registry_, agent_start_ns_);
  {
    std::lock_guard lock(mu_);
    latest_ = first.build();
    ++latest_generation_;
  }
  agent_ = std::make_unique<snmp::AgentxSubagent>(
      config_, [this](uint64_t* generation) { return takeIfNewer(generation); }, &served_,
      &fast_answered_);
  if (Status st = agent_->start(); !st.isOk()) {
    agent_.reset();
    g_agent_running = false;
    return st;
  }
  refresh_thread_ = std::thread([this] { refreshLoop(); });
  running_ = true;
  RDMAGW_LOG(kInfo, "snmp") << "AgentX subagent on " << config_.agentx_socket << ", refresh every "
                            << config_.refresh_period.count() << "ms, ifIndex state " << config_.ifIndexStateFile();
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
  running_ = false;
  g_agent_running = false;
}

void SnmpAgent::refreshNow() {
  {
    std::lock_guard lock(mu_);
    refresh_requested_ = true;
  }
  cv_.notify_all();
}

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
  snmp::SnapshotBuilder builder(store_, *registry_, agent_start_ns_);
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
  }
}

}  // namespace rdmagw::northbound
