#pragma once
// Reads the `cluster` block: this gateway as one member of a fleet that
// shares the configured targets through etcd (cluster/membership.h,
// cluster/placement.h; docs/fleet.md).
//
//   cluster:
//     endpoints: [http://10.0.0.1:2379, http://10.0.0.2:2379]
//     name: fabric-a          # the fleet; members of one fleet share it
//     member: gw1             # default: the host name
//     lease_ttl: 10s          # a dead member's targets move after this
//     tls: {ca_file: F, cert_file: F, key_file: F}   # https:// endpoints
//     user: rdmagw            # etcd authentication, with password_file
//     password_file: /run/credentials/rdmagw.service/etcd
//     member_secret_file: $CREDENTIALS_DIRECTORY/rdmagw-member   # the same on every member
//     advertise:              # how the others reach this member
//       prometheus: 10.0.0.5:9464
//       gnmi: 10.0.0.5:9339
//       snmp: 10.0.0.5:161
//
// Without `advertise`, a northbound's listen address is advertised, with
// a wildcard host (0.0.0.0, [::]) replaced by this host's name.
//
// member_secret_file proves to the other members that a gNMI call comes
// from a member (northbound/gnmi/member_identity.h): the peer copy of the
// analytics passes their users_file, and their per-client limits believe
// whom a forwarded stream is for. Mutual TLS on northbound.gnmi proves it
// too, without a secret.

#include <yaml-cpp/yaml.h>

#include <string>

#include "cluster/membership.h"
#include "gateway/config/yaml_reader.h"

namespace rdmagw::gateway {

struct ClusterSettings {
  bool enabled = false;  // a `cluster` block turns fleet mode on
  cluster::MembershipConfig membership;
  std::string member_secret_file;  // empty: no member secret
};

void readCluster(YamlReader& r, const YAML::Node& n, ClusterSettings* out);

// "10.0.0.5:9464" for a listen address, the wildcard host replaced by
// `host_name` (what others can dial).
std::string advertisedAddress(const std::string& listen, const std::string& host_name);

// One line per setting for `rdmagw check-config`.
std::string explainCluster(const ClusterSettings& c);

}  // namespace rdmagw::gateway
