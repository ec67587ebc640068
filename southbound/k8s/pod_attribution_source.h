#pragma once
// Pod attribution beside a Kubernetes node's RDMA collector: each poll reads
// the host's devices as before, then asks the kubelet which pods hold which
// devices, joins that with the node's own facts (attribution.h) and writes
// the pod entries and the attribution's health (attribution_leaves.h).
//
// No process is forked: the kubelet is asked over its socket, the rest is
// /proc, /sys, the pod log directories and setns into each pod's netns.
// When the kubelet does not answer, the last poll's pod entries stay (they
// are not replaced) and podresources-up says 0: pods do not change owner
// because their kubelet is restarting. The counters of exclusive devices
// (pod_netns_counters.h) go on being read for the last poll's pods then.

#include <map>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "southbound/k8s/attribution.h"
#include "southbound/k8s/kubernetes_config.h"
#include "southbound/k8s/netns_netdevs.h"
#include "southbound/k8s/pod_netns_counters.h"
#include "southbound/k8s/podresources_client.h"
#include "southbound/k8s/vf_stats.h"
#include "southbound/k8s/qp_counters.h"
#include "southbound/poll_source.h"

namespace rdmagw::southbound::k8s {

// How pods' netns are read: the defaults enter the real ones. Tests replace
// them (a veth has no PCI bus-info to confirm a VF by; no RDMA core here).
struct PodNetnsAccess {
  NetnsNetdevLookup netdevs = listNetnsNetdevs;
  PodNetnsOpener open = PodNetnsHandle::open;
};

class PodAttributionSource : public PollSource {
 public:
  // `host` may be null (attribution alone). `sysfs_root` is the collector's,
  // used unless config.sysfs_root is set.
  PodAttributionSource(PollSourcePtr host, KubernetesConfig config, const std::string& sysfs_root,
                       PodNetnsAccess netns = {});

  std::string_view transport() const override { return host_ ? host_->transport() : "kubelet"; }
  // The host collector's status; attribution problems are batch errors.
  Status poll(PollBatch& batch) override;

 private:
  // The node's facts; false when the kubelet did not answer.
  bool readFacts(NodeFacts& facts, PollBatch& batch);
  void pollQpCounters(const NodeFacts& facts, TimestampNs ts, PollBatch& batch);
  void failed(const std::string& stage, const Status& status, PollBatch& batch);
  // The counters of the rows' exclusive devices; may set their rdma_device.
  void readCounters(std::vector<AttributionRow>& rows, PollBatch& batch);

  PollSourcePtr host_;
  KubernetesConfig config_;
  std::string sysfs_root_;
  PodResourcesClient kubelet_;
  NetnsNetdevLookup netdevs_;
  PodNetnsCounters counters_;
  std::vector<AttributionRow> last_rows_;   // the last refresh's, as the join gave them
  std::map<std::string, uint64_t> errors_;  // by stage, since start
  bool vf_stats_on_ = false;                // config_.vf_stats resolved
  VfStatsReader vf_stats_;
  std::unique_ptr<QpCounterReader> qp_counters_;  // null when qp_counters is off
};

}  // namespace rdmagw::southbound::k8s
