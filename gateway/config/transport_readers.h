#pragma once
// The readers of a target's transport choice and of its transport blocks
// (`ssh:`, `gnmi:`, `nxapi:`), each filled with the target's address and
// credentials. The target reader (gateway/config/target_config.cc) calls
// them; they live apart so each stays one screen long.

#include <string>

#include "gateway/config/target_config.h"
#include "gateway/config/yaml_reader.h"

namespace rdmagw::gateway {

// `transport:` as a name, or (a Nexus) a list in order of preference,
// returned joined by ',' ("gnmi,nxapi,ssh"). A list's problems go to `r`.
std::string readTransport(YamlReader& r, const YAML::Node& target, const std::string& path);

// Each fills its block of `t` from the target entry and reports every
// problem to `r` under `path` (the target's).
void readSsh(YamlReader& r, const YAML::Node& target, const std::string& path, TargetConfig* t);
void readGnmi(YamlReader& r, const YAML::Node& target, const std::string& path, TargetConfig* t);
void readNxapi(YamlReader& r, const YAML::Node& target, const std::string& path, TargetConfig* t);

// A Nexus's transports must be known, once each, gNMI only first; and a
// `ssh:`, `gnmi:` or `nxapi:` block is only for a target that uses it.
void checkTransportBlocks(YamlReader& r, const YAML::Node& target, const std::string& path, const TargetConfig& t);

}  // namespace rdmagw::gateway
