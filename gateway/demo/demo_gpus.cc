#include "gateway/demo/demo_gpus.h"

#include <filesystem>

#include "sim/gpu/sim_gpu_host.h"

namespace rdmagw::gateway {

Status startDemoGpus(const std::string& dir, const sim::Fabric& fabric, const std::string& receiver, bool acs_redirect,
                     GatewayConfig& cfg) {
  for (const sim::Host& host : fabric.hosts()) {
    sim::SimGpuHostOptions options;
    for (size_t i = 0; acs_redirect && i < host.devices.size(); ++i) {
      if (host.name + ":" + host.devices[i].name == receiver) options.acs_redirect_device = static_cast<int>(i);
    }
    const sim::SimGpuHost gpus((std::filesystem::path(dir) / host.name).string(), host, options);
    if (Status s = gpus.write(); !s.isOk()) return s;
    for (TargetConfig& t : cfg.targets) {
      if (t.name != host.name || t.kind != "rdma-host") continue;
      t.gpu.enabled = true;
      t.gpu.metrics = southbound::gpu::GpuMetricsMode::kNvidiaSmi;
      t.gpu.nvidia_smi = gpus.nvidiaSmi();
      t.gpu.sysfs_root = gpus.sysRoot();
      t.gpu.proc_root = gpus.procRoot();
    }
  }
  return Status::ok();
}

std::string demoGpusHowTo(const sim::Fabric& fabric, int prometheus_port, const std::string& gnmi_address) {
  size_t gpus = 0;
  for (const sim::Host& host : fabric.hosts()) gpus += host.devices.size();
  std::string out = "rdmagw demo: gpus: " + std::to_string(gpus) +
                    " GPU(s), one beside each RDMA NIC under its PCIe switch (PIX), metrics from an nvidia-smi "
                    "stand-in: curl -s localhost:" +
                    std::to_string(prometheus_port) + "/metrics | grep ^rdmagw_gpu_\n";
  if (!gnmi_address.empty()) {
    out += "rdmagw demo: gpus: GPUDirect readiness: rdmagw check roce --group gpu --address " + gnmi_address +
           " --insecure\n";
  }
  return out;
}

}  // namespace rdmagw::gateway
