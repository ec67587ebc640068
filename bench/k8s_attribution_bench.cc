// What pod attribution costs on a full Kubernetes node: 110 pods (the
// kubelet's default pod limit), 16 of them holding an SR-IOV VF each
// (2 PFs x 8 VFs), the rest no RDMA device. The node is the simulator's
// (sim/k8s/sim_node.h): a real gRPC kubelet on a unix socket, file trees for
// /proc, the pod log directories and sysfs.
//
//   BM_K8sRefresh            one attribution refresh alone (kubelet List,
//                            /proc and log scan, sysfs, the join, the leaves)
//   BM_HostPoll/0 and /1     the host's RDMA poll without and with
//                            attribution: the difference is the per-poll
//                            overhead
//   BM_Scrape/0 and /1       /metrics built from a store holding the host
//                            without and with the pod entries
// rss_kib_per_pod: the growth of this process's RSS from holding the
// node's pod entries in a store and polling it, divided by the pods.

#include <benchmark/benchmark.h>
#include <stdlib.h>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <memory>
#include <string>

#include "models/store.h"
#include "northbound/prometheus/exposition.h"
#include "sim/fabric.h"
#include "sim/k8s/sim_node.h"
#include "sim/tree_writer.h"
#include "southbound/k8s/pod_attribution_source.h"
#include "southbound/rdma/rdma_factory.h"

namespace rdmagw::bench {
namespace {

namespace fs = std::filesystem;

constexpr int kPods = 110;
constexpr int kVfsPerPf = 8;

long rssKib() {
  std::ifstream status("/proc/self/status");
  std::string line;
  while (std::getline(status, line)) {
    if (line.rfind("VmRSS:", 0) == 0) return std::atol(line.c_str() + 6);
  }
  return 0;
}

// One simulated host with 2 RDMA devices, and the node around it.
class Node {
 public:
  Node() {
    dir_ = (fs::temp_directory_path() / "rdmagw-k8s-bench-XXXXXX").string();
    if (mkdtemp(dir_.data()) == nullptr) {
      error_ = "mkdtemp failed";
      return;
    }
    sim::FabricConfig cfg;
    cfg.hosts = 1;
    cfg.devices_per_host = 2;
    cfg.switches = 0;
    cfg.esxi_hosts = 0;
    sim::Fabric fabric(cfg);
    fabric.step();
    if (Status s = sim::writeTree(fabric, dir_); !s.isOk()) {
      error_ = s.message();
      return;
    }
    host_ = fabric.hosts().front();
    node_ = std::make_unique<sim::SimKubernetesNode>(hostDir(), host_, kVfsPerPf);
    if (Status s = node_->start(); !s.isOk()) {
      error_ = s.message();
      return;
    }
    std::vector<sim::SimPod> pods;
    for (int i = 0; i < kPods; ++i) {
      sim::SimPod pod{"jobs", "worker-" + std::to_string(i), "", "", {}, 0};
      char uid[40];
      std::snprintf(uid, sizeof uid, "00000000-0000-4000-8000-%012d", i);
      pod.uid = uid;
      if (i < 2 * kVfsPerPf) {
        pod.resource = "nvidia.com/sriov_rdma_vf";
        pod.device_ids = {sim::SimKubernetesNode::vfAddress(size_t(i / kVfsPerPf), i % kVfsPerPf)};
      }
      pods.push_back(std::move(pod));
    }
    if (Status s = node_->setPods(std::move(pods)); !s.isOk()) error_ = s.message();
  }
  ~Node() {
    node_.reset();
    std::error_code ec;
    fs::remove_all(dir_, ec);
  }
  const std::string& error() const { return error_; }

