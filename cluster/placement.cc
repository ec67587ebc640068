#include "cluster/placement.h"

#include "common/hash.h"

namespace rdmagw::cluster {
namespace {

using common::fnv1a;

// FNV-1a alone mixes its last bytes poorly into the high bits; names that
// differ only in a trailing digit would then score alike.
uint64_t splitmix64(uint64_t x) {
  x += 0x9e3779b97f4a7c15ull;
  x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ull;
  x = (x ^ (x >> 27)) * 0x94d049bb133111ebull;
  return x ^ (x >> 31);
}

// The member's half of the hash, then the key's: a NUL between them keeps
// ("ab", "c") and ("a", "bc") apart.
uint64_t memberState(std::string_view member) { return fnv1a(std::string_view("\0", 1), fnv1a(member)); }

std::string bestOf(std::string_view key, const std::vector<std::string>& members,
                   const std::vector<uint64_t>& states) {
  size_t best = 0;
  uint64_t best_score = 0;
  for (size_t i = 0; i < members.size(); ++i) {
    uint64_t s = splitmix64(fnv1a(key, states[i]));
    // A tie (2^-64) goes to the smaller name, so it too is the same everywhere.
    if (i == 0 || s > best_score || (s == best_score && members[i] < members[best])) {
      best = i;
      best_score = s;
    }
  }
  return members.empty() ? std::string() : members[best];
}

std::vector<uint64_t> statesOf(const std::vector<std::string>& members) {
  std::vector<uint64_t> states;
  states.reserve(members.size());
  for (const std::string& m : members) states.push_back(memberState(m));
  return states;
}

}  // namespace

uint64_t placementScore(std::string_view member, std::string_view key) {
  return splitmix64(fnv1a(key, memberState(member)));
}

std::string owner(std::string_view placement_key, const std::vector<std::string>& members) {
  return bestOf(placement_key, members, statesOf(members));
}

std::set<std::string> owned(const std::vector<PlacementTarget>& targets, const std::vector<std::string>& members,
                            const std::string& self) {
  std::set<std::string> out;
  const std::vector<uint64_t> states = statesOf(members);
  for (const PlacementTarget& t : targets) {
    if (bestOf(t.placementKey(), members, states) == self) out.insert(t.name);
  }
  return out;
}

}  // namespace rdmagw::cluster
