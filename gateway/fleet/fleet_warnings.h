#pragma once
// Settings that are valid one by one but leave a fleet member half-served:
// said by `rdmagw check-config` and logged when `rdmagw run` starts, so an
// operator learns it before an NMS or a cross-member link comes up blank.

#include <string>
#include <vector>

#include "gateway/config/config.h"

namespace rdmagw::gateway {

// One sentence per problem; empty outside a fleet or when all is well.
std::vector<std::string> fleetWarnings(const GatewayConfig& cfg);

}  // namespace rdmagw::gateway
