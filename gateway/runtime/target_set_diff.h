#pragma once
// What a reload changes: the targets to start, to stop, and to restart, and
// the settings that differ but cannot change while the gateway runs.

#include <string>
#include <vector>

#include "gateway/config/config.h"

namespace rdmagw::gateway {

struct TargetSetDiff {
  std::vector<TargetConfig> added;    // in the new config's order
  std::vector<std::string> removed;   // names, in the running config's order
  std::vector<TargetConfig> changed;  // the new settings of targets whose settings differ
  size_t unchanged = 0;               // kept running untouched
  bool empty() const { return added.empty() && removed.empty() && changed.empty(); }
};

// Targets are matched by name; settings are compared with sameTargetSettings.
TargetSetDiff diffTargets(const std::vector<TargetConfig>& running, const std::vector<TargetConfig>& next);

// Settings (GatewayConfig::settings_text keys) that differ between the two
// and cannot be applied live: the northbound listeners, the limits sized at
// start. log_level and analytics are applied live, so they are not listed.
std::vector<std::string> settingsNeedingRestart(const GatewayConfig& running, const GatewayConfig& next);

// Whether the analytics stage must be rebuilt with next's settings.
bool analyticsChanged(const GatewayConfig& running, const GatewayConfig& next);

}  // namespace rdmagw::gateway
