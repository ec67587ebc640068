#pragma once
// What a device ID in a kubelet PodResources reply names. The kubelet passes
// on whatever string the device plugin chose, so the form depends on the
// plugin: the SR-IOV network device plugin reports a VF's PCI address
// ("0000:3b:02.1") or an auxiliary sub-function ("mlx5_core.sf.4"), NVIDIA's
// GPU plugin a GPU or MIG UUID, and the shared RDMA device plugin
// (k8s-rdma-shared-dev-plugin, resources "rdma/<name>") numbers its slots
// 0..rdmaHcaMax-1. A string that fits none of these is kept as kUnknown with
// its text: attribution must never pin a counter on a device we guessed.

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace rdmagw::southbound::k8s {

enum class DeviceKind {
  kPciFunction,     // a PCI function, typically an SR-IOV VF: pci is set
  kSubFunction,     // an mlx5 sub-function: index is its SF number
  kSharedRdmaSlot,  // one of the shared RDMA plugin's slots: index is the slot
  kGpu,             // an NVIDIA GPU by UUID ("GPU-<uuid>")
  kMigDevice,       // an NVIDIA MIG instance ("MIG-<uuid>", or "MIG-GPU-<uuid>/<gi>/<ci>")
  kUnknown,         // none of the above: only raw is meaningful
};

// A PCI address as sysfs names it, domain:bus:device.function.
struct PciAddress {
  uint32_t domain = 0;
  uint8_t bus = 0;
  uint8_t device = 0;    // 0x00-0x1f
  uint8_t function = 0;  // 0-7
  bool operator==(const PciAddress&) const = default;
};

struct DeviceId {
  DeviceKind kind = DeviceKind::kUnknown;
  std::string raw;                 // the ID exactly as the kubelet reported it
  std::optional<PciAddress> pci;   // kPciFunction only
  std::optional<uint32_t> index;   // kSubFunction, kSharedRdmaSlot only
  bool operator==(const DeviceId&) const = default;
};

// Classifies `device_id`, reported under the resource `resource_name`. A
// shared RDMA slot says nothing about which HCA the pod uses: every slot of a
// resource opens all the resource's devices, which its plugin's config names.
DeviceId classifyDeviceId(std::string_view resource_name, std::string_view device_id);

// "DDDD:BB:DD.F" (the domain 4 to 8 hex digits, as Linux prints it), in
// range; nullopt otherwise. Upper and lower case hex are both read.
std::optional<PciAddress> parsePciAddress(std::string_view text);

// The sysfs spelling: lower case, domain padded to 4 digits.
std::string formatPciAddress(const PciAddress& address);

// "pci-function", "sub-function", "shared-rdma-slot", "gpu", "mig", "unknown".
std::string_view deviceKindName(DeviceKind kind);

}  // namespace rdmagw::southbound::k8s
