#pragma once
// Which member collects which target, without a leader and without a lock
// per target: rendezvous (highest-random-weight) hashing. Every member
// scores each live member for a target and the highest score owns it, so
// members that see the same member set agree without talking; a join takes
// about 1/N of the targets (those the newcomer now outscores everyone on)
// and a leave moves only the leaver's targets.
//
// The score is a fixed 64-bit hash (FNV-1a, then splitmix64's finaliser),
// never std::hash: every member, whatever its build or host, must compute
// the same owner.

#include <cstdint>
#include <set>
#include <string>
#include <string_view>
#include <vector>

namespace rdmagw::cluster {

// The weight of `member` for a target's placement key.
uint64_t placementScore(std::string_view member, std::string_view key);

struct PlacementTarget {
  std::string name;
  // Targets with the same key land on the same member (e.g. the hosts that
  // hang off one switch carry the switch's name). Empty: the name.
  std::string key;
  std::string_view placementKey() const { return key.empty() ? std::string_view(name) : std::string_view(key); }
};

// The owner of a placement key among `members`; empty when there are none.
std::string owner(std::string_view placement_key, const std::vector<std::string>& members);
inline std::string owner(const PlacementTarget& target, const std::vector<std::string>& members) {
  return owner(target.placementKey(), members);
}

// The names of the targets `self` owns.
std::set<std::string> owned(const std::vector<PlacementTarget>& targets, const std::vector<std::string>& members,
                            const std::string& self);

}  // namespace rdmagw::cluster
