#pragma once
// Per qos-group egress statistics, shared by the text and JSON forms of
// `show queuing interface`: which stat type feeds which queue leaf, and an
// accumulator that emits one value per leaf.

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <string_view>

#include "southbound/nxos/nxos_emit.h"

namespace rdmagw::southbound::nxos {

struct QueueLeaf {
  std::string_view leaf;  // transmit-pkts, dropped-octets, ecn-marked-pkts...
  int rank;               // lower wins when several stat types feed one leaf
};

// eq-stat-type + eq-stat-units (JSON) or a text row label split at its unit:
//   Tx                                   -> transmit-{pkts,octets}
//   WRED/AFD & Tail Drop, WRED & Tail Drop -> dropped-*  (rank 0)
//   Tail Drop, Dropped, Drop             -> dropped-*  (rank 1, used only when
//                                           no WRED/AFD row is printed)
//   ECN (any type naming ECN)            -> ecn-marked-*
//   Q Depth, WD & Tail Drop (PFC watchdog), anything else -> nullopt (skipped)
// Units: Pkts/Packets -> -pkts, Byts/Bytes -> -octets.
std::optional<QueueLeaf> queueLeaf(std::string_view stat_type, std::string_view units);
// "WRED/AFD & Tail Drop Pkts" -> queueLeaf("WRED/AFD & Tail Drop", "Pkts").
std::optional<QueueLeaf> queueLeafFromLabel(std::string_view label);

// Values of one interface's qos-group; flush() emits them. A leaf whose
// inputs included a value that failed to parse is not emitted at all.
class QueueAccumulator {
 public:
  // Restarts for a new qos-group (emitting nothing).
  void reset(std::string ifname, std::string group);
  bool active() const { return !group_.empty(); }
  // Adds the sum of one row's cells (unicast + OOBFC unicast + multicast).
  void add(const QueueLeaf& leaf, std::optional<uint64_t> sum, bool bad);
  void flush(Emitter& em);

 private:
  struct Slot {
    int rank = 0;
    std::optional<uint64_t> value;
    bool bad = false;
  };
  std::string ifname_, group_;
  std::map<std::string_view, Slot> slots_;
};

// Per-port ingress drops (sum of the per-port "... Drop Pkts" rows).
class IngressAccumulator {
 public:
  void add(const std::string& ifname, std::optional<uint64_t> v, bool bad);
  void flush(Emitter& em);

 private:
  std::string ifname_;
  std::optional<uint64_t> sum_;
  bool bad_ = false;
};

// Adds b to a unless that overflows; nullopt on overflow.
std::optional<uint64_t> addChecked(uint64_t a, uint64_t b);

}  // namespace rdmagw::southbound::nxos
