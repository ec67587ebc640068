#include "southbound/nxos/nxos_if_counters.h"

#include "southbound/nxos/nxos_error_columns.h"
#include "southbound/nxos/nxos_queue_stats.h"

namespace rdmagw::southbound::nxos {
namespace {

std::optional<uint64_t> sumOfParts(const std::map<std::string_view, std::optional<uint64_t>>& m,
                                   std::string_view dir) {
  std::optional<uint64_t> sum = 0;
  for (std::string_view part : {"-unicast-pkts", "-multicast-pkts", "-broadcast-pkts"}) {
    auto it = m.find(std::string(dir) + std::string(part));
    if (it == m.end() || !it->second) return std::nullopt;
    sum = addChecked(*sum, *it->second);
    if (!sum) return std::nullopt;
  }
  return sum;
}

}  // namespace

void IfCounters::emit(const std::string& ifname, Emitter& em) const {
  for (const auto& [leaf, v] : leaves_) {
    if (!v) continue;
    if (isEthernetCounterLeaf(leaf)) {
      em.counter(ethCounterPath(ifname, leaf), *v);
    } else {
      em.counter(ifCounterPath(ifname, leaf), *v);
    }
  }
  // The device printed only the parts: in-pkts = unicast + multicast + broadcast.
  for (std::string_view dir : {"in", "out"}) {
    std::string total = std::string(dir) + "-pkts";
    if (leaves_.count(total) > 0) continue;
    if (std::optional<uint64_t> s = sumOfParts(leaves_, dir)) em.counter(ifCounterPath(ifname, total), *s);
  }
}

}  // namespace rdmagw::southbound::nxos
