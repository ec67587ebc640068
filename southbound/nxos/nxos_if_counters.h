#pragma once
// One interface's counters as the NX-OS parsers gather them before emitting:
// a value, or "seen but unreadable" (overflow), per leaf.

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <string_view>

#include "southbound/nxos/nxos_emit.h"

namespace rdmagw::southbound::nxos {

class IfCounters {
 public:
  // leaf: an /interfaces/interface/state/counters leaf, or one that
  // isEthernetCounterLeaf() places under ethernet/state/counters.
  void set(std::string_view leaf, std::optional<uint64_t> v) { leaves_[leaf] = v; }
  bool has(std::string_view leaf) const { return leaves_.count(leaf) > 0; }
  bool empty() const { return leaves_.empty(); }

  // Emits every readable leaf; in-pkts/out-pkts are derived from the
  // unicast + multicast + broadcast parts when the device gave no total.
  void emit(const std::string& ifname, Emitter& em) const;

 private:
  std::map<std::string_view, std::optional<uint64_t>> leaves_;
};

}  // namespace rdmagw::southbound::nxos
