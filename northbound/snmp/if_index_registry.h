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
// Not thread-safe: the snapshot builder is its only user.

#include <cstdint>
#include <map>
#include <string>
#include <string_view>

#include "models/status.h"

namespace rdmagw::northbound::snmp {

class IfIndexRegistry {
 public:
  // An empty path keeps assignments in memory only (tests, no state dir).
  explicit IfIndexRegistry(std::string state_file = "");

  // Reads the state file; a missing file is an empty registry. A malformed
  // line, or one giving a number another name already holds, is skipped and
  // reported in the returned Status (the rest loads).
  Status load();
  // The ifIndex of `name` in `context`; assigns the next free one if new.
  uint32_t indexOf(std::string_view context, std::string_view name);
  // Writes the file when an assignment was added since the last save.
  Status saveIfChanged();

  const std::string& stateFile() const { return state_file_; }

 private:
  // InterfaceIndex (IF-MIB) is 1..2^31-1.
  static constexpr uint32_t kMaxIfIndex = 2147483647;
  struct Context {
    std::map<std::string, uint32_t, std::less<>> by_name;
    std::map<uint32_t, std::string> by_index;  // the same assignments, by number
    uint32_t highest = 0;
  };
  const std::string state_file_;
  std::map<std::string, Context, std::less<>> contexts_;
  bool dirty_ = false;
};

}  // namespace rdmagw::northbound::snmp
