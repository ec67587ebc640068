#include "northbound/prometheus/fleet_sd.h"

#include <nlohmann/json.hpp>

namespace rdmagw::northbound::prometheus {

std::string fleetSdJson(const FleetSnapshot& fleet) {
  nlohmann::json groups = nlohmann::json::array();
  if (!fleet.enabled) return groups.dump();
  for (const FleetMemberView& m : fleet.members) {
    auto it = m.addresses.find("prometheus");
    if (it == m.addresses.end() || it->second.empty()) continue;  // serves no /metrics
    groups.push_back({{"targets", {it->second}}, {"labels", {{"member", m.name}, {"cluster", fleet.cluster}}}});
  }
  return groups.dump();
}

std::string healthText(const FleetSnapshot& fleet) {
  if (!fleet.enabled) return "ok\n";
  std::string out = "ok\ncluster: " + fleet.state;
  if (fleet.state == "degraded") out += " (etcd does not answer: placement frozen, collecting what this member owns)";
  if (fleet.state == "joining") out += " (waiting for etcd: collecting nothing yet)";
  if (fleet.state == "lost") out += " (lease lost: targets stopped, joining again)";
  out += "\nmember: " + fleet.self + " of " + std::to_string(fleet.members.size()) + "\n";
  return out;
}

}  // namespace rdmagw::northbound::prometheus
