#pragma once
// What `rdmagw check roce` makes of the /fabric/checks/roce leaves it read
// (one set per target; each target holds the findings about itself): the
// groups summed over targets, every finding, the text and JSON it prints and
// its exit status. Pure: no I/O, so it is tested without a gateway.
//
// The leaves (written by the analytics):
//   /fabric/checks/roce/groups/group[name=G]/state/{checked,failed,warned,status,status-code}
//   /fabric/checks/roce/findings/finding[id=I]/state/{group,severity,port,check,expected,found}

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "gateway/cli/missing_member.h"
#include "models/path.h"
#include "models/status.h"

namespace rdmagw::gateway {

// One leaf as the gNMI Get returned it.
struct CheckLeaf {
  std::string target;
  Path path;          // without origin or module prefixes, from "fabric" down
  std::string value;  // numbers in decimal
};

struct RoceCheckGroup {
  int number = 0;       // 1..6 for the fixed groups, 0 for one this command does not know
  std::string name;
  uint64_t checked = 0, failed = 0, warned = 0;  // summed over targets
  std::string status;   // PASS | WARN | FAIL: the worst of the targets' and of the counts
  int targets = 0;      // targets that reported the group
};

struct RoceFinding {
  std::string target, group, severity, port, check, expected, found;
};

struct RoceCheckReport {
  std::vector<RoceCheckGroup> groups;    // fixed order first (lossless .. live), then others by name
  std::vector<RoceFinding> findings;     // by group, FAIL before WARN, then target, port, check
  int targets = 0;                       // targets with any check leaf
  // Fleet members that did not answer: their targets' checks are missing,
  // so the report cannot pass (it can still fail on what it has).
  std::vector<MissingMember> missing_members;
};

// The fixed groups, in their order (group N is kRoceCheckGroups[N - 1]).
extern const std::vector<std::string> kRoceCheckGroups;

// "3" or "congestion-control" -> "congestion-control"; else InvalidArgument.
Result<std::string> roceCheckGroupArg(const std::string& text);

// Sums the leaves of every target; leaves outside /fabric/checks/roce are
// ignored. `only_group`: keep that group (and its findings) alone.
RoceCheckReport aggregateRoceChecks(const std::vector<CheckLeaf>& leaves,
                                    const std::optional<std::string>& only_group = std::nullopt);

// 0: every group passed (warnings allowed); 1: a group failed; 2: nothing
// was checked (no group at all), or a fleet member did not answer and no
// group failed.
int roceCheckExitCode(const RoceCheckReport& report);

// As `netq check roce` prints: a summary line per group, then every
// failure and warning with what was expected and what was found.
std::string formatRoceCheckText(const RoceCheckReport& report);

// The same as one JSON object: result, exit_code, targets, groups[], findings[].
std::string formatRoceCheckJson(const RoceCheckReport& report);

}  // namespace rdmagw::gateway
