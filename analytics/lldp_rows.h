#pragma once
// The LLDP neighbour leaves of one target, and the ports it has leaves for
// (what a neighbour's port ID may name), as readFabric takes them row by row.
// lldp_links.h turns them into links.

#include <map>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "analytics/port_ref.h"
#include "models/store.h"

namespace rdmagw::analytics {

// One LLDP neighbour a target reports on one of its ports (lldp_links.h).
struct LldpNeighbor {
  PortRef local;
  std::string system_name, port_id, port_id_type, port_description;
  TimestampNs seen = 0;  // the newest collection time of its leaves
};

using LldpNeighbors = std::map<std::pair<PortRef, std::string>, LldpNeighbor>;  // (local port, neighbour id)

// Notes the port a series is about (interfaces, vmnics) in `ports`, and
// takes an LLDP neighbour leaf into `lldp`. True when the series was an LLDP leaf.
bool readLldpAndPorts(const std::string& target, const SeriesView& s, std::set<PortRef>& ports,
                      LldpNeighbors& lldp);
// The LLDP neighbour rows readLldpAndPorts takes.
std::vector<std::string> lldpRowPaths();

}  // namespace rdmagw::analytics
