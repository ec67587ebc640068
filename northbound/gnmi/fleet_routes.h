#pragma once
// Where a gNMI request goes in a fleet (models/fleet_view.h): a request
// naming a target another member owns is forwarded to that member's gNMI
// server; prefix.target "*" means every target of the fleet, this
// member's and every other live member's; no target (or no fleet) means
// this member's store alone.
//
// Loops cannot form: a forwarded request carries kForwardedByMetadata and
// is always answered from the receiving member's own store, never
// forwarded again. When two members' views disagree for a moment (A thinks
// B owns a target, B thinks A does), B answers from its store what it has,
// and A follows the views as they converge.

#include <optional>
#include <string>
#include <vector>

#include "models/fleet_view.h"

namespace rdmagw::northbound::gnmi {

// Metadata key a forwarding member adds (value: its member name).
inline constexpr const char* kForwardedByMetadata = "rdmagw-forwarded-by";
// And the client it forwards for (user or host), so the owner's
// per-client stream limit counts that client, not the forwarding member.
inline constexpr const char* kForwardedForMetadata = "rdmagw-forwarded-for";

struct MemberRoute {
  std::string member;
  std::string address;  // its advertised "gnmi" host:port
  bool operator==(const MemberRoute&) const = default;
};

// The member to forward `target` to, or nullopt when this member answers
// it: no fleet, the target is ours or unknown, its owner advertises no
// gNMI address or is not in the live set.
std::optional<MemberRoute> remoteOwner(const FleetSnapshot& fleet, const std::string& target);

// Every other live member that advertises a gNMI address, by name.
std::vector<MemberRoute> otherMembers(const FleetSnapshot& fleet);

// Whether a call marked as forwarded by `member` may be believed:
// `member` is another live member of the fleet and is the member the call
// proved to come from (`verified`: member_identity.h, a member secret or a
// client certificate; "" when the call proved nothing). A client that sets
// the metadata itself is then counted as itself. Neither a name nor a
// source address is proof: without a member identity configured no call
// is believed.
bool callerIsMember(const FleetSnapshot& fleet, const std::string& member, const std::string& verified);

// The members a request with this prefix.target goes to besides (or
// instead of) the local store. *local: whether the local store answers too.
std::vector<MemberRoute> routesFor(const FleetSnapshot& fleet, const std::string& target, bool* local);

}  // namespace rdmagw::northbound::gnmi
