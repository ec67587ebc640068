#include "gateway/pipeline.h"

#include "analytics/analytics_stage.h"
#include "gateway/pipeline_watchdog.h"
#include "gateway/registry.h"
#include "gateway/service_notify.h"
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

Pipeline::Pipeline(GatewayConfig config)
    : config_(std::move(config)), store_(config_.max_series_per_target) {}

Pipeline::~Pipeline() { stop(); }

Status Pipeline::start() {
  southbound::ssh::setMaxConcurrentSsh(config_.max_concurrent_ssh);
  southbound::setMaxConcurrentGnmiHandshakes(config_.max_concurrent_gnmi_handshakes);
  setIngestNice(config_.ingest_nice);  // before any ingest thread starts
  if (config_.spread_subscriptions) spreadFirstDials(config_.targets);
  auto scheduler = std::make_unique<southbound::PollScheduler>(store_, config_.max_concurrent_polls);
  std::vector<southbound::StreamSourcePtr> streams;
  for (const TargetConfig& t : config_.targets) {
    if (const StreamFactory* stream = findStreamFactory(t.kind, t.transport)) {
      Result<southbound::StreamSourcePtr> source = (*stream)(t, store_);
      if (!source.isOk()) return Status::invalidArgument("target " + t.name + ": " + source.status().message());
      streams.push_back(std::move(source).value());
      continue;
    }
    const SourceFactory* factory = findSourceFactory(t.kind);
    if (factory == nullptr) return Status::invalidArgument("target " + t.name + ": no collector for kind " + t.kind);
    Result<southbound::PollSourcePtr> source = (*factory)(t);
    if (!source.isOk()) return Status::invalidArgument("target " + t.name + ": " + source.status().message());
    scheduler->add(southbound::PollTarget{t.name, t.kind, std::move(source).value(), t.interval,
                                          t.stale_after, t.labels});
  }
  if (config_.prometheus_enabled) {
    prometheus_ = std::make_unique<northbound::PrometheusServer>(store_, config_.prometheus);
    if (Status st = prometheus_->start(); !st.isOk()) {
      prometheus_.reset();
      return st;
    }
  }
  if (config_.snmp_enabled) {
    // Starts while snmpd is absent too: the subagent connects when it can.
    snmp_ = std::make_unique<northbound::SnmpAgent>(store_, config_.snmp);
    if (Status st = snmp_->start(); !st.isOk()) {
      snmp_.reset();
      return Status::unavailable("northbound.snmp: " + st.message());
    }
  }
  if (config_.gnmi_enabled) {
    gnmi_ = std::make_unique<northbound::GnmiServer>(store_, config_.gnmi);
    if (Status st = gnmi_->start(); !st.isOk()) {
      gnmi_.reset();
      return st;
    }
  }
  admin_ = std::make_unique<northbound::AdminServer>(store_, config_.admin, [this] { return northboundStates(); });
  if (Status st = admin_->start(); !st.isOk()) {
    admin_.reset();
    return st;
  }
  if (config_.analytics_enabled) {
    analytics_ = std::make_unique<analytics::AnalyticsStage>(store_, config_.analytics);
    analytics_->start();
  }
  scheduler_ = std::move(scheduler);
  scheduler_->start();
  streams_ = std::move(streams);
  for (auto& s : streams_) {
    if (Status st = s->start(); !st.isOk()) return st;
  }
  RDMAGW_LOG(kInfo, "gateway") << config_.targets.size() << " target(s): "
                               << config_.targets.size() - streams_.size() << " polled, " << streams_.size()
                               << " streaming (gNMI)";
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

void Pipeline::stop() {
  if (watchdog_) {
    watchdog_->stop();
    watchdog_.reset();
  }
  if (admin_) {
    admin_->stop();
    admin_.reset();
  }
  for (auto& s : streams_) s->stop();
  streams_.clear();
  if (scheduler_) {
    scheduler_->stop();
    scheduler_.reset();
  }
  if (analytics_) {
    analytics_->stop();
    analytics_.reset();
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
