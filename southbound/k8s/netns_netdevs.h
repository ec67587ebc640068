#pragma once
// The netdevs inside one network namespace, each confirmed there by the
// kernel with its driver and bus address (ethtool's GDRVINFO: for a VF its
// PCI address). This is how a VF handed to a pod is found in the pod's netns,
// by bus address rather than by name, MAC or GUID.
//
// No fork (the gateway promises none per poll) and no change to the
// caller's netns: a short-lived thread enters the namespace (setns() moves
// only the calling thread), reads, closes what it opened and exits, taking
// its reference to the namespace with it. Needs CAP_SYS_ADMIN.

#include <string>
#include <vector>

#include "models/status.h"

namespace rdmagw::southbound::k8s {

struct NetnsNetdev {
  std::string name;  // as the netns names it (a VF in a pod is often "net1")
  unsigned index = 0;
  std::string driver;    // "mlx5_core", "veth", ...; empty when ethtool failed
  std::string bus_info;  // a PCI address for a PCI function; may be empty
  std::string ethtool_error;  // why driver is empty ("lo" has no driver)
};

// Every interface of the netns pinned at `netns_path` (a /var/run/netns
// file or /proc/<pid>/ns/net), sorted by index. Errors: notFound (no such
// file), invalidArgument (not a netns), unavailable (no permission to
// enter), ioError (anything else), each naming the path.
Result<std::vector<NetnsNetdev>> listNetnsNetdevs(const std::string& netns_path);

}  // namespace rdmagw::southbound::k8s
