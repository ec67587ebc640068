#include "southbound/k8s/pod_attribution_source.h"

#include <set>
#include <utility>

#include "southbound/k8s/attribution_leaves.h"
#include "southbound/k8s/pod_logs.h"
#include "southbound/k8s/pod_netns.h"
#include "southbound/k8s/sriov_sysfs.h"

namespace rdmagw::southbound::k8s {
namespace {

PodResourcesClientOptions kubeletOptions(const KubernetesConfig& config) {
  PodResourcesClientOptions options;
  options.socket_path = config.kubelet_socket;
  options.call_timeout = config.kubelet_timeout;
  return options;
}

}  // namespace

PodAttributionSource::PodAttributionSource(PollSourcePtr host, KubernetesConfig config, const std::string& sysfs_root,
                                           PodNetnsAccess netns)
    : host_(std::move(host)),
      config_(std::move(config)),
      sysfs_root_(config_.sysfs_root.empty() ? sysfs_root : config_.sysfs_root),
      kubelet_(kubeletOptions(config_)),
      netdevs_(std::move(netns.netdevs)),
      counters_(std::move(netns.open)) {
  // Every stage is exported from the start, so a rate over it is defined
  // before its first error.
  for (const char* stage :
       {"podresources", "pod-logs", "netns-scan", "sriov-sysfs", "netns-read", "netns-counters", "vf-stats"}) {
    errors_[stage] = 0;
  }
  vf_stats_on_ = config_.vf_stats == "on" || (config_.vf_stats == "auto" && sysfs_root_ == "/sys");
  if (config_.qp_counters != QpCountersMode::kOff) {
    qp_counters_ = std::make_unique<QpCounterReader>(config_.qp_counters, config_.proc_root);
    errors_["qp-counters"] = 0;
  }
}

void PodAttributionSource::failed(const std::string& stage, const Status& status, PollBatch& batch) {
  ++errors_[stage];
  batch.error("kubernetes " + stage + ": " + status.message());
}

bool PodAttributionSource::readFacts(NodeFacts& facts, PollBatch& batch) {
  Result<std::vector<PodAssignment>> pods = kubelet_.list();
  if (!pods.isOk()) {
    failed("podresources", pods.status(), batch);
    return false;
  }
  facts.pods = std::move(pods).value();

  // Without one of the other facts the join still runs: what it cannot
  // confirm it reports as unconfirmed, and the stage's error says why.
  Result<PodLogScan> logs = scanPodLogDirs(config_.pod_logs_dir);
  if (logs.isOk()) {
    facts.identities = std::move(logs->pods);
  } else {
    failed("pod-logs", logs.status(), batch);
  }
  PodNetnsOptions netns_options;
  netns_options.proc_root = config_.proc_root;
  netns_options.netns_dirs = config_.netns_dirs;
  netns_options.host_netns_file = config_.host_netns_file;
  Result<PodNetnsScan> netns = scanPodNetns(netns_options);
  if (netns.isOk()) {
    facts.netns = std::move(netns).value();
    if (!facts.netns.errors.empty()) failed("netns-scan", Status::ioError(facts.netns.errors.front()), batch);
  } else {
    failed("netns-scan", netns.status(), batch);
  }
  Result<std::vector<PhysicalFunction>> sriov = SriovSysfs(sysfs_root_).physicalFunctions();
  if (sriov.isOk()) {
    facts.sriov = std::move(sriov).value();
  } else {
    failed("sriov-sysfs", sriov.status(), batch);
  }
  return true;
}

void PodAttributionSource::readCounters(std::vector<AttributionRow>& rows, PollBatch& batch) {
  for (const Status& failure : counters_.poll(rows, batch)) failed("netns-counters", failure, batch);
}

void PodAttributionSource::pollQpCounters(const NodeFacts& facts, TimestampNs ts, PollBatch& batch) {
  // The pods whose log directories are there still exist; without the list
  // (the kubelet or the scan failed) no total is dropped.
  std::set<std::string> live;
  for (const PodIdentity& pod : facts.identities) live.insert(pod.pod_uid);
  Status st = qp_counters_->poll(live.empty() ? nullptr : &live, ts, batch);
  if (!st.isOk()) failed("qp-counters", st, batch);
}

Status PodAttributionSource::poll(PollBatch& batch) {
  Status host = host_ ? host_->poll(batch) : Status::ok();
  const TimestampNs ts = nowNs();
  NodeFacts facts;
  AttributionHealth health;
  health.podresources_up = readFacts(facts, batch);
  if (qp_counters_) pollQpCounters(facts, ts, batch);
  if (!health.podresources_up) {
    std::vector<AttributionRow> rows = last_rows_;
    readCounters(rows, batch);
    health.netns_handles = counters_.openHandles();
    health.errors = errors_;
    writeHealth(health, {}, ts, batch);
    return host;
  }
  Attribution attribution = attributeDevices(facts, [&](const std::string& netns_path) {
    Result<std::vector<NetnsNetdev>> netdevs = netdevs_(netns_path);
    if (!netdevs.isOk()) failed("netns-read", netdevs.status(), batch);
    return netdevs;
  });
  last_rows_ = attribution.rows;
  readCounters(attribution.rows, batch);
  writePodEntries(attribution, ts, batch);
  if (vf_stats_on_) {
    std::vector<Status> vf_errors;
    writeVfStats(readPfVfStats(facts.sriov, vf_stats_, vf_errors), ts, batch);
    for (const Status& error : vf_errors) failed("vf-stats", error, batch);
  }
  health.pods = facts.pods.size();
  for (const AttributionRow& row : attribution.rows) {
    if (row.mode != AttributionMode::kUnconfirmed) ++health.devices_attributed;
  }
  health.netns_handles = counters_.openHandles();
  health.errors = errors_;
  writeHealth(health, attribution.unattributed, ts, batch);
  return host;
}

}  // namespace rdmagw::southbound::k8s
