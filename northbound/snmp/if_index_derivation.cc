#include "northbound/snmp/if_index_derivation.h"

namespace rdmagw::northbound::snmp {
namespace {

// A decimal in min..max written as NX-OS writes it (no sign, no leading
// zero): "Ethernet01/1" is not Ethernet1/1 and must not share its number.
std::optional<uint32_t> number(std::string_view s, uint32_t min, uint32_t max) {
  if (s.empty() || s.size() > 5 || (s.size() > 1 && s[0] == '0')) return std::nullopt;
  uint32_t v = 0;
  for (char c : s) {
    if (c < '0' || c > '9') return std::nullopt;
    v = v * 10 + uint32_t(c - '0');
  }
  if (v < min || v > max) return std::nullopt;
  return v;
}

// The rest of `name` after `prefix`, if it starts with it.
std::optional<std::string_view> after(std::string_view name, std::string_view prefix) {
  if (name.substr(0, prefix.size()) != prefix) return std::nullopt;
  return name.substr(prefix.size());
}

}  // namespace

std::optional<uint32_t> nxosIfIndex(std::string_view name) {
  if (auto rest = after(name, "Ethernet")) {
    const size_t slash = rest->find('/');
    if (slash == std::string_view::npos) return std::nullopt;
    // Slots 1..32 and ports 1..1024 keep the fields apart (19 and 9 bits up).
    auto slot = number(rest->substr(0, slash), 1, 32);
    auto port = number(rest->substr(slash + 1), 1, 1024);  // "49/1" (breakout) is no number: hashed
    if (!slot || !port) return std::nullopt;
    return 0x1a000000u + ((*slot - 1) << 19) + ((*port - 1) << 9);
  }
  if (auto rest = after(name, "port-channel")) {
    if (auto n = number(*rest, 1, 4096)) return 0x16000000u + *n - 1;
    return std::nullopt;
  }
  if (auto rest = after(name, "Vlan")) {
    if (auto n = number(*rest, 1, 4094)) return 0x09010000u + *n;
    return std::nullopt;
  }
  if (auto rest = after(name, "loopback")) {
    if (auto n = number(*rest, 0, 1023)) return 0x14000000u + *n;
    return std::nullopt;
  }
  if (auto rest = after(name, "mgmt")) {
    if (auto n = number(*rest, 0, 15)) return 0x05000000u + *n;
    return std::nullopt;
  }
  return std::nullopt;
}

uint32_t homeIfIndex(std::string_view name) {
  if (auto n = nxosIfIndex(name)) return *n;
  uint64_t h = 14695981039346656037ull;  // FNV-1a 64: fixed, so every member and every release agree
  for (unsigned char c : name) {
    h ^= c;
    h *= 1099511628211ull;
  }
  return kHashedFirst + uint32_t(h % (uint64_t(kMaxIfIndex) - kHashedFirst + 1));
}

uint32_t nextHashedIfIndex(uint32_t taken) { return taken >= kMaxIfIndex ? kHashedFirst : taken + 1; }

}  // namespace rdmagw::northbound::snmp
