#pragma once
// The simulator's only source of randomness. std:: distributions are not used
// on purpose: their output differs between libstdc++ and libc++, and the
// fabric must produce bit-identical counters everywhere for a given seed.

#include <cstdint>

namespace rdmagw::sim {

// splitmix64 finaliser (Steele, Lea, Flood 2014): a bijective 64-bit mix.
inline uint64_t splitmix64(uint64_t x) {
  x += 0x9e3779b97f4a7c15ULL;
  x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ULL;
  x = (x ^ (x >> 27)) * 0x94d049bb133111ebULL;
  return x ^ (x >> 31);
}

// Stateless hash of (seed, a, b, c). Stateless rather than a stream so a
// value depends only on what it is for, not on the order the model asks:
// reordering the step loop cannot silently change every later counter.
inline uint64_t mix(uint64_t seed, uint64_t a, uint64_t b = 0, uint64_t c = 0) {
  uint64_t h = splitmix64(seed);
  h = splitmix64(h ^ a);
  h = splitmix64(h ^ b);
  return splitmix64(h ^ c);
}

// a * b / c without overflow (a * b can exceed 2^64 on large fabrics).
inline uint64_t mulDiv(uint64_t a, uint64_t b, uint64_t c) {
  return c == 0 ? 0 : static_cast<uint64_t>((static_cast<unsigned __int128>(a) * b) / c);
}

}  // namespace rdmagw::sim
