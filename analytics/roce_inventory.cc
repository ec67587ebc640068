#include "analytics/roce_inventory.h"

#include <variant>

#include "analytics/input_rows.h"

namespace rdmagw::analytics {
namespace {

#define HOST "/interfaces/interface/ethernet/"
#define GROUP "/qos/qos-groups/qos-group/state/"

constexpr std::string_view kCnpDscp = HOST "dcqcn/state/cnp-dscp";
constexpr std::string_view kCnpPrio = HOST "dcqcn/state/cnp-802p-priority";
constexpr std::string_view kDscpPrio = HOST "dcb/dscp-priorities/dscp-priority/state/priority";
constexpr std::string_view kPrioTc = HOST "dcb/priorities/priority/state/traffic-class";
constexpr std::string_view kRxBuffer = HOST "dcb/priorities/priority/state/receive-buffer-bytes";
constexpr std::string_view kTsa = HOST "dcb/traffic-classes/traffic-class/state/tsa";
constexpr std::string_view kTcBw = HOST "dcb/traffic-classes/traffic-class/state/bandwidth-percent";
constexpr std::string_view kPfcMode = HOST "pfc/state/admin-mode";
constexpr std::string_view kPortWatchdog = HOST "pfc/state/watchdog-interval";
constexpr std::string_view kRoceTos = "/rdma/devices/device/ports/port/state/default-roce-tos";
constexpr std::string_view kDscpGroup = "/qos/dscp-map/dscp/state/qos-group";
constexpr std::string_view kWatchdog = "/qos/pfc-watchdog/state/interval";
constexpr std::string_view kWatchdogEnabled = HOST "pfc/watchdog/state/enabled";
constexpr std::string_view kWatchdogState = HOST "pfc/watchdog/qos-groups/qos-group/state/state";
constexpr std::string_view kWatchdogCos = HOST "pfc/watchdog/qos-groups/qos-group/state/pfc-cos";

using GroupField = std::optional<uint64_t> QosGroupConfig::*;
const std::map<std::string_view, GroupField>& groupFields() {
  static const std::map<std::string_view, GroupField> fields = {
      {GROUP "pause-cos", &QosGroupConfig::pause_cos},
      {GROUP "mtu", &QosGroupConfig::mtu},
      {GROUP "priority-level", &QosGroupConfig::priority_level},
      {GROUP "bandwidth-percent", &QosGroupConfig::bandwidth_percent},
      {GROUP "ecn", &QosGroupConfig::ecn},
      {GROUP "wred-min-threshold", &QosGroupConfig::wred_min},
      {GROUP "wred-max-threshold", &QosGroupConfig::wred_max},
      {GROUP "pause-buffer-size", &QosGroupConfig::pause_buffer},
      {GROUP "pause-threshold", &QosGroupConfig::pause_threshold},
      {GROUP "resume-threshold", &QosGroupConfig::resume_threshold},
  };
  return fields;
}
constexpr std::string_view kEgressQueue = GROUP "egress-queue";

std::optional<uint64_t> number(const SeriesView& s) {
  double v = 0;
  if (!valueAsDouble(s.value, &v) || v < 0) return std::nullopt;
  return uint64_t(v);
}

// A list key as a small number (DSCP, priority, traffic class, qos-group).
std::optional<int> key(const std::string& text) {
  if (text.empty() || text.size() > 3) return std::nullopt;
  int v = 0;
  for (char c : text) {
    if (c < '0' || c > '9') return std::nullopt;
    v = v * 10 + (c - '0');
  }
  return v;
}

}  // namespace

std::vector<std::string_view> roceRowPaths() {
  std::vector<std::string_view> out = {kCnpDscp, kCnpPrio, kDscpPrio, kPrioTc,   kRxBuffer,  kTsa,
                                       kTcBw,    kPfcMode, kPortWatchdog, kRoceTos, kDscpGroup, kWatchdog,
                                       kEgressQueue, kWatchdogEnabled, kWatchdogState, kWatchdogCos};
  for (const auto& [path, field] : groupFields()) out.push_back(path);
  return out;
}

bool readRoceLeaf(const std::string& target, const SeriesView& s, RoceInventory& roce) {
  const std::string_view path = s.schema->path;
  const auto& labels = s.label_values;
  const std::string* text = std::get_if<std::string>(&s.value);
  if (path == kWatchdog) {
    if (text) roce.switches[target].watchdog = *text;
    return true;
  }
  if (path == kDscpGroup) {
    auto dscp = labels.size() == 1 ? key(labels[0]) : std::nullopt;
    if (auto g = number(s); g && dscp) roce.switches[target].dscp_group[*dscp] = int(*g);
    return true;
  }
  if (auto field = groupFields().find(path); field != groupFields().end() || path == kEgressQueue) {
    auto id = labels.size() == 1 ? key(labels[0]) : std::nullopt;
    if (!id) return true;
    QosGroupConfig& g = roce.switches[target].groups[*id];
    if (path == kEgressQueue) {
      if (text) g.egress_queue = *text;
    } else if (auto v = number(s)) {
      g.*(field->second) = *v;
    }
    return true;
  }
  if (path == kRoceTos) {
    if (auto v = number(s); v && labels.size() == 2) roce.roce_tos[{target, labels[0], labels[1]}] = *v;
    return true;
  }
  if (!path.starts_with(HOST) || labels.empty()) return false;
  const PortRef port{target, labels[0]};
  if (path == kPfcMode || path == kPortWatchdog) {
    if (text) (path == kPfcMode ? roce.pfc_mode : roce.port_watchdog)[port] = *text;
    return true;
  }
  if (path == kWatchdogEnabled) {
    if (auto v = number(s)) roce.watchdog_enabled[port] = *v;
    return true;
  }
  if (path == kWatchdogState || path == kWatchdogCos) {
    auto group = labels.size() == 2 ? key(labels[1]) : std::nullopt;
    if (!group) return true;
    WatchdogQueue& q = roce.watchdog_queues[port][*group];
    if (path == kWatchdogState && text) q.state = *text;
    if (path == kWatchdogCos) {
      if (auto v = number(s)) q.pfc_cos = *v;
    }
    return true;
  }
  if (path == kTsa) {
    auto tc = labels.size() == 2 ? key(labels[1]) : std::nullopt;
    if (text && tc) roce.hosts[port].tc_tsa[*tc] = *text;
    return true;
  }
  const bool keyed = path == kDscpPrio || path == kPrioTc || path == kRxBuffer || path == kTcBw;
  if (!keyed && path != kCnpDscp && path != kCnpPrio) return false;
  const std::optional<uint64_t> v = number(s);
  if (!v) return true;
  HostRoceConfig& h = roce.hosts[port];
  if (path == kCnpDscp) h.cnp_dscp = *v;
  if (path == kCnpPrio) h.cnp_priority = *v;
  if (!keyed) return true;
  auto k = labels.size() == 2 ? key(labels[1]) : std::nullopt;
  if (!k) return true;
  if (path == kDscpPrio) h.dscp_priority[*k] = int(*v);
  if (path == kPrioTc) h.priority_tc[*k] = int(*v);
  if (path == kRxBuffer) h.receive_buffer[*k] = *v;
  if (path == kTcBw) h.tc_bandwidth[*k] = *v;
  return true;
}

std::optional<uint64_t> switchPausedCos(const RoceInventory& roce, const std::string& target) {
  auto sw = roce.switches.find(target);
  if (sw == roce.switches.end()) return std::nullopt;
  std::optional<uint64_t> out;
  for (const auto& [id, g] : sw->second.groups) {
    if (g.pause_cos) out = out.value_or(0) | *g.pause_cos;
  }
  return out;
}

void mapQueuesByQosGroup(const RoceInventory& roce, const std::string& target,
                         std::map<PortRef, std::map<int, std::string>>& queues) {
  if (!switchPausedCos(roce, target)) return;
  const auto& groups = roce.switches.at(target).groups;
  for (auto it = queues.lower_bound(PortRef{target, ""}); it != queues.end() && it->first.target == target; ++it) {
    std::map<int, std::string> by_priority;
    for (const auto& [group, name] : it->second) {
      auto g = groups.find(group);
      if (g == groups.end() || !g->second.pause_cos) continue;
      for (int p = 0; p < 8; ++p) {
        if (*g->second.pause_cos & (uint64_t{1} << p)) by_priority[p] = name;
      }
    }
    for (const auto& [group, name] : it->second) {
      auto g = groups.find(group);
      const bool pauses = g != groups.end() && g->second.pause_cos.value_or(0) != 0;
      if (!pauses) by_priority.try_emplace(group, name);
    }
    it->second = std::move(by_priority);
  }
}

}  // namespace rdmagw::analytics
