#include "northbound/gnmi/fleet_routes.h"

namespace rdmagw::northbound::gnmi {
namespace {

const FleetMemberView* findMember(const FleetSnapshot& fleet, const std::string& name) {
  for (const FleetMemberView& m : fleet.members) {
    if (m.name == name) return &m;
  }
  return nullptr;
}

std::string gnmiAddress(const FleetMemberView& m) {
  auto it = m.addresses.find("gnmi");
  return it == m.addresses.end() ? std::string() : it->second;
}

}  // namespace

std::optional<MemberRoute> remoteOwner(const FleetSnapshot& fleet, const std::string& target) {
  if (!fleet.enabled) return std::nullopt;
  auto it = fleet.owners.find(target);
  if (it == fleet.owners.end() || it->second.empty() || it->second == fleet.self) return std::nullopt;
  const FleetMemberView* m = findMember(fleet, it->second);
  if (m == nullptr) return std::nullopt;
  const std::string address = gnmiAddress(*m);
  if (address.empty()) return std::nullopt;
  return MemberRoute{m->name, address};
}

std::vector<MemberRoute> otherMembers(const FleetSnapshot& fleet) {
  std::vector<MemberRoute> out;
  if (!fleet.enabled) return out;
  for (const FleetMemberView& m : fleet.members) {
    if (m.name == fleet.self) continue;
    const std::string address = gnmiAddress(m);
    if (!address.empty()) out.push_back({m.name, address});
  }
  return out;
}

bool callerIsMember(const FleetSnapshot& fleet, const std::string& member, const std::string& verified) {
  if (!fleet.enabled || member.empty() || member == fleet.self || member != verified) return false;
  return findMember(fleet, member) != nullptr;
}

std::vector<MemberRoute> routesFor(const FleetSnapshot& fleet, const std::string& target, bool* local) {
  *local = true;
  if (target.empty()) return {};
  if (target == "*") return otherMembers(fleet);
  std::optional<MemberRoute> owner = remoteOwner(fleet, target);
  if (!owner) return {};
  *local = false;
  return {*owner};
}

}  // namespace rdmagw::northbound::gnmi
