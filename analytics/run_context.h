#pragma once
// What every derived signal reads in one analytics run.

#include <optional>
#include <string_view>

#include "analytics/analytics_config.h"
#include "analytics/counter_window.h"
#include "analytics/fabric_reader.h"
#include "analytics/link_map.h"

namespace rdmagw::analytics {

struct RunContext {
  const FabricInventory& inv;
  const CounterWindow& window;
  const LinkMap& links;
  const AnalyticsConfig& config;
  TimestampNs now;

  std::optional<Increase> increase(std::string_view target, Input input, std::string_view l1,
                                   std::string_view l2) const {
    return window.increase(counterKey(target, input, l1, l2), now);
  }
};

}  // namespace rdmagw::analytics
