#include "southbound/nxos/nxos_pfc_watchdog_leaves.h"

#include "models/roce_watchdog_leaves.h"
#include "southbound/nxos/nxos_pfc_watchdog.h"
#include "southbound/nxos/nxos_pfc_watchdog_json.h"

namespace rdmagw::southbound::nxos {
namespace {

Status write(Status parsed, const rdmagw::roce::SwitchQos& qos, TimestampNs ts, PollBatch& out) {
  if (!parsed.isOk() && parsed.code() != Status::Code::kInvalidArgument) return parsed;
  if (!parsed.isOk()) out.error(parsed.message());
  // Read whole, the output lists every watched port: a port gone from it
  // (PFC or its watchdog turned off there) must not keep its last state.
  // A damaged read replaces only the ports it could name.
  if (parsed.isOk()) rdmagw::roce::replaceEveryPortsWatchdog(out);
  rdmagw::roce::appendPfcWatchdogLeaves(qos, ts, out);
  return Status::ok();
}

}  // namespace

Status parseNxosPfcWatchdogLeaves(std::string_view text, TimestampNs ts, PollBatch& out) {
  rdmagw::roce::SwitchQos qos;
  const Status st = parseNxosPfcWatchdog(text, qos);
  return write(st, qos, ts, out);
}

Status parseNxosPfcWatchdogJsonLeaves(std::string_view text, TimestampNs ts, PollBatch& out) {
  rdmagw::roce::SwitchQos qos;
  const Status st = parseNxosPfcWatchdogJson(text, qos);
  return write(st, qos, ts, out);
}

}  // namespace rdmagw::southbound::nxos
