#include "analytics/fabric_reader.h"

#include <algorithm>
#include <optional>

namespace rdmagw::analytics {
namespace {

constexpr std::string_view kNetdevRow = "/rdma/devices/device/ports/port/state/netdev";
constexpr std::string_view kEnabledRow = "/interfaces/interface/ethernet/pfc/state/enabled-priorities";

// One target's leaves into the inventory and the window.
void readTarget(const Store& store, const TargetStatus& t, const TargetRoles& roles, FabricInventory& inv,
                CounterWindow& window) {
  {
    inv.target_kind[t.name] = t.health.kind;
    const auto role = roles.find(t.health.kind);
    const TargetRole target_role = role == roles.end() ? TargetRole::kUnknown : role->second;
    inv.target_role[t.name] = target_role;
    if (t.health.up) inv.up.insert(t.name);
    store.forEachIn(t.name, [&](const SeriesView& s) {
      if (s.schema == nullptr) return;
      if (readLldpAndPorts(t.name, s, inv.ports, inv.lldp)) return;
      if (readDcbLeaf(t.name, target_role == TargetRole::kSwitch, s, inv.dcb)) return;
      if (readRoceLeaf(t.name, s, inv.roce)) return;
      if (readGpuLeaf(t.name, s, inv.gpus)) return;
      if (s.schema->path == kEnabledRow && s.label_values.size() == 1) {
        double bits = 0;
        if (valueAsDouble(s.value, &bits)) inv.enabled_priorities[{t.name, s.label_values[0]}] = uint64_t(bits);
        return;
      }
      if (s.label_values.size() == 1) {
        // Per-port counters: a NIC's pause storm events, a switch port's PFC totals.
        const std::optional<Input> input = inputOfRow(s.schema->path);
        const auto* value = std::get_if<uint64_t>(&s.value);
        if (!input || value == nullptr) return;
        window.observe(counterKey(t.name, *input, s.label_values[0], ""), s.timestamp_ns, *value);
        if (*input == Input::kStormWarnings || *input == Input::kStormErrors) {
          inv.storm_counted.insert({t.name, s.label_values[0]});
        } else {
          inv.pfc_totals.insert({t.name, s.label_values[0]});
        }
        return;
      }
      if (s.label_values.size() != 2) return;
      const std::string& l1 = s.label_values[0];
      const std::string& l2 = s.label_values[1];
      if (s.schema->path == kNetdevRow) {
        if (const auto* name = std::get_if<std::string>(&s.value)) {
          inv.netdev[{t.name, l1, l2}] = *name;
          inv.ports.insert({t.name, *name});
        }
        return;
      }
      const std::optional<Input> input = inputOfRow(s.schema->path);
      if (!input) return;
      const auto* value = std::get_if<uint64_t>(&s.value);
      if (value == nullptr) return;
      window.observe(counterKey(t.name, *input, l1, l2), s.timestamp_ns, *value);
      switch (*input) {
        case Input::kEcnMarked:
        case Input::kCnpSent:
        case Input::kCnpHandled:
        case Input::kCnpIgnored:
          inv.rdma_ports.insert({t.name, l1, l2});
          break;
        case Input::kWatchdogShutdowns:
        case Input::kWatchdogRestores:
          break;  // keyed by qos-group, not priority: the watchdog checks read them
        case Input::kQueueEcn:
        case Input::kQueueDrops:
          // By the number its name ends in; mapQueuesByQosGroup below
          // corrects it where the switch's configuration says otherwise.
          if (int p = queuePriority(l2); p >= 0) inv.queues[{t.name, l1}][p] = l2;
          break;
        default:
          if (auto p = priorityOf(l2)) inv.priorities[{t.name, l1}].insert(*p);
      }
    });
    mapQueuesByQosGroup(inv.roce, t.name, inv.queues);
  }
}

}  // namespace

FabricInventory readFabric(const Store& store, CounterWindow& window, const TargetRoles& roles, const Store* peers) {
  FabricInventory inv;
  for (const TargetStatus& t : store.targets()) {
    // A target nobody collects (no kind) is not a device: the analytics'
    // own writes never create one, and nothing else is read from it.
    if (t.health.kind.empty()) continue;
    inv.local.insert(t.name);
    readTarget(store, t, roles, inv, window);
  }
  if (peers == nullptr) return inv;
  for (const TargetStatus& t : peers->targets()) {
    if (t.health.kind.empty() || inv.target_kind.count(t.name)) continue;
    readTarget(*peers, t, roles, inv, window);
  }
  return inv;
}

bool isSwitch(const FabricInventory& inv, const std::string& target) {
  auto role = inv.target_role.find(target);
  return role != inv.target_role.end() && role->second == TargetRole::kSwitch;
}

const std::vector<std::string>& inputRowPaths() {
  static const std::vector<std::string> paths = [] {
    std::vector<std::string> out;
    for (std::string_view p : inputRows()) out.emplace_back(p);
    out.emplace_back(kNetdevRow);
    out.emplace_back(kEnabledRow);
    for (std::string_view p : dcbRowPaths()) out.emplace_back(p);
    for (std::string_view p : roceRowPaths()) out.emplace_back(p);
    for (std::string_view p : lldpRowPaths()) out.emplace_back(p);
    for (std::string_view p : gpuRowPaths()) out.emplace_back(p);
    std::sort(out.begin(), out.end());
    out.erase(std::unique(out.begin(), out.end()), out.end());
    return out;
  }();
  return paths;
}

}  // namespace rdmagw::analytics
