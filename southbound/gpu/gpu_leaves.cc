#include "southbound/gpu/gpu_leaves.h"

#include <optional>

#include "models/path.h"

namespace rdmagw::southbound::gpu {
namespace {

std::string gpuPath(const std::string& uuid) {
  std::string path = "/gpus/gpu[uuid=";
  appendEscapedKeyValue(&path, uuid);
  return path + "]";
}

std::string joined(const std::vector<std::string>& names) {
  std::string out;
  for (const std::string& n : names) out += (out.empty() ? "" : " ") + n;
  return out;
}

std::string numaText(int node) { return node < 0 ? "" : std::to_string(node); }

class LeafWriter {
 public:
  LeafWriter(std::string base, TimestampNs ts, PollBatch& batch) : base_(std::move(base)), ts_(ts), batch_(batch) {}
  void text(const char* leaf, const std::string& value) { batch_.add(base_ + leaf, value, ts_); }
  template <typename T>
  void gauge(const char* leaf, const std::optional<T>& value) {
    if (value) batch_.add(base_ + leaf, uint64_t(*value), ts_);
  }
  void flag(const char* leaf, const std::optional<bool>& value) {
    if (value) batch_.add(base_ + leaf, uint64_t(*value ? 1 : 0), ts_);
  }
  void counter(const char* leaf, const std::optional<uint64_t>& value) {
    if (value) batch_.add(base_ + leaf, *value, ts_, CounterSource::monotonic64());
  }
  void rate(const char* leaf, const std::optional<uint64_t>& value) {
    if (value) batch_.add(base_ + leaf, double(*value), ts_);
  }
  void signedGauge(const char* leaf, const std::optional<int32_t>& value) {
    if (value) batch_.add(base_ + leaf, int64_t(*value), ts_);
  }

 private:
  std::string base_;
  TimestampNs ts_;
  PollBatch& batch_;
};

void writeSample(const GpuSample& s, LeafWriter& w) {
  w.signedGauge("temperature", s.temperature_c);
  w.gauge("utilization", s.utilization_gpu_pct);
  w.gauge("memory-utilization", s.utilization_memory_pct);
  w.gauge("memory-used", s.memory_used_bytes);
  w.gauge("memory-total", s.memory_total_bytes);
  w.gauge("power-draw", s.power_draw_mw);
  w.gauge("power-limit", s.power_limit_mw);
  w.rate("pcie-tx-throughput", s.pcie_tx_bytes_per_s);
  w.rate("pcie-rx-throughput", s.pcie_rx_bytes_per_s);
  w.counter("ecc-corrected-errors", s.ecc.aggregate_corrected);
  w.counter("ecc-uncorrected-errors", s.ecc.aggregate_uncorrected);
  // Either kind of retirement takes a page out of service: one count.
  if (s.retired_pages.single_bit || s.retired_pages.double_bit) {
    w.gauge("retired-pages",
            std::optional<uint64_t>(s.retired_pages.single_bit.value_or(0) + s.retired_pages.double_bit.value_or(0)));
  }
  w.flag("retired-pages-pending", s.retired_pages.pending);
  w.gauge("pcie-link-gen", s.pcie_link.gen_current);
  w.gauge("pcie-link-gen-max", s.pcie_link.gen_max);
  w.gauge("pcie-link-width", s.pcie_link.width_current);
  w.gauge("pcie-link-width-max", s.pcie_link.width_max);
  w.flag("mig-enabled", s.mig_enabled);
}

}  // namespace

void writeGpuLeaves(const std::vector<GpuEntry>& gpus, const GpuCollectionState& state, TimestampNs ts,
                    PollBatch& batch) {
  batch.add("/gpus/state/metrics-up", uint64_t(state.metrics_up ? 1 : 0), ts);
  batch.add("/gpus/state/gpus", uint64_t(gpus.size()), ts);
  batch.add("/gpus/state/topology-virtual", uint64_t(state.topology_virtual ? 1 : 0), ts);
  batch.add("/gpus/state/peer-memory", state.peer_memory, ts);
  batch.add("/gpus/state/iommu", state.iommu, ts);
  for (const auto& [stage, count] : state.errors) {
    batch.add("/gpus/errors/stage[name=" + stage + "]/state/count", count, ts, CounterSource::monotonic64());
  }
  batch.replaceSubtree("/gpus/gpu[uuid=*]");
  for (const GpuEntry& gpu : gpus) {
    const std::string base = gpuPath(gpu.uuid);
    LeafWriter w(base + "/state/", ts, batch);
    w.gauge("index", gpu.index);
    w.text("model-name", gpu.model_name);
    w.text("pci-bus-id", gpu.pci_bus_id);
    w.text("source", gpu.source);
    w.text("nearest-nics", joined(gpu.nearest_nics));
    w.text("nearest-path", std::string(pathTypeName(gpu.nearest_path)));
    if (!gpu.nics.empty()) w.flag("gpudirect-rdma", gpu.gpudirect_rdma);
    if (gpu.sample) writeSample(*gpu.sample, w);
    for (const GpuNicEntry& nic : gpu.nics) {
      std::string nic_base = base + "/nics/nic[name=";
      appendEscapedKeyValue(&nic_base, nic.nic);
      LeafWriter n(nic_base + "]/state/", ts, batch);
      n.text("path", std::string(pathTypeName(nic.path)));
      n.text("rank", nic.rank);
      n.text("nic-numa-node", numaText(nic.nic_numa_node));
      n.text("gpu-numa-node", numaText(nic.gpu_numa_node));
      n.text("acs-redirect", nic.acs_redirect);
      n.gauge("distance", ncclDistance(nic.path));
    }
  }
}

}  // namespace rdmagw::southbound::gpu
