#pragma once
// Spells the derived leaves' paths (yang/rdmagw-fabric.yang) and gathers
// them per target. Every derived leaf lives under the target of the port it
// is about, with that port's keys, so it carries the same target, device,
// port, interface and priority labels as the raw counters it was made from
// (and the target's configured labels), and expires with them.

#include <map>
#include <string>
#include <string_view>
#include <vector>

#include "analytics/fabric_reader.h"
#include "models/update.h"

namespace rdmagw::analytics {

class DerivedWriter {
 public:
  explicit DerivedWriter(TimestampNs now) : now_(now) {}

  // /fabric/dcqcn/devices/device[name]/ports/port[port-num]/state/<leaf>
  void dcqcn(const RdmaPortRef& port, std::string_view leaf, Value v);
  // /fabric/interfaces/interface[name]/link/state/<leaf>
  void link(const PortRef& port, std::string_view leaf, Value v);
  // /fabric/interfaces/interface[name]/priorities/priority[id]/state/<leaf>
  void priority(const PortRef& port, int prio, std::string_view leaf, Value v);
  // /fabric/interfaces/interface[name]/dcb/state/<leaf>
  void dcb(const PortRef& port, std::string_view leaf, Value v);
  // /fabric/checks/roce/groups/group[name]/state/<leaf>
  void roceGroup(const std::string& target, std::string_view group, std::string_view leaf, Value v);
  // /fabric/checks/roce/findings/finding[id]/state/<leaf>
  void roceFinding(const std::string& target, const std::string& id, std::string_view leaf, Value v);

  std::map<std::string, std::vector<Update>>& byTarget() { return by_target_; }
  const std::map<std::string, std::vector<Update>>& byTarget() const { return by_target_; }

 private:
  void put(const std::string& target, std::string path, Value v);
  TimestampNs now_;
  std::map<std::string, std::vector<Update>> by_target_;
};

// The subtree every derived leaf is under; the engine removes it per port
// when a port stops having inputs.
inline constexpr std::string_view kFabricRoot = "/fabric";

}  // namespace rdmagw::analytics
