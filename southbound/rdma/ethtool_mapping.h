#pragma once
// Which `ethtool -S` names feed which model leaves, as a table of name
// patterns ('N' stands for a priority 0..7) and leaf templates. Names the
// table lacks are ignored: mlx5 alone prints hundreds.

#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>

#include "models/update.h"
#include "southbound/rdma/ethtool_source.h"

namespace rdmagw::southbound::rdma {

// Where below /interfaces/interface[name=<netdev>] a rule's leaf lives.
enum class EthtoolScope : uint8_t {
  kInterface,  // state/counters/<leaf>
  kEthernet,   // ethernet/state/counters/<leaf>
  kPfc,        // ethernet/pfc/state/counters/<leaf>
  kPriority,   // ethernet/pfc/priorities/priority[id=N]/state/counters/<leaf>
};

struct EthtoolRule {
  std::string_view pattern;  // "rx_prioN_pause"; only kPriority rules hold 'N'
  EthtoolScope scope;
  std::string_view leaf;  // "in-pause-frames"
};

std::span<const EthtoolRule> ethtoolRules();

// Model path for one ethtool stat, or nullopt when the table has no rule.
std::optional<std::string> ethtoolLeafPath(const std::string& netdev, std::string_view stat);

// Appends one update per mapped stat, all stamped `ts` (when they were read).
void appendEthtoolUpdates(const std::string& netdev, const EthtoolStats& stats, TimestampNs ts,
                          PollBatch& batch);

}  // namespace rdmagw::southbound::rdma
