#pragma once
// Stable ifIndex values per SNMP context (device). An interface keeps its
// ifIndex for as long as the state file lives: across gateway restarts and
// when the interface disappears and comes back. Numbers are never reused
// for another name, as RFC 2863 asks ("until the next re-initialization").
//
// State file: one line per assignment, "context<TAB>interface<TAB>ifIndex",
// rewritten through a temp file and rename so a crash never leaves it half
// written. Names holding a tab or newline are not persisted (none seen).
//
// Two schemes (SnmpConfig::if_index):
//  - kSequential: numbers are assigned 1, 2, 3... on first sight and kept
//    in the state file. A lone gateway's default: its NMS history, keyed on
//    those numbers, must not renumber on upgrade.
//  - kDerived: numbers are a function of the name (if_index_derivation.h),
//    so every fleet member serves a moved target's interfaces under the
//    numbers its previous owner used. No state file: nothing to keep.
//    Collisions of hashed names are settled in a fixed order: a name keeps
//    the number it got; the names first seen in one build take theirs in
//    byte order of the names (settle()), each the first free number from
//    its home up. A member that sees a target's names at once (the new
//    owner after a move) thus numbers them as the old owner did, unless two
//    of them collide and the old owner saw the larger name first (for 300
//    hashed names on a device, two collide at all with a chance of 3e-5).
//
// Not thread-safe: the snapshot builder is its only user.

#include <cstdint>
#include <map>
#include <string>
#include <string_view>
#include <vector>

#include "models/status.h"

namespace rdmagw::northbound::snmp {

enum class IfIndexScheme { kSequential, kDerived };

class IfIndexRegistry {
 public:
  // An empty path keeps assignments in memory only (tests, no state dir).
  // kDerived never reads nor writes the file.
  explicit IfIndexRegistry(std::string state_file = "", IfIndexScheme scheme = IfIndexScheme::kSequential);

  // Reads the state file; a missing file is an empty registry. A malformed
  // line, or one giving a number another name already holds, is skipped and
  // reported in the returned Status (the rest loads).
  Status load();
  // The ifIndex of `name` in `context`; assigns the next free one if new.
  uint32_t indexOf(std::string_view context, std::string_view name);
  // Called once a build has asked for every name of `context`: makes the
  // names first seen since the last call take their numbers as if asked in
  // byte order. True when that changed a number indexOf() gave (a caller
  // that used it must ask again). Only kDerived, and only after a collision
  // among those names, ever changes one.
  bool settle(std::string_view context);
  // Writes the file when an assignment was added since the last save.
  Status saveIfChanged();

  const std::string& stateFile() const { return state_file_; }
  IfIndexScheme scheme() const { return scheme_; }

 private:
  struct Context {
    std::map<std::string, uint32_t, std::less<>> by_name;
    std::map<uint32_t, std::string> by_index;  // the same assignments, by number
    uint32_t highest = 0;
    std::vector<std::string> fresh;  // kDerived: first seen since the last settle()
    bool fresh_moved = false;        // one of them is not at its home number
  };
  uint32_t derive(Context& ctx, const std::string& name);

  const std::string state_file_;
  const IfIndexScheme scheme_;
  std::map<std::string, Context, std::less<>> contexts_;
  bool dirty_ = false;
};

}  // namespace rdmagw::northbound::snmp
