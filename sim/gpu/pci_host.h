#pragma once
// A host's PCI tree written as the kernel shows it under /sys, so the GPU
// topology reader runs on it unchanged: real directories
// sys/devices/pci<domain>:<bus>/<root port>/.../<function> with class,
// vendor, device, numa_node and link attribute files; the symlinks
// sys/bus/pci/devices/<address> and sys/class/infiniband/<ibdev> (to
// <function>/infiniband/<ibdev>, whose `device` link points back up, as
// drivers/infiniband/core makes them); and what a VM shows besides
// (sys/class/dmi/id, proc/cpuinfo's hypervisor flag).

#include <cstdint>
#include <string>
#include <vector>

#include "models/status.h"

namespace rdmagw::sim {

struct SimPciFunction {
  std::string address;      // "0000:21:00.0"
  std::string parent;       // the bridge above; empty on the root bus
  std::string host_bridge;  // "pci0000:20"
  uint32_t class_code = 0;
  uint16_t vendor = 0;
  uint16_t device = 0;
  int numa_node = -1;
  std::vector<std::string> rdma_devices;  // ibdevs to create on this function
  std::string link_speed;                 // empty: no link files (as for root-bus devices)
  uint32_t link_width = 0;
  // Bridges: ACS P2P request and completion redirect on, in the ACS
  // capability of the 4 KiB `config` every bridge gets (as root reads it).
  bool acs_redirect = false;
};

struct SimPciHost {
  std::vector<SimPciFunction> functions;  // a bridge before what hangs below it
  std::string dmi_sys_vendor;             // empty: no file
  std::string dmi_product_name;           // empty: no file
  bool hypervisor_flag = false;           // in proc/cpuinfo's flags line
  // sys/module/nvidia and, with peer memory, sys/module/nvidia_peermem.
  bool nvidia_driver = true;
  bool peer_memory = true;
  // off (sys/class/iommu empty), passthrough (a unit, iommu=pt on
  // proc/cmdline) or translated (a unit, no iommu=pt).
  std::string iommu = "off";
};

inline constexpr uint32_t kClassPciBridge = 0x060400;
inline constexpr uint32_t kClassVga = 0x030000;
inline constexpr uint32_t kClass3d = 0x030200;
inline constexpr uint32_t kClassEthernet = 0x020000;
inline constexpr uint32_t kClassInfiniband = 0x020700;
inline constexpr uint16_t kVendorNvidia = 0x10de;
inline constexpr uint16_t kVendorMellanox = 0x15b3;

// Writes the host under `root` (root/sys, root/proc). invalidArgument when a
// parent is named before it is written or an address repeats.
Status writePciHost(const SimPciHost& host, const std::string& root);

// The boxes the simulator serves besides recorded ones:
// 8 GPUs and 8 NICs, each GPU with one NIC under its own PCIe switch (PIX),
// four switches per NUMA node, each switch on its own root complex.
SimPciHost pixBox8();
// 4 GPUs and 4 NICs, every one on its own root complex, two of each per NUMA
// node: a GPU's nearest NICs are the two of its node (NODE, a tie).
SimPciHost nodeBox4();
// A KVM guest: 2 GPUs and 2 NICs on the flat emulated root bus pci0000:00,
// DMI naming QEMU and the hypervisor flag set.
SimPciHost virtualMachine2();

}  // namespace rdmagw::sim