  southbound::PollSourcePtr hostSource() const {
    southbound::rdma::RdmaConfig rc;
    rc.sysfs_root = hostDir() + "/sys";
    rc.ethtool = southbound::rdma::RdmaConfig::EthtoolMode::kText;
    rc.ethtool_dir = hostDir() + "/ethtool";
    auto src = southbound::rdma::createRdmaSource(rc);
    return src.isOk() ? std::move(src).value() : nullptr;
  }
  southbound::PollSourcePtr attributed(southbound::PollSourcePtr host) const {
    const sim::SimNodePaths p = node_->paths();
    southbound::k8s::KubernetesConfig k;
    k.enabled = true;
    k.kubelet_socket = p.kubelet_socket;
    k.pod_logs_dir = p.pod_logs_dir;
    k.proc_root = p.proc_root;
    k.netns_dirs = {p.netns_dir};
    k.host_netns_file = p.host_netns_file;
    return std::make_unique<southbound::k8s::PodAttributionSource>(std::move(host), k, p.sysfs_root);
  }

 private:
  std::string hostDir() const { return dir_ + "/" + host_.name; }
  std::string dir_, error_;
  sim::Host host_;
  std::unique_ptr<sim::SimKubernetesNode> node_;
};

void BM_K8sRefresh(benchmark::State& state) {
  Node node;
  if (!node.error().empty()) return state.SkipWithError(node.error().c_str());
  southbound::PollSourcePtr source = node.attributed(nullptr);
  size_t updates = 0, errors = 0;
  for (auto _ : state) {
    PollBatch batch;
    benchmark::DoNotOptimize(source->poll(batch));
    updates = batch.updates.size();
    errors = batch.errors.size();
  }
  state.counters["pods"] = kPods;
  state.counters["vfs"] = 2 * kVfsPerPf;
  state.counters["updates"] = double(updates);
  state.counters["errors"] = double(errors);
}
BENCHMARK(BM_K8sRefresh)->Unit(benchmark::kMillisecond)->UseRealTime();

void BM_HostPoll(benchmark::State& state) {
  Node node;
  if (!node.error().empty()) return state.SkipWithError(node.error().c_str());
  southbound::PollSourcePtr source = node.hostSource();
  if (source == nullptr) return state.SkipWithError("no host source");
  if (state.range(0) == 1) source = node.attributed(std::move(source));
  size_t updates = 0;
  for (auto _ : state) {
    PollBatch batch;
    benchmark::DoNotOptimize(source->poll(batch));
    updates = batch.updates.size();
  }
  state.counters["kubernetes"] = double(state.range(0));
  state.counters["updates"] = double(updates);
}
BENCHMARK(BM_HostPoll)->Arg(0)->Arg(1)->Unit(benchmark::kMillisecond)->UseRealTime();

void BM_Scrape(benchmark::State& state) {
  Node node;
  if (!node.error().empty()) return state.SkipWithError(node.error().c_str());
  southbound::PollSourcePtr source = node.hostSource();
  if (source == nullptr) return state.SkipWithError("no host source");
  const bool pods = state.range(0) == 1;
  if (pods) source = node.attributed(std::move(source));
  const long rss_before = rssKib();
  Store store;
  for (int i = 0; i < 10; ++i) {
    PollBatch batch;
    source->poll(batch);
    store.apply("node01", batch);
  }
  const long rss_after = rssKib();
  northbound::prometheus::ExpositionWriter writer;
  northbound::prometheus::Exposition text;
  size_t bytes = 0;
  for (auto _ : state) {
    writer.build(store, &text);
    bytes = text.size();
    benchmark::DoNotOptimize(text.pieces().data());
  }
  state.counters["series"] = double(store.seriesCount());
  state.counters["bytes"] = double(bytes);
  // The pod entries add series; what must not grow is each series' cost.
  state.counters["ns_per_series"] = benchmark::Counter(
      double(store.seriesCount()) * 1e-9, benchmark::Counter::kIsIterationInvariantRate | benchmark::Counter::kInvert);
  state.counters["rss_kib"] = double(rss_after - rss_before);
  if (pods) state.counters["rss_kib_per_pod"] = double(rss_after - rss_before) / kPods;
}
BENCHMARK(BM_Scrape)->Arg(0)->Arg(1)->Unit(benchmark::kMicrosecond)->UseRealTime();

}  // namespace
}  // namespace rdmagw::bench
