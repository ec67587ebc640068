#include "gateway/runtime/pipeline.h"

#include <optional>

#include "analytics/analytics_stage.h"
#include "gateway/runtime/pipeline_watchdog.h"
#include "gateway/runtime/registry.h"
#include "gateway/runtime/service_notify.h"
#include "gateway/runtime/target_set_diff.h"
#include "models/log.h"
#include "models/thread_role.h"
#include "northbound/admin/admin_server.h"
#include "northbound/gnmi/gnmi_server.h"
#include "northbound/prometheus/prometheus_server.h"
#include "northbound/snmp/snmp_agent.h"
#include "southbound/handshake_gate.h"
#include "southbound/poll_scheduler.h"
#include "southbound/ssh/ssh_factory.h"

namespace rdmagw::gateway {
namespace {

// The analytics as configured, told which kinds are switches, hosts and
// hypervisors by the components this binary registers.
analytics::AnalyticsConfig withRoles(analytics::AnalyticsConfig config) {
  config.roles = targetRoles();
  return config;
}

}  // namespace

// A target's source, made but not started.
struct Pipeline::Built {
  std::string name;
  southbound::StreamSourcePtr stream;     // set for streamed targets
  std::optional<southbound::PollTarget> poll;  // set for polled ones
};

Pipeline::Pipeline(GatewayConfig config)
    : config_(std::move(config)), store_(config_.max_series_per_target), peer_store_(config_.max_series_per_target) {}

Pipeline::~Pipeline() { stop(); }

Result<Pipeline::Built> Pipeline::build(const TargetConfig& t) {
  Built b;
  b.name = t.name;
  if (const StreamFactory* stream = findStreamFactory(t.kind, t.transport)) {
    Result<southbound::StreamSourcePtr> source = (*stream)(t, store_);
    if (!source.isOk()) return Status::invalidArgument("target " + t.name + ": " + source.status().message());
    b.stream = std::move(source).value();
    return b;
  }
  const SourceFactory* factory = findSourceFactory(t.kind);
  if (factory == nullptr) return Status::invalidArgument("target " + t.name + ": no collector for kind " + t.kind);
  Result<southbound::PollSourcePtr> source = (*factory)(t);
  if (!source.isOk()) return Status::invalidArgument("target " + t.name + ": " + source.status().message());
  b.poll = southbound::PollTarget{t.name, t.kind, std::move(source).value(), t.interval, t.stale_after, t.labels};
  return b;
}

void Pipeline::startBuilt(Built built) {
  const bool streamed = built.stream != nullptr;
  if (streamed) {
    // start() only fails on a programming error (a source started twice);
    // a device that cannot be reached is retried and shown in its health.
    if (Status st = built.stream->start(); !st.isOk()) {
      RDMAGW_LOG(kError, "gateway") << "target " << built.name << ": " << st.message();
    }
    streams_[built.name] = std::move(built.stream);
  } else {
    scheduler_->add(std::move(*built.poll));
  }
  running_[built.name] = streamed;
}

void Pipeline::stopTarget(const std::string& name) {
  auto it = running_.find(name);
  if (it == running_.end()) return;
  if (it->second) {
    auto s = streams_.find(name);
    if (s != streams_.end()) {
      s->second->stop();
      streams_.erase(s);
    }
  } else {
    scheduler_->remove(name);
  }
  running_.erase(it);
  // Nothing writes the target any more: its series leave the store, and with
  // them every northbound. A gateway relayed through it (kind rdmagw) wrote
  // its devices as targets of their own, labelled via=<name>: they go too.
  for (const TargetStatus& t : store_.targets()) {
    for (const auto& [key, value] : t.health.labels) {
      if (key == "via" && value == name && t.name != name) store_.removeTarget(t.name);
    }
  }
  store_.removeTarget(name);
}

Status Pipeline::start() {
  southbound::ssh::setMaxConcurrentSsh(config_.max_concurrent_ssh);
  southbound::setMaxConcurrentGnmiHandshakes(config_.max_concurrent_gnmi_handshakes);
  setIngestNice(config_.ingest_nice);  // before any ingest thread starts
  std::vector<TargetConfig> targets = config_.targets;
  if (config_.spread_subscriptions) spreadFirstDials(targets);
  std::vector<Built> built;
  for (const TargetConfig& t : targets) {
    Result<Built> b = build(t);
    if (!b.isOk()) return b.status();
    built.push_back(std::move(b).value());
  }
  if (config_.prometheus_enabled) {
    prometheus_ = std::make_unique<northbound::prometheus::PrometheusServer>(store_, config_.prometheus, &fleet_view_);
    if (Status st = prometheus_->start(); !st.isOk()) {
      prometheus_.reset();
      return st;
    }
  }
  if (config_.snmp_enabled) {
    // Starts while snmpd is absent too: the subagent connects when it can.
    snmp_ = std::make_unique<northbound::snmp::SnmpAgent>(store_, config_.snmp, &fleet_view_);
    if (Status st = snmp_->start(); !st.isOk()) {
      snmp_.reset();
      return Status::unavailable("northbound.snmp: " + st.message());
    }
  }
  if (config_.gnmi_enabled) {
    gnmi_ = std::make_unique<northbound::gnmi::GnmiServer>(store_, config_.gnmi, &fleet_view_);
    if (Status st = gnmi_->start(); !st.isOk()) {
      gnmi_.reset();
      return st;
    }
  }
  admin_ = std::make_unique<northbound::admin::AdminServer>(store_, config_.admin, [this] { return northboundStates(); });
  if (Status st = admin_->start(); !st.isOk()) {
    admin_.reset();
    return st;
  }
  if (config_.analytics_enabled) {
    analytics_ =
        std::make_unique<analytics::AnalyticsStage>(store_, withRoles(config_.analytics), &peer_store_, &mirror_needs_);
    analytics_->start();
  }
  {
    std::lock_guard state_lock(analytics_state_mu_);
    analytics_state_ = {config_.analytics_enabled, config_.analytics.period};
  }
  std::unique_lock lock(targets_mu_);
  scheduler_ = std::make_unique<southbound::PollScheduler>(store_, config_.max_concurrent_polls);
  size_t streamed = 0;
  for (Built& b : built) {
    if (b.stream) {
      ++streamed;
      continue;
    }
    startBuilt(std::move(b));
  }
  scheduler_->start();
  for (Built& b : built) {
    if (b.stream) startBuilt(std::move(b));
  }
  RDMAGW_LOG(kInfo, "gateway") << targets.size() << " target(s): " << targets.size() - streamed << " polled, "
                               << streamed << " streaming (gNMI)";
  lock.unlock();
  notifyServiceManager();
  return Status::ok();
}

void Pipeline::notifyServiceManager() {
  std::string line = std::to_string(config_.targets.size()) + " target(s)";
  if (prometheus_) line += "; prometheus :" + std::to_string(prometheus_->port());
  if (gnmi_) line += "; gnmi " + gnmi_->address();
  if (snmp_) line += "; snmp agentx " + config_.snmp.agentx_socket;
  service_notify::status(line);
  service_notify::ready();
  const std::optional<std::chrono::microseconds> interval = service_notify::watchdogInterval();
  if (!interval) return;
  if (*interval < 4 * southbound::PollScheduler::kHeartbeatPeriod) {
    RDMAGW_LOG(kWarn, "watchdog") << "WatchdogSec= below "
                                  << 4 * southbound::PollScheduler::kHeartbeatPeriod.count() / 1000
                                  << "s: the scheduler's heartbeat may miss it";
  }
  // Alive: a scheduler worker went round its loop since the last look, and
  // the store answers a read (neither lock is wedged).
  auto last = std::make_shared<uint64_t>(UINT64_MAX);
  watchdog_ = std::make_unique<PipelineWatchdog>(*interval, [this, last] {
    const uint64_t beat = scheduler_->heartbeat();
    (void)store_.seriesCount();
    const bool moved = beat != *last;
    *last = beat;
    return moved;
  });
  watchdog_->start();
}

Status Pipeline::applyTargets(const TargetSetDiff& diff) {
  std::lock_guard lock(targets_mu_);
  if (!scheduler_) return Status::unavailable("the gateway is not running");
  std::vector<TargetConfig> fresh = diff.added;
  fresh.insert(fresh.end(), diff.changed.begin(), diff.changed.end());
  // The new switches' first dials spread among themselves; the running ones
  // keep the streams they have.
  if (config_.spread_subscriptions) spreadFirstDials(fresh);
  std::vector<Built> built;
  for (const TargetConfig& t : fresh) {
    Result<Built> b = build(t);
    if (!b.isOk()) return b.status();
    built.push_back(std::move(b).value());
  }
  for (const std::string& name : diff.removed) stopTarget(name);
  for (const TargetConfig& t : diff.changed) stopTarget(t.name);
  for (Built& b : built) startBuilt(std::move(b));
  return Status::ok();
}

void Pipeline::setAnalytics(bool enabled, const analytics::AnalyticsConfig& config) {
  std::lock_guard lock(targets_mu_);
  if (analytics_) {
    analytics_->stop();
    analytics_.reset();
  }
  config_.analytics_enabled = enabled;
  config_.analytics = config;
  {
    std::lock_guard state_lock(analytics_state_mu_);
    analytics_state_ = {enabled, config.period};
  }
  if (!enabled) {
    mirror_needs_.clear();
    return;
  }
  analytics_ = std::make_unique<analytics::AnalyticsStage>(store_, withRoles(config), &peer_store_, &mirror_needs_);
  analytics_->start();
}

Pipeline::AnalyticsState Pipeline::analyticsState() const {
  std::lock_guard lock(analytics_state_mu_);
  return analytics_state_;
}

void Pipeline::stop() {
  if (watchdog_) {
    watchdog_->stop();
    watchdog_.reset();
  }
  if (admin_) {
    admin_->stop();
    admin_.reset();
  }
  {
    std::lock_guard lock(targets_mu_);
    for (auto& [name, s] : streams_) s->stop();
    streams_.clear();
    if (scheduler_) {
      scheduler_->stop();
      scheduler_.reset();
    }
    running_.clear();
    if (analytics_) {
      analytics_->stop();
      analytics_.reset();
    }
  }
  if (snmp_) {
    snmp_->stop();
    snmp_.reset();
  }
  if (gnmi_) {
    gnmi_->stop();
    gnmi_.reset();
  }
  if (prometheus_) {
    prometheus_->stop();
    prometheus_.reset();
  }
}

std::vector<std::string> Pipeline::targetNames() const {
  std::lock_guard lock(targets_mu_);
  std::vector<std::string> out;
  for (const auto& [name, streamed] : running_) out.push_back(name);
  return out;
}

int Pipeline::prometheusPort() const { return prometheus_ ? prometheus_->port() : -1; }
std::string Pipeline::gnmiAddress() const { return gnmi_ ? gnmi_->address() : std::string(); }
std::string Pipeline::adminSocket() const { return admin_ && admin_->serving() ? admin_->path() : std::string(); }

northbound::admin::NorthboundStates Pipeline::northboundStates() const {
  northbound::admin::NorthboundStates s;
  if (prometheus_) {
    s.prometheus.enabled = true;
    const std::string& listen = config_.prometheus.listen;
    s.prometheus.listen = listen.substr(0, listen.rfind(':')) + ":" + std::to_string(prometheus_->port());
    s.prometheus.scrapes = prometheus_->scrapes();
    s.prometheus.last_scrape_ns = prometheus_->lastScrapeNs();
  }
  if (snmp_) {
    s.snmp.enabled = true;
    s.snmp.agentx_socket = config_.snmp.agentx_socket;
    s.snmp.agentx_connected = snmp_->agentxConnected();
  }
  if (gnmi_) {
    s.gnmi.enabled = true;
    s.gnmi.address = gnmi_->address();
  }
  return s;
}

}  // namespace rdmagw::gateway
