#include "analytics/fabric_reader.h"

#include <algorithm>
#include <charconv>
#include <optional>
#include <unordered_map>

#include "analytics/lldp_links.h"
#include "analytics/dcb_consistency.h"
#include "analytics/roce_inventory.h"

namespace rdmagw::analytics {
namespace {

#define HW "/rdma/devices/device/ports/port/state/hw-counters/"
#define PRIO "/interfaces/interface/ethernet/pfc/priorities/priority/state/counters/"
#define NIC_PRIO "/hypervisor/nics/nic/priorities/priority/state/counters/"
#define QUEUE "/qos/interfaces/interface/output/queues/queue/state/"
#define PFC_CTR "/interfaces/interface/ethernet/pfc/state/counters/"
#define NIC_PAUSE "/hypervisor/nics/nic/state/pause-counters/"
#define WATCHDOG "/interfaces/interface/ethernet/pfc/watchdog/qos-groups/qos-group/state/"

constexpr std::string_view kNetdevRow = "/rdma/devices/device/ports/port/state/netdev";
constexpr std::string_view kEnabledRow = "/interfaces/interface/ethernet/pfc/state/enabled-priorities";

// Schema row path -> the input it is. Rows are found by their path, as
// every reader of the schema does; the schema table stays the one place
// that knows what a leaf means.
const std::unordered_map<std::string_view, Input>& inputRows() {
  static const std::unordered_map<std::string_view, Input> rows = {
      {HW "np-ecn-marked-roce-packets", Input::kEcnMarked},
      {HW "np-cnp-sent", Input::kCnpSent},
      {HW "rp-cnp-handled", Input::kCnpHandled},
      {HW "rp-cnp-ignored", Input::kCnpIgnored},
      {PRIO "in-pause-frames", Input::kInPause},
      {PRIO "out-pause-frames", Input::kOutPause},
      {PRIO "in-pause-duration", Input::kInPauseDuration},
      {PRIO "out-pause-duration", Input::kOutPauseDuration},
      {PRIO "in-discards", Input::kInDiscards},
      {NIC_PRIO "rx-pause", Input::kInPause},
      {NIC_PRIO "tx-pause", Input::kOutPause},
      {NIC_PRIO "rx-pause-duration", Input::kInPauseDuration},
      {NIC_PRIO "tx-pause-duration", Input::kOutPauseDuration},
      {QUEUE "ecn-marked-pkts", Input::kQueueEcn},
      {QUEUE "dropped-pkts", Input::kQueueDrops},
      {PFC_CTR "pause-storm-warning-events", Input::kStormWarnings},
      {PFC_CTR "pause-storm-error-events", Input::kStormErrors},
      {NIC_PAUSE "tx-pause-storm-warning-events", Input::kStormWarnings},
      {NIC_PAUSE "tx-pause-storm-error-events", Input::kStormErrors},
      {PFC_CTR "in-pfc-frames", Input::kInPfcTotal},
      {PFC_CTR "out-pfc-frames", Input::kOutPfcTotal},
      {WATCHDOG "shutdown-events", Input::kWatchdogShutdowns},
      {WATCHDOG "restored-events", Input::kWatchdogRestores},
  };
  return rows;
}

std::optional<int> priorityOf(std::string_view text) {
  int p = -1;
  auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), p);
  if (ec != std::errc() || end != text.data() + text.size() || p < 0 || p > 7) return std::nullopt;
  return p;
}

}  // namespace

std::string counterKey(std::string_view target, Input input, std::string_view label1,
                       std::string_view label2) {
  std::string key;
  key.reserve(target.size() + label1.size() + label2.size() + 6);
  key.append(target).push_back('\x1f');
  key.append(std::to_string(int(input))).push_back('\x1f');
  key.append(label1).push_back('\x1f');
  key.append(label2);
  return key;
}

int queuePriority(std::string_view name) {
  size_t start = name.size();
  while (start > 0 && name[start - 1] >= '0' && name[start - 1] <= '9') --start;
  if (start == name.size()) return -1;
  return priorityOf(name.substr(start)).value_or(-1);
}

namespace {

// One target's leaves into the inventory and the window.
void readTarget(const Store& store, const TargetStatus& t, FabricInventory& inv, CounterWindow& window) {
  const auto& rows = inputRows();
  {
    inv.target_kind[t.name] = t.health.kind;
    if (t.health.up) inv.up.insert(t.name);
    store.forEachIn(t.name, [&](const SeriesView& s) {
      if (s.schema == nullptr) return;
      if (readLldpAndPorts(t.name, s, inv)) return;
      if (readDcbLeaf(t.name, t.health.kind, s, inv.dcb)) return;
      if (readRoceLeaf(t.name, s, inv.roce)) return;
      if (s.schema->path == kEnabledRow && s.label_values.size() == 1) {
        double bits = 0;
        if (valueAsDouble(s.value, &bits)) inv.enabled_priorities[{t.name, s.label_values[0]}] = uint64_t(bits);
        return;
      }
      if (s.label_values.size() == 1) {
        // Per-port counters: a NIC's pause storm events, a switch port's PFC totals.
        auto row = rows.find(s.schema->path);
        const auto* value = std::get_if<uint64_t>(&s.value);
        if (row == rows.end() || value == nullptr) return;
        window.observe(counterKey(t.name, row->second, s.label_values[0], ""), s.timestamp_ns, *value);
        if (row->second == Input::kStormWarnings || row->second == Input::kStormErrors) {
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
      auto row = rows.find(s.schema->path);
      if (row == rows.end()) return;
      const auto* value = std::get_if<uint64_t>(&s.value);
      if (value == nullptr) return;
      window.observe(counterKey(t.name, row->second, l1, l2), s.timestamp_ns, *value);
      switch (row->second) {
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

FabricInventory readFabric(const Store& store, CounterWindow& window, const Store* peers) {
  FabricInventory inv;
  for (const TargetStatus& t : store.targets()) {
    // A target nobody collects (no kind) is not a device: the analytics'
    // own writes never create one, and nothing else is read from it.
    if (t.health.kind.empty()) continue;
    inv.local.insert(t.name);
    readTarget(store, t, inv, window);
  }
  if (peers == nullptr) return inv;
  for (const TargetStatus& t : peers->targets()) {
    if (t.health.kind.empty() || inv.target_kind.count(t.name)) continue;
    readTarget(*peers, t, inv, window);
  }
  return inv;
}

const std::vector<std::string>& inputRowPaths() {
  static const std::vector<std::string> paths = [] {
    std::vector<std::string> out;
    for (const auto& [path, input] : inputRows()) out.emplace_back(path);
    out.emplace_back(kNetdevRow);
    out.emplace_back(kEnabledRow);
    for (std::string_view p : dcbRowPaths()) out.emplace_back(p);
    for (std::string_view p : roceRowPaths()) out.emplace_back(p);
    for (std::string_view p : lldpRowPaths()) out.emplace_back(p);
    std::sort(out.begin(), out.end());
    out.erase(std::unique(out.begin(), out.end()), out.end());
    return out;
  }();
  return paths;
}

}  // namespace rdmagw::analytics
