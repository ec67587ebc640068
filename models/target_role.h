#pragma once
// What a target is in the fabric, whatever the kind of device or the
// transport that reads it: a switch, a host's NICs, or a hypervisor's
// vmnics. The gateway says which kind plays which role where it registers
// its collectors, so code above the collectors (the analytics) reasons in
// roles and never names a vendor.

#include <functional>
#include <map>
#include <string>

namespace rdmagw {

enum class TargetRole { kUnknown, kSwitch, kHost, kHypervisor };

// Target kind ("nexus", "rdma-host", ...) -> its role; a kind not named has
// an unknown role.
using TargetRoles = std::map<std::string, TargetRole, std::less<>>;

}  // namespace rdmagw
