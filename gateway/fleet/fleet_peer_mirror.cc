#include "gateway/fleet/fleet_peer_mirror.h"

#include <algorithm>
#include <atomic>
#include <memory>
#include <mutex>

#include "gateway/fleet/mirror_paths.h"
#include "models/self_metrics.h"
#include "models/value.h"
#include "northbound/gnmi/member_channels.h"
#include "southbound/gnmi/relay_source.h"

namespace rdmagw::gateway {
namespace {

// The copy's cost, for the self-metrics: written by the relay's thread and
// the subscription's callers, read by the exporter.
struct MirrorStats {
  std::atomic<uint64_t> bytes{0};
  std::atomic<uint64_t> notifications{0};
  std::atomic<int64_t> lag_ns{-1};
  std::atomic<uint64_t> resubscriptions{0};
  std::atomic<uint64_t> peer_ports{0};
  std::atomic<uint64_t> whole_targets{0};
};

// The subscription for the current needs, built again only when they change
// (the relay asks every second).
class SubscriptionCache {
 public:
  southbound::gnmi::PeerSubscription get(const analytics::MirrorNeeds& needs, std::chrono::milliseconds interval,
                                         MirrorStats& stats) {
    std::lock_guard lock(mu_);
    if (!built_ || needs != needs_ || interval != interval_) {
      needs_ = needs;
      interval_ = interval;
      subscription_ = mirrorSubscription(needs, interval);
      built_ = true;
      uint64_t ports = 0;
      for (const auto& entry : needs.ports) ports += entry.second.size();
      for (const auto& entry : needs.rdma_ports) ports += entry.second.size();
      stats.peer_ports = ports;
      stats.whole_targets = needs.whole.size();
    }
    return subscription_;
  }

 private:
  std::mutex mu_;
  bool built_ = false;                               // guarded by mu_
  analytics::MirrorNeeds needs_;                     // guarded by mu_
  std::chrono::milliseconds interval_{0};            // guarded by mu_
  southbound::gnmi::PeerSubscription subscription_;  // guarded by mu_
};

// Registers the self-metrics for the life of the source it wraps.
class MeteredMirror final : public southbound::StreamSource {
 public:
  MeteredMirror(southbound::StreamSourcePtr inner, std::shared_ptr<MirrorStats> stats, const Store& peers)
      : inner_(std::move(inner)), stats_(std::move(stats)) {
    metrics_id_ = SelfMetrics::instance().add([s = stats_, &peers](std::vector<SelfMetricSample>* out) {
      out->push_back({"fleet_mirror_series", {}, double(peers.seriesCount())});
      out->push_back({"fleet_mirror_peer_ports", {}, double(s->peer_ports.load())});
      out->push_back({"fleet_mirror_whole_targets", {}, double(s->whole_targets.load())});
      out->push_back({"fleet_mirror_received_bytes", {}, double(s->bytes.load())});
      out->push_back({"fleet_mirror_notifications", {}, double(s->notifications.load())});
      out->push_back({"fleet_mirror_resubscriptions", {}, double(s->resubscriptions.load())});
      if (const int64_t lag = s->lag_ns.load(); lag >= 0) out->push_back({"fleet_mirror_lag_seconds", {}, lag / 1e9});
    });
  }
  ~MeteredMirror() override {
    inner_->stop();
    SelfMetrics::instance().remove(metrics_id_);
  }
  Status start() override { return inner_->start(); }
  void stop() override { inner_->stop(); }

 private:
  southbound::StreamSourcePtr inner_;
  std::shared_ptr<MirrorStats> stats_;
  uint64_t metrics_id_ = 0;
};

}  // namespace

Result<southbound::StreamSourcePtr> createFleetPeerMirror(FleetPeerMirrorOptions options, const Fleet& fleet,
                                                          const FleetView& view, Store& peers) {
  if (!options.analytics_period || options.needs == nullptr) {
    return Status::invalidArgument("fleet peer mirror: analytics_period and needs are required");
  }
  auto stats = std::make_shared<MirrorStats>();
  auto cache = std::make_shared<SubscriptionCache>();
  southbound::gnmi::PeerRelayOptions po;
  po.backoff_initial = options.backoff_initial;
  po.backoff_max = options.backoff_max;
  po.subscription = [period = options.analytics_period, needs = options.needs, floor = options.gnmi.min_sample_interval,
                     cache, stats]() -> southbound::gnmi::PeerSubscription {
    const std::optional<std::chrono::milliseconds> p = period();
    if (!p) return {};
    return cache->get(needs->read(), std::max(*p, floor), *stats);
  };
  // A fresh MemberChannels per dial: a reconnect reads the TLS files again.
  po.channel = [gnmi = std::move(options.gnmi), address = std::move(options.gnmi_address)] {
    northbound::gnmi::MemberChannels channels(gnmi);
    return channels.channel(address);
  };
  po.ownership = [&view, &fleet] {
    southbound::gnmi::RelayOwnership out;
    const FleetSnapshot snapshot = view.snapshot();
    for (const auto& [target, owner] : snapshot.owners) {
      out.known.insert(target);
      if (owner == fleet.memberName()) out.mine.insert(target);
    }
    return out;
  };
  po.kind = [&fleet](const std::string& target) { return fleet.kindOf(target); };
  po.received = [stats](size_t bytes, int64_t timestamp_ns) {
    stats->bytes += bytes;
    ++stats->notifications;
    if (timestamp_ns > 0) stats->lag_ns = std::max<int64_t>(0, nowNs() - timestamp_ns);
  };
  po.resubscribed = [stats] { ++stats->resubscriptions; };
  Result<southbound::StreamSourcePtr> relay = southbound::gnmi::createPeerRelaySource(std::move(po), peers);
  if (!relay.isOk()) return relay.status();
  return southbound::StreamSourcePtr(new MeteredMirror(std::move(relay).value(), std::move(stats), peers));
}

}  // namespace rdmagw::gateway
