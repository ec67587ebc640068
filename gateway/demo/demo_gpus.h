#pragma once
// `rdmagw-demo --gpus`: every simulated RDMA host gets GPUs beside its NICs
// (sim/gpu/sim_gpu_host.h): a PCI tree with one GPU per RDMA device under
// that device's PCIe switch, and an nvidia-smi stand-in; the host's target
// gets a gpu: block on them, so /metrics, gNMI, SNMP and `rdmagw check
// roce` (group gpu) show the GPUs. With --scenario acs-redirect the
// scenario's host has ACS redirect on the switch port above its NIC.

#include <string>

#include "gateway/config/config.h"
#include "sim/fabric.h"

namespace rdmagw::gateway {

// `receiver`: the scenario's endpoint ("host01:mlx5_0"), empty without one;
// `acs_redirect`: whether the scenario is acs-redirect.
Status startDemoGpus(const std::string& dir, const sim::Fabric& fabric, const std::string& receiver, bool acs_redirect,
                     GatewayConfig& cfg);

// The line the demo prints.
std::string demoGpusHowTo(const sim::Fabric& fabric, int prometheus_port, const std::string& gnmi_address);

}  // namespace rdmagw::gateway
