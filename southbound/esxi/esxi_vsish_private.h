#pragma once
// The driver-private part of `vsish .../pNics/vmnicN/stats` (the "hw" string
// of the -pe form, the block after the generic stats in the plain form).
// Its layout is the driver's own, so it is read line by line:
//
//   name: number | name=number           one stat
//   label: a=1 b=2 ...                   several stats "label-a", "label-b"
//                                        (Intel "rxq0: totalPkts=..." and
//                                        "PFC TC[0]: RxXon=0 ...")
//   Heading:                             prefixes the stats that follow it,
//                                        up to the next blank line ("LFC:")
//   anything else                        skipped, counted in one error line
//
// Mellanox nmlx5 pause names (camelCase or snake_case: rxPauseCtrlPhy,
// rx_global_pause_transition, rx_prio3_pause_duration...) map to the schema's
// state/pause-counters/* and priorities/priority[id=N]/state/counters/* rows.
// Every other stat goes to state/driver-private/<sanitized-name>: leaves
// without a schema row, which the store keeps and Prometheus skips.
//
// Intel "PFC TC[n]: RxXon= RxXoff= TxXon= TxXoff= Xon2Xoff=" is NOT mapped to
// the per-priority rows: n is a traffic class, and which 802.1p priorities
// feed a TC is DCB configuration the output does not show (and Xon2Xoff has
// no row). Mapping TC n to priority n would misattribute on any host whose
// priority-to-TC map is not the identity, so these stay driver-private
// ("pfc-tc-3-rx-xoff").

#include <cstddef>
#include <set>
#include <string>
#include <string_view>
#include <vector>

#include "models/update.h"
#include "models/value.h"

namespace rdmagw::southbound::esxi {

class EsxiPrivateStats {
 public:
  EsxiPrivateStats(std::string nic, TimestampNs ts, PollBatch& out)
      : nic_(std::move(nic)), ts_(ts), out_(out) {}

  // One line of the private text (line_no for error lines).
  void addLine(std::string_view line, size_t line_no);
  // A whole multi-line block.
  void addBlock(std::string_view block);
  // One stat already split (the members of a -pe private object).
  void addStat(std::string_view group, std::string_view name, std::string_view value,
               size_t line_no);

  size_t kept() const { return kept_; }
  // Appends one error line when something was skipped.
  void finish(std::string_view what);

 private:
  void skip(size_t line_no, std::string_view line, std::string_view why);
  bool addPairs(std::string_view label, std::string_view rest, size_t line_no);

  std::string nic_;
  TimestampNs ts_;
  PollBatch& out_;
  std::string group_;
  std::set<std::string> seen_paths_;
  size_t kept_ = 0;
  size_t skipped_ = 0;
  std::vector<std::string> samples_;
};

// The schema path for a known nmlx5 pause stat, or empty (exposed for tests).
std::string esxiPausePath(std::string_view nic, std::string_view stat_name);

}  // namespace rdmagw::southbound::esxi
