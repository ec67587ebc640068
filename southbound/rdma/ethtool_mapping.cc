#include "southbound/rdma/ethtool_mapping.h"

#include <unordered_map>

#include "models/path.h"

namespace rdmagw::southbound::rdma {
namespace {

using S = EthtoolScope;

// mlx5 names (drivers/net/ethernet/mellanox/mlx5/core/en_stats.c). Durations
// are in microseconds, as the schema rows are.
constexpr EthtoolRule kRules[] = {
    {"rx_prioN_pause", S::kPriority, "in-pause-frames"},
    {"tx_prioN_pause", S::kPriority, "out-pause-frames"},
    {"rx_prioN_pause_duration", S::kPriority, "in-pause-duration"},
    {"tx_prioN_pause_duration", S::kPriority, "out-pause-duration"},
    {"rx_prioN_pause_transition", S::kPriority, "in-pause-transitions"},
    {"rx_prioN_bytes", S::kPriority, "in-octets"},
    {"tx_prioN_bytes", S::kPriority, "out-octets"},
    {"rx_prioN_packets", S::kPriority, "in-pkts"},
    {"tx_prioN_packets", S::kPriority, "out-pkts"},
    {"rx_prioN_discards", S::kPriority, "in-discards"},
    {"rx_pause_ctrl_phy", S::kPfc, "in-pause-ctrl-frames"},
    {"tx_pause_ctrl_phy", S::kPfc, "out-pause-ctrl-frames"},
    {"rx_global_pause_duration", S::kPfc, "in-global-pause-duration"},
    {"tx_global_pause_duration", S::kPfc, "out-global-pause-duration"},
    {"rx_global_pause_transition", S::kPfc, "in-global-pause-transitions"},
    {"tx_pause_storm_warning_events", S::kPfc, "pause-storm-warning-events"},
    {"tx_pause_storm_error_events", S::kPfc, "pause-storm-error-events"},
    {"rx_global_pause", S::kEthernet, "in-mac-pause-frames"},
    {"tx_global_pause", S::kEthernet, "out-mac-pause-frames"},
    {"rx_bytes", S::kInterface, "in-octets"},
    {"tx_bytes", S::kInterface, "out-octets"},
    {"rx_packets", S::kInterface, "in-pkts"},
    {"tx_packets", S::kInterface, "out-pkts"},
    {"rx_discards_phy", S::kInterface, "in-discards"},
};

constexpr int kPriorities = 8;  // 802.1Qbb priorities 0..7

struct Target {
  const EthtoolRule* rule;
  int priority;  // -1 outside kPriority
};

// Every concrete ethtool name, expanded once from the patterns.
const std::unordered_map<std::string, Target>& index() {
  static const auto* map = [] {
    auto* m = new std::unordered_map<std::string, Target>();
    for (const EthtoolRule& r : kRules) {
      size_t n = r.pattern.find('N');
      if (r.scope != S::kPriority || n == std::string_view::npos) {
        m->emplace(std::string(r.pattern), Target{&r, -1});
        continue;
      }
      for (int p = 0; p < kPriorities; ++p) {
        // Concatenation, not string::replace: g++ 12 warns falsely (-Wrestrict) on the latter.
        std::string name = std::string(r.pattern.substr(0, n)) + std::to_string(p) +
                           std::string(r.pattern.substr(n + 1));
        m->emplace(std::move(name), Target{&r, p});
      }
    }
    return m;
  }();
  return *map;
}

std::string buildPath(const std::string& netdev, const Target& t) {
  Path p;
  p.add("interfaces").add("interface", {{"name", netdev}});
  switch (t.rule->scope) {
    case S::kInterface:
      break;
    case S::kEthernet:
      p.add("ethernet");
      break;
    case S::kPfc:
      p.add("ethernet").add("pfc");
      break;
    case S::kPriority:
      p.add("ethernet")
          .add("pfc")
          .add("priorities")
          .add("priority", {{"id", std::to_string(t.priority)}});
      break;
  }
  p.add("state").add("counters").add(std::string(t.rule->leaf));
  return p.toString();
}

}  // namespace

std::span<const EthtoolRule> ethtoolRules() { return kRules; }

std::optional<std::string> ethtoolLeafPath(const std::string& netdev, std::string_view stat) {
  const auto& idx = index();
  auto it = idx.find(std::string(stat));
  if (it == idx.end()) return std::nullopt;
  return buildPath(netdev, it->second);
}

void appendEthtoolUpdates(const std::string& netdev, const EthtoolStats& stats, TimestampNs ts,
                          PollBatch& batch) {
  for (const auto& [name, value] : stats) {
    if (std::optional<std::string> path = ethtoolLeafPath(netdev, name)) {
      batch.add(std::move(*path), value, ts, CounterSource::monotonic64());
    }
  }
}

}  // namespace rdmagw::southbound::rdma
