#pragma once
// Links learned from LLDP: the neighbour leaves a target reports
// (/lldp/.../neighbor/state, models/lldp.h) matched to a port of another
// target the store knows. The system name names the target (the config's
// analytics.lldp_names first, then the target name case-insensitively,
// then the same without its domain); the port ID names the port, or the
// port description when the port ID is a MAC (lldpd's default on Linux).
// A neighbour no target matches (a system nobody monitors) is ignored.

#include <map>
#include <set>
#include <string>
#include <vector>

#include "analytics/fabric_reader.h"
#include "models/store.h"

namespace rdmagw::analytics {

struct ResolvedLink {
  PortRef a;
  PortRef b;
  const char* source = "static";  // "static" (the config) or "lldp"
  TimestampNs last_seen = 0;      // lldp: the newer end's neighbour leaves; static: 0 (none)
};

struct LldpLinks {
  std::vector<ResolvedLink> links;
  // Ends that disagree (A hears B, B hears C), one line each; their links
  // are left out. Stable text, so a caller can report each once.
  std::vector<std::string> conflicts;
};

// Links from the inventory's LLDP neighbours, each cable once however many
// of its ends report it. Ports in `fixed` (cabled by static links) are
// skipped: the config overrides LLDP for them.
LldpLinks lldpLinks(const FabricInventory& inv, const std::map<std::string, std::string>& names,
                    const std::set<PortRef>& fixed);

}  // namespace rdmagw::analytics
