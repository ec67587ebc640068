#include "models/roce_watchdog_leaves.h"

#include "models/path.h"

namespace rdmagw::roce {

const std::vector<WatchdogCounterRow>& watchdogCounterRows() {
  static const std::vector<WatchdogCounterRow> rows = {
      {"Shutdown", "shutdown-events"},
      {"Restored", "restored-events"},
      {"Total pkts drained", "drained-packets"},
      {"Total pkts dropped", "dropped-packets"},
  };
  return rows;
}

void replaceEveryPortsWatchdog(PollBatch& out) {
  Path every;
  every.add("interfaces").add("interface", {{"name", "*"}}).add("ethernet").add("pfc").add("watchdog");
  out.replaceSubtree(every.toString());
}

void appendPfcWatchdogLeaves(const SwitchQos& qos, TimestampNs ts, PollBatch& out) {
  for (const auto& [name, port] : qos.watchdog) {
    // A block the parser could not name (no header, no prompt) has no port.
    if (name.empty()) continue;
    Path wd;
    wd.add("interfaces").add("interface", {{"name", name}}).add("ethernet").add("pfc").add("watchdog");
    // The port's block is read whole: a qos-group no longer watched (its
    // class no longer pauses) must not keep its last state, Shutdown above all.
    out.replaceSubtree(wd.toString());
    if (port.enabled) out.add(Path(wd).add("state").add("enabled").toString(), Value{uint64_t(*port.enabled ? 1 : 0)}, ts);
    for (const PfcWatchdogQueue& q : port.queues) {
      Path state = Path(wd).add("qos-groups").add("qos-group", {{"id", std::to_string(q.qos_group)}}).add("state");
      if (!q.state.empty()) out.add(Path(state).add("state").toString(), Value{q.state}, ts);
      if (q.pfc_cos) out.add(Path(state).add("pfc-cos").toString(), Value{uint64_t(*q.pfc_cos)}, ts);
      for (const WatchdogCounterRow& row : watchdogCounterRows()) {
        auto it = q.stats.find(row.printed);
        if (it != q.stats.end()) out.add(Path(state).add(row.leaf).toString(), Value{it->second}, ts);
      }
    }
  }
}

}  // namespace rdmagw::roce
