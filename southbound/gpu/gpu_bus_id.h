#pragma once
// PCI addresses of GPUs in their two spellings. NVML, nvidia-smi and
// dcgm-exporter's pci_bus_id label write "00000000:3B:00.0" (8 hex digits
// of domain, upper case); sysfs, lspci and the SR-IOV device plugin write
// "0000:3b:00.0" (4 digits, lower case). Joining a GPU to its NIC or to a
// dcgm-exporter series goes through one canonical form per side.

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace rdmagw::southbound::gpu {

struct PciAddress {
  uint32_t domain = 0;
  uint32_t bus = 0;
  uint32_t device = 0;
  uint32_t function = 0;
  bool operator==(const PciAddress&) const = default;
};

// Reads either spelling, any case, a domain of 1 to 8 hex digits:
// "domain:bus:device.function" with bus < 0x100, device < 0x20,
// function < 8. Nothing for anything else (a MIG UUID, "[N/A]").
std::optional<PciAddress> parsePciAddress(std::string_view text);

// "00000000:3B:00.0"
std::string nvmlBusId(const PciAddress& address);
// "0000:3b:00.0"; a domain past 0xffff (VMD) keeps all its digits, as the
// kernel writes it.
std::string sysfsBusId(const PciAddress& address);

// The conversions, for text in either spelling.
std::optional<std::string> nvmlBusIdFromSysfs(std::string_view sysfs);
std::optional<std::string> sysfsBusIdFromNvml(std::string_view nvml);

}  // namespace rdmagw::southbound::gpu
