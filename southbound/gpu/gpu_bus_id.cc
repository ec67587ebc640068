#include "southbound/gpu/gpu_bus_id.h"

#include <cstdio>

namespace rdmagw::southbound::gpu {
namespace {

int hexDigit(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return -1;
}

// A run of 1..max_digits hex digits at the front of `text`, consumed.
std::optional<uint32_t> takeHex(std::string_view& text, size_t max_digits) {
  uint32_t value = 0;
  size_t n = 0;
  while (n < text.size() && n < max_digits && hexDigit(text[n]) >= 0) {
    value = value * 16 + static_cast<uint32_t>(hexDigit(text[n]));
    ++n;
  }
  if (n == 0) return std::nullopt;
  text.remove_prefix(n);
  return value;
}

bool takeChar(std::string_view& text, char c) {
  if (text.empty() || text.front() != c) return false;
  text.remove_prefix(1);
  return true;
}

}  // namespace

std::optional<PciAddress> parsePciAddress(std::string_view text) {
  PciAddress a;
  const auto domain = takeHex(text, 8);
  if (!domain || !takeChar(text, ':')) return std::nullopt;
  const auto bus = takeHex(text, 2);
  if (!bus || !takeChar(text, ':')) return std::nullopt;
  const auto device = takeHex(text, 2);
  if (!device || *device >= 0x20 || !takeChar(text, '.')) return std::nullopt;
  const auto function = takeHex(text, 1);
  if (!function || *function >= 8 || !text.empty()) return std::nullopt;
  a.domain = *domain;
  a.bus = *bus;
  a.device = *device;
  a.function = *function;
  return a;
}

std::string nvmlBusId(const PciAddress& a) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%08X:%02X:%02X.%X", a.domain, a.bus, a.device, a.function);
  return buf;
}

std::string sysfsBusId(const PciAddress& a) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%04x:%02x:%02x.%x", a.domain, a.bus, a.device, a.function);
  return buf;
}

std::optional<std::string> nvmlBusIdFromSysfs(std::string_view sysfs) {
  const auto a = parsePciAddress(sysfs);
  if (!a) return std::nullopt;
  return nvmlBusId(*a);
}

std::optional<std::string> sysfsBusIdFromNvml(std::string_view nvml) {
  const auto a = parsePciAddress(nvml);
  if (!a) return std::nullopt;
  return sysfsBusId(*a);
}

}  // namespace rdmagw::southbound::gpu
