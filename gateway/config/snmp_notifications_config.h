#pragma once
// Reads `northbound.snmp.notifications` into SnmpConfig::notifications:
//
//   notifications:
//     - address: nms.example.net        # host[:port], [v6addr]:port; port 162 by default
//       version: 2c                     # 2c | 3
//       type: trap                      # trap | inform
//       community_env: VAR              # or community_file: FILE (v2c)
//     - address: 192.0.2.10:10162
//       version: 3
//       type: inform
//       user: rdmagw
//       auth_protocol: SHA-256          # SHA | SHA-256
//       auth_passphrase_env: VAR        # or auth_passphrase_file: FILE
//       priv_protocol: AES              # optional: authPriv
//       priv_passphrase_file: FILE      # or priv_passphrase_env: VAR
//       retries: 3                      # informs: resends before failed
//       timeout: 5s                     # informs: wait per send
//
// Secrets are references (inline `community:` or `*_passphrase:` is an
// error), read when the session to the destination opens, as the SSH
// credentials are read at connect time: a missing variable or file is then
// a warning naming it (never the value), and that destination's
// notifications count as failed until a reopen succeeds (every 30 s).

#include <yaml-cpp/yaml.h>

#include <string>

#include "gateway/config/yaml_reader.h"
#include "northbound/snmp/snmp_config.h"

namespace rdmagw::gateway {

void readSnmpNotifications(YamlReader& r, const YAML::Node& list, northbound::snmp::SnmpConfig* out);

// The resolver the SNMP northbound uses for these secrets (southbound/secret_source.h rules).
northbound::snmp::SecretReader snmpSecretReader();

// `rdmagw check-config`: the SNMP northbound and where notifications go.
std::string explainSnmpNorthbound(const northbound::snmp::SnmpConfig& c);

}  // namespace rdmagw::gateway
