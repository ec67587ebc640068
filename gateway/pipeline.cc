#include "gateway/pipeline.h"

#include "gateway/registry.h"
#include "models/log.h"
#include "northbound/prometheus/prometheus_server.h"
#include "southbound/poll_scheduler.h"
#include "southbound/ssh/ssh_factory.h"

namespace rdmagw::gateway {

Pipeline::Pipeline(GatewayConfig config) : config_(std::move(config)) {}

Pipeline::~Pipeline() { stop(); }

Status Pipeline::start() {
  southbound::ssh::setMaxConcurrentSsh(config_.max_concurrent_ssh);
  auto scheduler = std::make_unique<southbound::PollScheduler>(store_, config_.max_concurrent_polls);
  for (const TargetConfig& t : config_.targets) {
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
  scheduler_ = std::move(scheduler);
  scheduler_->start();
  RDMAGW_LOG(kInfo, "gateway") << "polling " << config_.targets.size() << " target(s)";
  return Status::ok();
}

void Pipeline::stop() {
  if (scheduler_) {
    scheduler_->stop();
    scheduler_.reset();
  }
  if (prometheus_) {
    prometheus_->stop();
    prometheus_.reset();
  }
}

int Pipeline::prometheusPort() const { return prometheus_ ? prometheus_->port() : -1; }

}  // namespace rdmagw::gateway
