#pragma once
// Reads the `northbound.gnmi` block into northbound::gnmi::GnmiServerConfig:
//
//   gnmi:
//     listen: 127.0.0.1:9339
//     tls: {cert: FILE, key: FILE, client_ca: FILE}   # client_ca: mutual TLS
//     insecure: false            # true: plain text, loopback only ...
//     insecure_remote: false     # ... unless this is true too
//     users_file: FILE           # user:$pbkdf2-sha256$... lines (northbound/gnmi/user_auth.h)
//     users_env: VAR             # the same lines from an environment variable
//     min_sample_interval: 1s    # sample_interval 0 means this; less is refused
//     target_defined_interval: 10s
//     limits: {max_subscriptions: 256, max_subscriptions_per_client: 64, max_queued_updates: 200000}

#include <yaml-cpp/yaml.h>

#include "gateway/config/yaml_reader.h"
#include "northbound/gnmi/gnmi_server_config.h"

namespace rdmagw::gateway {

void readGnmiNorthbound(YamlReader& r, const YAML::Node& n, northbound::gnmi::GnmiServerConfig* out);

// One line per setting for `rdmagw check-config`.
std::string explainGnmiNorthbound(const northbound::gnmi::GnmiServerConfig& c);

}  // namespace rdmagw::gateway
