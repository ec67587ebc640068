#pragma once
// The PCI tree of a remote host in one round trip: one POSIX sh command
// prints every function's resolved path and attribute files, the RDMA
// devices' links and the VM evidence, and a parser turns that text into the
// same PciTree the local reader makes. The command forks one readlink per
// function and reads attributes with the shell's own `read`, so a host with
// a few hundred functions answers in well under a second.
//
// Output, one record a line (fields split at the first spaces only):
//   rdmagw-pci-dump 1
//   D <address> <resolved path>      a function
//   E <address>                      its link does not resolve
//   A <address> <attribute> <value>  an attribute file's first line
//   F <address> <attribute>          an attribute file present but unreadable
//   I <ibdev> <resolved path>        an RDMA device's `device` link
//   M <sys_vendor|product_name> <value>
//   H                                cpuinfo's hypervisor flag

#include <string>
#include <string_view>

#include "models/status.h"
#include "southbound/gpu/pci_tree.h"

namespace rdmagw::southbound::gpu {

// The command for a host whose sysfs and procfs are at `sys_root` and
// `proc_root` (quoted for the shell here).
std::string pciDumpCommand(const std::string& sys_root = "/sys", const std::string& proc_root = "/proc");

struct PciDump {
  PciTree tree;
  std::string sys_vendor;    // DMI, empty when absent
  std::string product_name;  // DMI, empty when absent
  bool hypervisor_flag = false;
};

// corrupt when the text is not the command's output (no header line, a
// record of unknown kind, a D record whose path is no PCI function path).
Result<PciDump> parsePciDump(std::string_view text);

}  // namespace rdmagw::southbound::gpu
