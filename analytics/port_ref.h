#pragma once
// How the analytics name a port and an RDMA port.

#include <compare>
#include <string>

namespace rdmagw::analytics {

// A port as the analytics name it: its target and its interface (switch
// port, host netdev, ESXi vmnic).
struct PortRef {
  std::string target;
  std::string iface;
  auto operator<=>(const PortRef&) const = default;
  std::string toString() const { return target + ":" + iface; }
};

struct RdmaPortRef {
  std::string target;
  std::string device;
  std::string port;
  auto operator<=>(const RdmaPortRef&) const = default;
};

}  // namespace rdmagw::analytics
