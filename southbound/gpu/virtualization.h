#pragma once
// Whether the PCI tree is the machine's or a hypervisor's. A VM's devices
// hang off an emulated root bus (often flat, every device on bus 0, or each
// in its own PCI domain as Hyper-V does), so the distances its sysfs implies
// (PHB or PIX everywhere) say nothing about the real GPU<->NIC paths. The
// answer is then "unknown" unless a topology file gives the real pairing.

#include <string>
#include <vector>

#include "southbound/gpu/pci_tree.h"

namespace rdmagw::southbound::gpu {

struct VirtualizationEvidence {
  bool virtual_machine = false;
  // What said so, one line each: "hypervisor flag in <proc>/cpuinfo",
  // "<sys>/class/dmi/id/sys_vendor: QEMU".
  std::vector<std::string> reasons;
  // Every GPU and RDMA NIC sits directly on a root bus, no bridge above it.
  // Alone it proves nothing (some SoCs wire a GPU so), so it is reported but
  // does not make the host a VM; with the reasons above it explains them.
  bool flat_root_bus = false;

  // The reasons joined with "; ", for GpuNicTopology::why_unknown.
  std::string summary() const;
};

// Reads <proc_root>/cpuinfo's flags and <sys_root>/class/dmi/id's
// sys_vendor and product_name; missing files are no evidence either way.
VirtualizationEvidence detectVirtualization(const std::string& sys_root, const std::string& proc_root,
                                            const PciTree& tree);

// The same judgement from values read elsewhere (a remote host's dump):
// `cpuinfo` and `dmi_dir` only name the sources in the reasons.
VirtualizationEvidence judgeVirtualization(bool hypervisor_flag, const std::string& sys_vendor,
                                           const std::string& product_name, const PciTree& tree,
                                           const std::string& cpuinfo = "cpuinfo", const std::string& dmi_dir = "dmi ");

// True when DMI names a hypervisor's virtual platform: QEMU/KVM, VMware,
// Xen, VirtualBox, Parallels, Bochs, Hyper-V ("Microsoft Corporation" with
// product "Virtual Machine"). Cloud vendors' names alone ("Amazon EC2") are
// not enough: their bare-metal instances carry them too.
bool dmiNamesHypervisor(const std::string& sys_vendor, const std::string& product_name);

}  // namespace rdmagw::southbound::gpu
