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

  // The far end of `port`'s cable when its counters are current (its
  // target's last collection worked; in a fleet, its owner's copy still
  // arrives), else null: a verdict that compares the two ends' counters is
  // not given on a stale end's old ones.
  const PortRef* currentPeerOf(const PortRef& port) const {
    const PortRef* peer = links.peerOf(port);
    return peer != nullptr && inv.up.count(peer->target) ? peer : nullptr;
  }

  std::optional<Increase> increase(std::string_view target, Input input, std::string_view l1,
                                   std::string_view l2) const {
    return window.increase(counterKey(target, input, l1, l2), now);
  }
};

}  // namespace rdmagw::analytics
