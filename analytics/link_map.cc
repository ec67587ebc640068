#include "analytics/link_map.h"

#include <set>

namespace rdmagw::analytics {
namespace {

bool resolve(const LinkEnd& end, const FabricInventory& inv, PortRef* out) {
  out->target = end.target;
  if (end.kind != LinkEnd::Kind::kRdmaPort) {
    out->iface = end.name;
    return true;
  }
  auto it = inv.netdev.find(RdmaPortRef{end.target, end.device(), end.port()});
  if (it == inv.netdev.end() || it->second.empty()) return false;
  out->iface = it->second;
  return true;
}

}  // namespace

LinkMap::LinkMap(const std::vector<LinkConfig>& links, const FabricInventory& inv,
                 const std::map<std::string, std::string>& lldp_names) {
  for (const auto& [rdma, netdev] : inv.netdev) {
    if (!netdev.empty()) netdev_[rdma] = PortRef{rdma.target, netdev};
  }
  for (const LinkConfig& l : links) {
    ResolvedLink r;
    if (!resolve(l.a, inv, &r.a) || !resolve(l.b, inv, &r.b)) continue;
    peer_[r.a] = r.b;
    peer_[r.b] = r.a;
    links_.push_back(std::move(r));
  }
  std::set<PortRef> fixed;
  for (const auto& [port, peer] : peer_) fixed.insert(port);
  LldpLinks learned = lldpLinks(inv, lldp_names, fixed);
  for (ResolvedLink& l : learned.links) {
    peer_[l.a] = l.b;
    peer_[l.b] = l.a;
    links_.push_back(std::move(l));
  }
  conflicts_ = std::move(learned.conflicts);
}

const PortRef* LinkMap::peerOf(const PortRef& port) const {
  auto it = peer_.find(port);
  return it == peer_.end() ? nullptr : &it->second;
}

const PortRef* LinkMap::netdevPort(const RdmaPortRef& port) const {
  auto it = netdev_.find(port);
  return it == netdev_.end() ? nullptr : &it->second;
}

}  // namespace rdmagw::analytics
