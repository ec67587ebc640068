#pragma once
// The `cluster:` block of a fleet member's config, as every fleet test
// writes it: one etcd endpoint, the fleet's name, the member's name and a
// short lease, so that a killed member's targets move within seconds.

#include <string>

namespace rdmagw::testing {

inline std::string clusterYaml(const std::string& endpoint, const std::string& fleet, const std::string& member,
                               int lease_ttl_s) {
  return "cluster:\n  endpoints: [\"" + endpoint + "\"]\n  name: " + fleet + "\n  member: " + member +
         "\n  lease_ttl: " + std::to_string(lease_ttl_s) + "s\n";
}

}  // namespace rdmagw::testing
