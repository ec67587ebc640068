#pragma once
// A repeating schedule of faults for soak runs of the simulated fabric. In
// every cycle each kind of fault starts once and is undone before the cycle
// ends, so after any whole number of cycles the fabric is back to normal;
// the faulty switch and RDMA device rotate from one cycle to the next.
// Logic only: gateway/demo_churn.* applies the events to the running
// simulator.

#include <chrono>
#include <vector>

namespace rdmagw::sim {

enum class ChurnKind {
  kGnmiDown,        // a switch's gNMI server stops: the gateway falls back to SSH
  kRdmaDeviceGone,  // an RDMA device's sysfs directory disappears
  kRdmaDeviceBack,
  kGnmiUp,          // the switch serves gNMI again: the gateway returns to it
  kSshdDown,        // the simulated devices' sshd stops: ESXi hosts refuse connections
  kSshdUp,
  kSnmpdRestart,    // the AgentX master restarts: the subagent reconnects
};
const char* churnKindName(ChurnKind kind);  // "gnmi-down", "rdma-device-gone", ...

// What the fabric has to churn; a kind whose subjects are missing is left out.
struct ChurnShape {
  int switches = 0;      // with a gNMI server each
  int rdma_devices = 0;  // across all hosts
  bool sshd = false;
  bool snmpd = false;
};

struct ChurnEvent {
  std::chrono::milliseconds at;  // since the schedule's start
  ChurnKind kind;
  int subject = 0;  // switch or RDMA device index (0 for sshd and snmpd)
  long long cycle = 0;
};

class ChurnSchedule {
 public:
  // cycle: at least 10 s, so the gateway sees each fault and its repair.
  ChurnSchedule(std::chrono::milliseconds cycle, ChurnShape shape);

  std::chrono::milliseconds cycle() const { return cycle_; }
  // The events with from <= at < to, in time order.
  std::vector<ChurnEvent> between(std::chrono::milliseconds from, std::chrono::milliseconds to) const;

 private:
  std::chrono::milliseconds cycle_;
  ChurnShape shape_;
};

}  // namespace rdmagw::sim
