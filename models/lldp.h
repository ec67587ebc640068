#pragma once
// LLDP neighbour leaves as every collector writes them (the OpenConfig
// openconfig-lldp state, yang/rdmagw-lldp.yang), and the two facts about
// LLDP values the collectors and analytics/ share. Header-only: the SSH
// parsers, the RDMA collector and the analytics each include it.

#include <cctype>
#include <string>
#include <string_view>

#include "models/path.h"

namespace rdmagw::lldp {

// /lldp/interfaces/interface[name=IF]/neighbors/neighbor[id=ID]/state/<leaf>
inline std::string neighborPath(const std::string& ifname, const std::string& id, std::string_view leaf) {
  Path p;
  p.add("lldp").add("interfaces").add("interface", {{"name", ifname}}).add("neighbors");
  p.add("neighbor", {{"id", id}}).add("state").add(std::string(leaf));
  return p.toString();
}

// "aa:bb:cc:dd:ee:ff", "aa-bb-cc-dd-ee-ff", "aabb.ccdd.eeff" (NX-OS): a MAC
// address, which names no port (lldpd's default port ID on Linux).
inline bool looksLikeMac(std::string_view s) {
  std::string hex;
  for (char c : s) {
    if (std::isxdigit(static_cast<unsigned char>(c))) {
      hex.push_back(c);
    } else if (c != ':' && c != '-' && c != '.') {
      return false;
    }
  }
  return hex.size() == 12 && s.size() >= 14;
}

// A device's word for the port ID subtype (NX-OS "Interface Name", "Mac
// Address", "Locally Assigned"; lldpd "ifname", "mac", "local", "ifalias")
// as OpenConfig's PortIdType; "" when unknown.
inline std::string portIdType(std::string_view word) {
  std::string w;
  for (char c : word) {
    if (std::isalnum(static_cast<unsigned char>(c))) w.push_back(char(std::tolower(static_cast<unsigned char>(c))));
  }
  if (w == "interfacename" || w == "ifname") return "INTERFACE_NAME";
  if (w == "macaddress" || w == "mac") return "MAC_ADDRESS";
  if (w == "locallyassigned" || w == "local") return "LOCAL";
  if (w == "interfacealias" || w == "ifalias") return "INTERFACE_ALIAS";
  if (w == "portcomponent") return "PORT_COMPONENT";
  if (w == "networkaddress" || w == "ip") return "NETWORK_ADDRESS";
  if (w == "agentcircuitid") return "AGENT_CIRCUIT_ID";
  return "";
}

}  // namespace rdmagw::lldp
