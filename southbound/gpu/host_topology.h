#pragma once
// The whole answer for one host: its PCI tree read, whether it is a VM, an
// operator's NCCL topology file applied, and the GPU<->NIC relations built.

#include <optional>
#include <string>
#include <string_view>

#include "models/status.h"
#include "southbound/gpu/gpu_nic_topology.h"
#include "southbound/gpu/pci_tree.h"
#include "southbound/gpu/virtualization.h"

namespace rdmagw::southbound::gpu {

struct HostTopologyOptions {
  std::string sys_root = "/sys";
  std::string proc_root = "/proc";
  // The content of an NCCL_TOPO_FILE for this host, if the operator gave
  // one: its GPU and NIC placement replaces the tree sysfs shows, VM or not
  // (it is the same file NCCL itself would use on this host).
  std::optional<std::string> nccl_topology_xml;
};

struct HostTopology {
  PciTree tree;  // from sysfs, problems included
  VirtualizationEvidence virtualization;
  bool from_nccl_topology_file = false;
  GpuNicTopology topology;
};

// Fails when sysfs has no PCI device list or the topology file is no such
// file; a VM without a topology file is no failure: its topology says
// distances_unknown, with the evidence as why_unknown.
Result<HostTopology> readHostTopology(const HostTopologyOptions& options);

// The same from a remote host's one-round-trip dump (pci_dump.h): corrupt
// when the text is not the dump.
Result<HostTopology> hostTopologyFromDump(std::string_view dump_text,
                                          const std::optional<std::string>& nccl_topology_xml);

}  // namespace rdmagw::southbound::gpu
