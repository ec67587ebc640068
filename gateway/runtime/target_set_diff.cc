#include "gateway/runtime/target_set_diff.h"

#include <map>

namespace rdmagw::gateway {

TargetSetDiff diffTargets(const std::vector<TargetConfig>& running, const std::vector<TargetConfig>& next) {
  TargetSetDiff diff;
  std::map<std::string, const TargetConfig*> old_by_name;
  for (const TargetConfig& t : running) old_by_name.emplace(t.name, &t);
  std::map<std::string, const TargetConfig*> new_by_name;
  for (const TargetConfig& t : next) new_by_name.emplace(t.name, &t);
  for (const TargetConfig& t : running) {
    if (!new_by_name.count(t.name)) diff.removed.push_back(t.name);
  }
  for (const TargetConfig& t : next) {
    auto it = old_by_name.find(t.name);
    if (it == old_by_name.end()) {
      diff.added.push_back(t);
    } else if (!sameTargetSettings(*it->second, t)) {
      diff.changed.push_back(t);
    } else {
      ++diff.unchanged;
    }
  }
  return diff;
}

std::vector<std::string> settingsNeedingRestart(const GatewayConfig& running, const GatewayConfig& next) {
  std::vector<std::string> out;
  for (const auto& [key, text] : next.settings_text) {
    if (key == "log_level" || key == "analytics") continue;  // applied live
    auto it = running.settings_text.find(key);
    const std::string before = it == running.settings_text.end() ? std::string() : it->second;
    if (before != text) out.push_back(key);
  }
  return out;
}

bool analyticsChanged(const GatewayConfig& running, const GatewayConfig& next) {
  auto text = [](const GatewayConfig& c) {
    auto it = c.settings_text.find("analytics");
    return it == c.settings_text.end() ? std::string() : it->second;
  };
  return text(running) != text(next);
}

}  // namespace rdmagw::gateway
