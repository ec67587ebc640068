#include "analytics/input_rows.h"

#include <charconv>
#include <unordered_map>

namespace rdmagw::analytics {
namespace {

#define HW "/rdma/devices/device/ports/port/state/hw-counters/"
#define PRIO "/interfaces/interface/ethernet/pfc/priorities/priority/state/counters/"
#define NIC_PRIO "/hypervisor/nics/nic/priorities/priority/state/counters/"
#define QUEUE "/qos/interfaces/interface/output/queues/queue/state/"
#define PFC_CTR "/interfaces/interface/ethernet/pfc/state/counters/"
#define NIC_PAUSE "/hypervisor/nics/nic/state/pause-counters/"
#define WATCHDOG "/interfaces/interface/ethernet/pfc/watchdog/qos-groups/qos-group/state/"

// Schema row path -> the input it is. Rows are found by their path, as
// every reader of the schema does; the schema table stays the one place
// that knows what a leaf means.
const std::unordered_map<std::string_view, Input>& rowTable() {
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

}  // namespace

std::optional<Input> inputOfRow(std::string_view row) {
  auto it = rowTable().find(row);
  if (it == rowTable().end()) return std::nullopt;
  return it->second;
}

std::vector<std::string_view> inputRows() {
  std::vector<std::string_view> out;
  for (const auto& [row, input] : rowTable()) out.push_back(row);
  return out;
}

std::optional<int> priorityOf(std::string_view text) {
  int p = -1;
  auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), p);
  if (ec != std::errc() || end != text.data() + text.size() || p < 0 || p > 7) return std::nullopt;
  return p;
}


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

}  // namespace rdmagw::analytics
