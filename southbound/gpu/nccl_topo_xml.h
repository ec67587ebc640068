#pragma once
// NCCL's topology file (NCCL_TOPO_FILE), as clouds ship it for VMs whose own
// PCI tree hides the GPU<->NIC pairing, read into the same PciTree the
// sysfs reader makes:
//   <system><cpu numaid="0"> <pci busid="ffff:ff:01.0" class="0x060400">
//       <pci busid="0001:00:00.0" class="0x030200" link_speed=".." link_width="16"/>
//       <pci busid="0101:00:00.0" class="0x020700"> <nic><net name="mlx5_0"/></nic> </pci>
//   </pci></cpu></system>
// Each <cpu> is a NUMA node standing in for the host bridge (NCCL calls two
// devices under one CPU with no common bridge PHB), each <pci> holding
// other <pci> elements a bridge that NCCL counts as one switch level. A <net name>
// inside a <pci> names its RDMA device; a NIC without one is named later
// from sysfs (adoptRdmaNames) or left unnamed.

#include <string>
#include <string_view>

#include "models/status.h"
#include "southbound/gpu/pci_tree.h"

namespace rdmagw::southbound::gpu {

// corrupt, naming what and where, for text that is no such file: unbalanced
// tags, a <pci> without a PCI address busid, a class that is no hex code, a
// <pci> outside any <cpu>.
Result<PciTree> parseNcclTopoXml(std::string_view xml);

// Copies the RDMA device names of `sysfs` onto the devices of `file_tree`
// with the same address (a VM's sysfs knows its ibdevs, not their paths).
void adoptRdmaNames(PciTree& file_tree, const PciTree& sysfs);

}  // namespace rdmagw::southbound::gpu
