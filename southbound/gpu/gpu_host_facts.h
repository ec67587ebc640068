#pragma once
// What besides the tree decides whether a GPU and a NIC can talk directly
// (GPUDirect RDMA): a peer-memory module that lets the NIC reach GPU memory,
// the IOMMU (translating DMA sends peer traffic through the root complex),
// and ACS redirect on the bridges between them (it forces peer requests up
// to the root complex too). All read from sysfs and /proc.

#include <string>

#include "southbound/gpu/pci_tree.h"

namespace rdmagw::southbound::gpu {

// "nvidia-peermem" or "nv-peer-mem" (the module loaded), "none" (the NVIDIA
// driver is loaded, no peer-memory module: only DMA-BUF can do GPUDirect
// RDMA then), "unknown" (no NVIDIA driver module visible).
std::string readPeerMemory(const std::string& sys_root);

// "off" (no IOMMU unit), "passthrough" (units, iommu=pt on the kernel
// command line), "translated" (units, DMA translated), "unknown" (no
// <sys>/class/iommu to tell).
std::string readIommu(const std::string& sys_root, const std::string& proc_root);

// ACS P2P redirect on any bridge a transfer between `a` and `b` crosses:
// "on", "off", or "unknown" with `why` (a bridge's extended configuration
// space is readable only by root: 64 bytes otherwise).
std::string acsRedirectOnPath(const std::string& sys_root, const PciDevice& a, const PciDevice& b, std::string* why);

// The same for one bridge's configuration space bytes (tested on bytes).
std::string acsRedirectOfConfig(const std::string& config, std::string* why);

}  // namespace rdmagw::southbound::gpu
