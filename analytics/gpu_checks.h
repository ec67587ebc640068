#pragma once
// GPUDirect readiness, the RoCE check's `gpu` group: can each GPU's memory
// go to the fabric without a detour through host memory. Per host:
//   peer-memory     a peer-memory module (nvidia_peermem) is loaded (WARN
//                   without one: only a DMA-BUF stack can do GPUDirect then);
//   iommu           the IOMMU is off or in passthrough (WARN when it
//                   translates: peer traffic goes up through the root complex);
// per GPU, against the NICs whose RDMA link is up (a NIC with no port
// state collected counts as up):
//   gpudirect-rdma  the nearest is within PXB, the level up to which NCCL
//                   uses GPUDirect RDMA by default (FAIL otherwise; WARN
//                   on a virtual machine whose paths are unknown);
//   numa            the GPU and its nearest NIC share a NUMA node (WARN);
//   acs-redirect    no bridge between them redirects peer requests (FAIL
//                   when one does, WARN when it cannot be read: never a
//                   pass on a guess);
//   pcie-link       under load (utilization >= 50 %) the GPU's link runs
//                   at its maximum generation and width (WARN); at idle
//                   GPUs lower it on purpose, so nothing is judged then.
// A host without GPU leaves has no gpu group.

#include "analytics/roce_checks.h"

namespace rdmagw::analytics {

void checkGpuReadiness(const RunContext& ctx, CheckResults& results);

}  // namespace rdmagw::analytics
