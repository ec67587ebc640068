#pragma once
// The configured cabling, resolved to the names the store uses: an RDMA
// port end becomes its netdev once the host has reported it. A link whose
// end cannot be resolved yet is left out of this run, not an error.

#include <map>
#include <vector>

#include "analytics/analytics_config.h"
#include "analytics/fabric_reader.h"

namespace rdmagw::analytics {

struct ResolvedLink {
  PortRef a;
  PortRef b;
  const char* source = "static";  // where the link came from (LLDP later)
};

class LinkMap {
 public:
  LinkMap(const std::vector<LinkConfig>& links, const FabricInventory& inv);

  const std::vector<ResolvedLink>& links() const { return links_; }
  // The port at the other end of `port`'s cable, or null.
  const PortRef* peerOf(const PortRef& port) const;
  // The host port an RDMA port sends and receives through.
  const PortRef* netdevPort(const RdmaPortRef& port) const;

 private:
  std::vector<ResolvedLink> links_;
  std::map<PortRef, PortRef> peer_;
  std::map<RdmaPortRef, PortRef> netdev_;
};

}  // namespace rdmagw::analytics
