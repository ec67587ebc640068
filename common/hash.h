#pragma once
// FNV-1a, 64 bits: a fixed, portable hash of bytes (unlike std::hash, the
// same on every build and host). Gateways must agree on it: the fleet
// places targets by it, and two gateways running the same config files
// show the same config hash. So its values never change.

#include <cstdint>
#include <string_view>

namespace rdmagw::common {

inline constexpr uint64_t kFnv1aOffset = 14695981039346656037ull;
inline constexpr uint64_t kFnv1aPrime = 1099511628211ull;

// One step: `unit` (a byte, or a whole small integer for an in-process
// hash table) folded into `h`.
constexpr uint64_t fnv1aMix(uint64_t h, uint64_t unit) { return (h ^ unit) * kFnv1aPrime; }

// `bytes` folded into `h`: fnv1a(b) is the hash of b; fnv1a(b2, fnv1a(b1))
// that of b1 followed by b2.
constexpr uint64_t fnv1a(std::string_view bytes, uint64_t h = kFnv1aOffset) {
  for (unsigned char c : bytes) h = fnv1aMix(h, c);
  return h;
}

}  // namespace rdmagw::common
