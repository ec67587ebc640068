#include "analytics/lldp_rows.h"

#include <algorithm>

namespace rdmagw::analytics {
namespace {

constexpr std::string_view kLldpState = "/lldp/interfaces/interface/neighbors/neighbor/state/";

}  // namespace

std::vector<std::string> lldpRowPaths() {
  std::vector<std::string> out;
  for (const char* leaf : {"system-name", "port-id", "port-id-type", "port-description"}) {
    out.push_back(std::string(kLldpState) + leaf);
  }
  return out;
}

bool readLldpAndPorts(const std::string& target, const SeriesView& s, std::set<PortRef>& ports,
                      LldpNeighbors& lldp) {
  const std::string_view path = s.schema->path;
  if (s.label_values.empty()) return false;
  if (path.starts_with("/interfaces/interface/") || path.starts_with("/hypervisor/nics/nic/")) {
    ports.insert({target, s.label_values[0]});
    return false;
  }
  if (!path.starts_with(kLldpState) || s.label_values.size() != 2) return false;
  const auto* text = std::get_if<std::string>(&s.value);
  if (text == nullptr) return true;
  LldpNeighbor& n = lldp[{PortRef{target, s.label_values[0]}, s.label_values[1]}];
  n.local = {target, s.label_values[0]};
  n.seen = std::max(n.seen, s.timestamp_ns);
  const std::string_view leaf = path.substr(kLldpState.size());
  if (leaf == "system-name") n.system_name = *text;
  if (leaf == "port-id") n.port_id = *text;
  if (leaf == "port-id-type") n.port_id_type = *text;
  if (leaf == "port-description") n.port_description = *text;
  return true;
}

}  // namespace rdmagw::analytics
