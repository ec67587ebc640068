#pragma once
// Reads the tree `lspci -tv` draws, so a recorded machine becomes a sysfs
// tree (pci_host.h) the topology reader can run on. The drawing gives each
// function's place (domain, bus from the bridge above, device.function) and
// the name lspci prints; it gives no class or vendor code, so those are
// taken from the name (classFromLspciName), which a test checks against the
// same machine's `lspci -vvv` where it has one.

#include <cstdint>
#include <map>
#include <string>
#include <string_view>
#include <vector>

#include "models/status.h"
#include "sim/gpu/pci_host.h"

namespace rdmagw::sim {

struct LspciEntry {
  std::string address;  // "0000:21:00.0"
  std::string parent;   // the bridge's address; empty on the root bus
  std::string root;     // "0000:20": the root bus, pci<root> in sysfs
  std::string name;     // as lspci prints it; empty for a bridge
  bool bridge = false;  // drawn with a bus range "-[21]" below it
};

// Every function in drawing order (a bridge before its children); corrupt
// naming the line when an entry has no bridge or root above it.
Result<std::vector<LspciEntry>> parseLspciTree(std::string_view text);

// The class code the name implies: a bridge is 0x060400; NVIDIA's audio
// function 0x040300, its other functions VGA 0x030000; a ConnectX 0x020000
// (Ethernet: that card's default link layer); NVMe 0x010802; anything else
// 0x088000 (system peripheral), which no topology reader looks at.
uint32_t classFromLspciName(const LspciEntry& entry);
// The PCI vendor ID for the vendor name lspci starts the name with; 0 if unknown.
uint16_t vendorFromLspciName(std::string_view name);

// The functions as a host, each on the NUMA node of its root bus (the
// kernel gives every function below a root bus that bus's node); a root bus
// missing from `numa_by_root` is node -1.
SimPciHost hostFromLspci(const std::vector<LspciEntry>& entries, const std::map<std::string, int>& numa_by_root);

}  // namespace rdmagw::sim
