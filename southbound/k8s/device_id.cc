#include "southbound/k8s/device_id.h"

#include <charconv>
#include <cstdio>

namespace rdmagw::southbound::k8s {

namespace {

bool isHex(char c) { return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F'); }
bool isDigit(char c) { return c >= '0' && c <= '9'; }

// `text` whole as hex of `min`..`max` digits.
std::optional<uint32_t> hexField(std::string_view text, size_t min, size_t max) {
  if (text.size() < min || text.size() > max) return std::nullopt;
  for (char c : text) {
    if (!isHex(c)) return std::nullopt;
  }
  uint32_t value = 0;
  const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), value, 16);
  if (ec != std::errc() || end != text.data() + text.size()) return std::nullopt;
  return value;
}

// A decimal number as a plugin prints it (Go's strconv.Itoa, Linux's %u):
// digits only, no sign, no leading zero but for "0" itself.
std::optional<uint32_t> plainDecimal(std::string_view text) {
  if (text.empty() || (text.size() > 1 && text[0] == '0')) return std::nullopt;
  for (char c : text) {
    if (!isDigit(c)) return std::nullopt;
  }
  uint32_t value = 0;
  const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (ec != std::errc() || end != text.data() + text.size()) return std::nullopt;
  return value;
}

// 8-4-4-4-12 hex digits, the form nvidia-smi prints UUIDs in.
bool isUuid(std::string_view text) {
  constexpr size_t kGroups[] = {8, 4, 4, 4, 12};
  size_t pos = 0;
  for (size_t i = 0; i < 5; ++i) {
    if (i > 0) {
      if (pos >= text.size() || text[pos] != '-') return false;
      ++pos;
    }
    for (size_t n = 0; n < kGroups[i]; ++n, ++pos) {
      if (pos >= text.size() || !isHex(text[pos])) return false;
    }
  }
  return pos == text.size();
}

// "MIG-<uuid>" (R470 drivers on), or the older "MIG-GPU-<uuid>/<gi>/<ci>".
bool isMigId(std::string_view text) {
  if (!text.starts_with("MIG-")) return false;
  text.remove_prefix(4);
  if (isUuid(text)) return true;
  if (!text.starts_with("GPU-")) return false;
  text.remove_prefix(4);
  const size_t first = text.find('/');
  if (first == std::string_view::npos || !isUuid(text.substr(0, first))) return false;
  const std::string_view rest = text.substr(first + 1);
  const size_t second = rest.find('/');
  return second != std::string_view::npos && plainDecimal(rest.substr(0, second)) &&
         plainDecimal(rest.substr(second + 1));
}

constexpr std::string_view kSubFunctionPrefix = "mlx5_core.sf.";
constexpr std::string_view kSharedRdmaPrefix = "rdma/";

}  // namespace

std::optional<PciAddress> parsePciAddress(std::string_view text) {
  const size_t colon1 = text.find(':');
  if (colon1 == std::string_view::npos) return std::nullopt;
  const size_t colon2 = text.find(':', colon1 + 1);
  const size_t dot = text.find('.', colon1 + 1);
  if (colon2 == std::string_view::npos || dot == std::string_view::npos || dot < colon2) return std::nullopt;
  const auto domain = hexField(text.substr(0, colon1), 4, 8);
  const auto bus = hexField(text.substr(colon1 + 1, colon2 - colon1 - 1), 2, 2);
  const auto device = hexField(text.substr(colon2 + 1, dot - colon2 - 1), 2, 2);
  const auto function = hexField(text.substr(dot + 1), 1, 1);
  if (!domain || !bus || !device || !function || *device > 0x1f || *function > 7) return std::nullopt;
  return PciAddress{*domain, static_cast<uint8_t>(*bus), static_cast<uint8_t>(*device),
                    static_cast<uint8_t>(*function)};
}

std::string formatPciAddress(const PciAddress& address) {
  char text[24];
  std::snprintf(text, sizeof text, "%04x:%02x:%02x.%x", address.domain, address.bus, address.device,
                address.function);
  return text;
}

DeviceId classifyDeviceId(std::string_view resource_name, std::string_view device_id) {
  DeviceId id;
  id.raw = std::string(device_id);
  if (auto pci = parsePciAddress(device_id)) {
    id.kind = DeviceKind::kPciFunction;
    id.pci = pci;
  } else if (device_id.starts_with(kSubFunctionPrefix)) {
    if (auto sf = plainDecimal(device_id.substr(kSubFunctionPrefix.size()))) {
      id.kind = DeviceKind::kSubFunction;
      id.index = sf;
    }
  } else if (device_id.starts_with("GPU-") && isUuid(device_id.substr(4))) {
    id.kind = DeviceKind::kGpu;
  } else if (isMigId(device_id)) {
    id.kind = DeviceKind::kMigDevice;
  } else if (resource_name.starts_with(kSharedRdmaPrefix) && resource_name.size() > kSharedRdmaPrefix.size()) {
    // The shared plugin's IDs are strconv.Itoa(slot); another plugin could
    // use the rdma/ prefix with IDs of its own, which stay unknown.
    if (auto slot = plainDecimal(device_id)) {
      id.kind = DeviceKind::kSharedRdmaSlot;
      id.index = slot;
    }
  }
  return id;
}

std::string_view deviceKindName(DeviceKind kind) {
  switch (kind) {
    case DeviceKind::kPciFunction: return "pci-function";
    case DeviceKind::kSubFunction: return "sub-function";
    case DeviceKind::kSharedRdmaSlot: return "shared-rdma-slot";
    case DeviceKind::kGpu: return "gpu";
    case DeviceKind::kMigDevice: return "mig";
    case DeviceKind::kUnknown: return "unknown";
  }
  return "unknown";
}

}  // namespace rdmagw::southbound::k8s
