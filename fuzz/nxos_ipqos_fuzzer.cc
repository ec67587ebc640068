// NX-OS `show running-config ipqos` and `show queuing pfc-queue detail`, text
// and `| json` (southbound/nxos/): whatever the bytes, the readers return a status and a
// model, and the RoCE path derived from that model keeps its promise: a hop
// is lossless only on a priority the port pauses.

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

#include "models/roce_path.h"
#include "southbound/nxos/nxos_ipqos.h"
#include "southbound/nxos/nxos_pfc_watchdog.h"
#include "southbound/nxos/nxos_pfc_watchdog_json.h"

using namespace rdmagw;

namespace {

void checkHop(const roce::SwitchQos& qos, uint32_t dscp, const std::string& ifn) {
  const roce::RoceHop hop = roce::switchHop(qos, dscp, ifn);
  if (hop.dscp != dscp || !hop.qos_group || *hop.qos_group > 7) __builtin_trap();
  if (hop.lossless) {
    if (!hop.priority || *hop.priority > 7) __builtin_trap();
    if ((roce::switchPausedPriorities(qos, ifn) & (1u << *hop.priority)) == 0) __builtin_trap();
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  roce::SwitchQos qos;
  const Status s = southbound::nxos::parseNxosIpqos(text, qos);
  if (s.isOk() != s.message().empty()) __builtin_trap();
  for (const auto& [name, cm] : qos.class_maps) {
    for (uint32_t d : cm.dscp) {
      if (d > 63) __builtin_trap();
    }
  }
  // A bounded number of paths: the interfaces may be many (ranges).
  int budget = 8;
  for (const auto& entry : qos.interfaces) {
    if (entry.first.empty()) __builtin_trap();
    if (budget-- == 0) break;
    for (uint32_t dscp : {0u, 26u, 48u}) checkHop(qos, dscp, entry.first);
  }
  for (uint32_t dscp : {0u, 24u, 26u, 46u, 48u, 63u}) checkHop(qos, dscp, "");
  for (uint32_t d : roce::switchLosslessDscps(qos)) {
    if (d > 63) __builtin_trap();
  }
  roce::SwitchQos wd;
  (void)southbound::nxos::parseNxosPfcWatchdog(text, wd);
  (void)southbound::nxos::parseNxosPfcWatchdogJson(text, wd);
  for (const auto& entry : wd.watchdog) {
    for (const roce::PfcWatchdogQueue& q : entry.second.queues) {
      if (q.qos_group > 7 || (q.pfc_cos && *q.pfc_cos > 7)) __builtin_trap();
    }
  }
  return 0;
}
