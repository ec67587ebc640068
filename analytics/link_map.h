#pragma once
// The cabling, resolved to the names the store uses: the config's static
// links (an RDMA port end becomes its netdev once the host has reported
// it), then the links LLDP teaches (lldp_links.h) for every port no static
// link cables. A link whose end cannot be resolved yet is left out of this
// run, not an error.

#include <map>
#include <string>
#include <vector>

#include "analytics/analytics_config.h"
#include "analytics/fabric_reader.h"
#include "analytics/lldp_links.h"

namespace rdmagw::analytics {

class LinkMap {
 public:
  // lldp_names: LLDP system name -> target, where the two differ.
  LinkMap(const std::vector<LinkConfig>& links, const FabricInventory& inv,
          const std::map<std::string, std::string>& lldp_names = {});

  const std::vector<ResolvedLink>& links() const { return links_; }
  // LLDP ends that disagree this run (lldpLinks); the engine logs each once.
  const std::vector<std::string>& conflicts() const { return conflicts_; }
  // The port at the other end of `port`'s cable, or null.
  const PortRef* peerOf(const PortRef& port) const;
  // The host port an RDMA port sends and receives through.
  const PortRef* netdevPort(const RdmaPortRef& port) const;

 private:
  std::vector<ResolvedLink> links_;
  std::vector<std::string> conflicts_;
  std::map<PortRef, PortRef> peer_;
  std::map<RdmaPortRef, PortRef> netdev_;
};

}  // namespace rdmagw::analytics
