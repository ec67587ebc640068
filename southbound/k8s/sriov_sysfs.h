#pragma once
// PCI functions, their RDMA devices and netdevs, as the host's sysfs links
// them under /sys/bus/pci/devices/<address>/:
//   physfn      -> ../<PF address>        (a VF only)
//   virtfn<N>   -> ../<VF address>        (a PF only: VF number N)
//   infiniband/<dev>                      (RDMA devices in this netns's view)
//   net/<ifname>                          (netdevs in the reader's netns)
// A VF's RDMA device or netdev moved into a pod's network namespace leaves
// its directory here empty or absent: that is a fact to report, never a gap
// to fill by matching GUIDs or MAC addresses.

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "models/status.h"
#include "southbound/k8s/device_id.h"

namespace rdmagw::southbound::k8s {

struct PciFunction {
  PciAddress address;
  std::optional<PciAddress> physfn;    // set for a VF
  std::optional<uint32_t> vf_index;    // the PF's virtfn<N> pointing back
  std::vector<std::string> rdma_devices;  // sorted
  std::vector<std::string> netdevs;       // sorted
  // Why the VF index is missing while physfn is set (the PF has no virtfn
  // naming this VF): empty otherwise.
  std::string problem;
};

struct PhysicalFunction {
  PciFunction function;
  std::vector<PciFunction> vfs;  // by VF index
};

// The sysfs root ("/sys", or a test tree shaped like it).
class SriovSysfs {
 public:
  explicit SriovSysfs(std::string sys_root = "/sys");

  // notFound when no such PCI device exists; corrupt when physfn does not
  // name a PCI address.
  Result<PciFunction> function(const PciAddress& address) const;
  // Every PCI function with a virtfn link, each with its VFs; ioError when
  // the PCI device directory cannot be listed. A VF that cannot be read is
  // kept with its address and `problem` set.
  Result<std::vector<PhysicalFunction>> physicalFunctions() const;

 private:
  std::string deviceDir(const PciAddress& address) const;
  std::string devices_dir_;
};

}  // namespace rdmagw::southbound::k8s
