#include "analytics/lldp_links.h"

#include <algorithm>
#include <cctype>
#include <optional>

#include "models/lldp.h"

namespace rdmagw::analytics {
namespace {

bool iequals(std::string_view a, std::string_view b) {
  return a.size() == b.size() && std::equal(a.begin(), a.end(), b.begin(), [](char x, char y) {
           return std::tolower(static_cast<unsigned char>(x)) == std::tolower(static_cast<unsigned char>(y));
         });
}

// The target a system name stands for, or null.
const std::string* matchTarget(const std::string& system, const FabricInventory& inv,
                               const std::map<std::string, std::string>& names) {
  const std::string short_name = system.substr(0, system.find('.'));
  for (const std::string& candidate : {system, short_name}) {
    if (auto it = names.find(candidate); it != names.end()) return &it->second;
    for (const auto& [target, kind] : inv.target_kind) {
      if (iequals(target, candidate)) return &target;
    }
  }
  return nullptr;
}

// The port of `target` the neighbour's port ID (or description) names.
std::optional<PortRef> matchPort(const std::string& target, const LldpNeighbor& n, const FabricInventory& inv) {
  const bool mac = n.port_id_type.ends_with("MAC_ADDRESS") || lldp::looksLikeMac(n.port_id);
  std::vector<const std::string*> names;
  if (!mac) names.push_back(&n.port_id);
  names.push_back(&n.port_description);
  for (const std::string* name : names) {
    if (name->empty()) continue;
    if (inv.ports.count({target, *name})) return PortRef{target, *name};
    for (auto it = inv.ports.lower_bound({target, ""}); it != inv.ports.end() && it->target == target; ++it) {
      if (iequals(it->iface, *name)) return *it;
    }
  }
  return std::nullopt;
}

struct Claim {
  PortRef peer;
  TimestampNs seen = 0;
  bool ambiguous = false;  // two neighbours on the port name different peers
};

}  // namespace

LldpLinks lldpLinks(const FabricInventory& inv, const std::map<std::string, std::string>& names,
                    const std::set<PortRef>& fixed) {
  // What each port says is at the other end of its cable.
  std::map<PortRef, Claim> claims;
  for (const auto& [key, n] : inv.lldp) {
    if (fixed.count(n.local)) continue;
    const std::string* target = matchTarget(n.system_name, inv, names);
    if (target == nullptr || *target == n.local.target) continue;  // not monitored (or itself)
    std::optional<PortRef> peer = matchPort(*target, n, inv);
    if (!peer || fixed.count(*peer)) continue;
    auto [it, fresh] = claims.try_emplace(n.local, Claim{*peer, n.seen});
    if (fresh) continue;
    if (it->second.peer != *peer) it->second.ambiguous = true;
    it->second.seen = std::max(it->second.seen, n.seen);
  }
  // Ports some other port claims, to catch two ports claiming one.
  std::map<PortRef, std::vector<PortRef>> claimed_by;
  for (const auto& [port, c] : claims) claimed_by[c.peer].push_back(port);

  LldpLinks out;
  std::set<std::string> reported;
  auto conflict = [&](std::string line) {
    if (reported.insert(line).second) out.conflicts.push_back(std::move(line));
  };
  // Who else claims a port than the one it is cabled to: a disagreement.
  auto others = [&](const PortRef& p, const PortRef& except) {
    std::string who;
    for (const PortRef& q : claimed_by[p]) {
      if (q != except) who += (who.empty() ? "" : ", ") + q.toString();
    }
    return who;
  };
  for (const auto& [port, c] : claims) {
    if (c.ambiguous) {
      conflict(port.toString() + " hears several monitored neighbours: left out");
      continue;
    }
    auto back = claims.find(c.peer);
    if (back != claims.end() && back->second.ambiguous) continue;  // reported at its own turn
    if (back != claims.end() && back->second.peer != port) {
      conflict("LLDP ends disagree: " + port.toString() + " hears " + c.peer.toString() + ", which hears " +
               back->second.peer.toString() + ": left out (a static link settles it)");
      continue;
    }
    if (std::string who = others(c.peer, port); !who.empty()) {
      conflict("LLDP ends disagree: " + port.toString() + " and " + who + " all hear " + c.peer.toString() +
               ": left out (a static link settles it)");
      continue;
    }
    if (std::string who = others(port, c.peer); !who.empty()) {
      conflict("LLDP ends disagree: " + port.toString() + " hears " + c.peer.toString() + " but " + who +
               " hears " + port.toString() + ": left out (a static link settles it)");
      continue;
    }
    if (back != claims.end() && c.peer < port) continue;  // both ends agree: the cable counts once
    ResolvedLink l;
    l.a = port;
    l.b = c.peer;
    l.source = "lldp";
    l.last_seen = std::max(c.seen, back != claims.end() ? back->second.seen : 0);
    out.links.push_back(std::move(l));
  }
  return out;
}

}  // namespace rdmagw::analytics
