#include "northbound/gnmi/fleet_routes.h"

#include <arpa/inet.h>

#include <cstring>

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

// "1.2.3.4:5" -> "1.2.3.4", "[::1]:5" -> "::1", "gw1:9339" -> "gw1".
std::string hostOf(const std::string& address) {
  if (!address.empty() && address.front() == '[') {
    const size_t close = address.find(']');
    return close == std::string::npos ? std::string() : address.substr(1, close - 1);
  }
  const size_t colon = address.rfind(':');
  return colon == std::string::npos ? address : address.substr(0, colon);
}

bool parseIp(const std::string& host, in6_addr* out) {
  in_addr v4{};
  if (inet_pton(AF_INET, host.c_str(), &v4) == 1) {
    // As an IPv4-mapped IPv6 address, so "::ffff:1.2.3.4" equals "1.2.3.4".
    *out = in6_addr{};
    out->s6_addr[10] = 0xff;
    out->s6_addr[11] = 0xff;
    std::memcpy(&out->s6_addr[12], &v4, 4);
    return true;
  }
  return inet_pton(AF_INET6, host.c_str(), out) == 1;
}

bool isIpLiteral(const std::string& host) {
  in6_addr ignored{};
  return parseIp(host, &ignored);
}

bool sameIp(const std::string& a, const std::string& b) {
  in6_addr x{}, y{};
  return parseIp(a, &x) && parseIp(b, &y) && std::memcmp(&x, &y, sizeof x) == 0;
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

bool callerIsMember(const FleetSnapshot& fleet, const std::string& member, const std::string& peer) {
  if (!fleet.enabled || member.empty() || member == fleet.self) return false;
  const FleetMemberView* m = findMember(fleet, member);
  if (m == nullptr) return false;
  const std::string advertised = hostOf(gnmiAddress(*m));
  if (advertised.empty()) return false;
  if (!isIpLiteral(advertised)) return true;
  const size_t scheme = peer.find(':');
  const std::string peer_host = scheme == std::string::npos ? std::string() : hostOf(peer.substr(scheme + 1));
  return !peer_host.empty() && sameIp(peer_host, advertised);
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
