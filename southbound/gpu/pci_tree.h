#pragma once
// The host's PCI tree as sysfs shows it, read without any vendor software.
// Every /sys/bus/pci/devices/<address> link resolves to
// /sys/devices/[...]/pci<domain>:<bus>/<bridge>/.../<address>: the
// directories between the host bridge ("pci0000:20") and the device are the
// bridges a transfer crosses (root port, switch ports), which is all the
// GPU<->NIC distance needs. Components above the host bridge (Hyper-V's
// VMBUS, ACPI nodes) say nothing about PCIe and are kept only as text.

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "models/status.h"

namespace rdmagw::southbound::gpu {

inline constexpr uint16_t kNvidiaVendorId = 0x10de;

struct PciDevice {
  std::string address;      // "0000:21:00.0", as sysfs names it
  std::string host_bridge;  // "pci0000:20": the root complex the device hangs off
  // Bridges from the root port down to the device's own parent (addresses);
  // empty for a device on the root bus itself.
  std::vector<std::string> bridges;
  std::optional<uint32_t> class_code;  // 24 bits: base class, subclass, prog-if
  std::optional<uint16_t> vendor;
  std::optional<uint16_t> device;
  int numa_node = -1;                             // the kernel's -1: not known (single-node hosts, many VMs)
  std::optional<std::string> current_link_speed;  // "32.0 GT/s PCIe"
  std::optional<std::string> max_link_speed;
  std::optional<uint32_t> current_link_width;
  std::optional<uint32_t> max_link_width;
  std::vector<std::string> rdma_devices;  // ibdev names bound to this function, sorted

  bool isBridge() const { return class_code && (*class_code >> 8) == 0x0604; }
  // NVIDIA display controllers: VGA (0x0300) and 3D (0x0302, the data-center parts).
  bool isNvidiaGpu() const;
  bool isGpuClass() const;
  bool isRdmaNic() const { return !rdma_devices.empty(); }
  bool operator==(const PciDevice&) const = default;
};

// The attribute files read of every function, in the order they are read.
inline constexpr const char* kPciAttributeNames[] = {
    "class",          "vendor", "device", "numa_node", "current_link_speed", "max_link_speed", "current_link_width",
    "max_link_width",
};

// Sets the field the attribute `name` fills from its text; junk is a line in
// `problems` naming `where` (the file), the field then left unset.
void applyPciAttribute(PciDevice& device, const std::string& name, const std::string& value, const std::string& where,
                       std::vector<std::string>& problems);

struct PciTree {
  std::vector<PciDevice> devices;  // by address
  // What could not be read, one line per file or link, naming it. A device
  // whose class cannot be read is kept without it: it is then neither GPU nor
  // NIC, and this list says why.
  std::vector<std::string> problems;
  // Set for a tree from NCCL's topology file, not from sysfs. NCCL already
  // folded each switch into one <pci> element, so every bridge is a level;
  // the file names no vendors, so a display class is a GPU; and its NICs
  // need no RDMA device name, so a network class is a NIC.
  bool from_nccl_topology_file = false;

  const PciDevice* find(const std::string& address) const;
};

// True for "DDDD:BB:DD.F" (domain 4 to 8 hex digits, lower or upper case).
bool isPciAddress(const std::string& text);

// Parses a sysfs hex attribute ("0x030000\n"); nullopt for anything else.
std::optional<uint32_t> parseSysfsHex(const std::string& text, uint32_t max_value);

// Reads the tree under `sys_root` ("/sys" or a test tree shaped like it).
// Fails only when <sys_root>/bus/pci/devices cannot be listed; a device whose
// link does not resolve (a loop, a dangling link, a path with no host
// bridge) is left out and named in problems.
Result<PciTree> readPciTree(const std::string& sys_root);

// The device entry for the resolved sysfs path of one function
// ("/sys/devices/pci0000:20/0000:20:03.1/0000:21:00.0", any prefix before the
// host bridge); corrupt when the path has no host bridge or a component
// between it and the device is no PCI address. Attributes are left empty.
Result<PciDevice> deviceFromPath(const std::string& resolved_path);

}  // namespace rdmagw::southbound::gpu
