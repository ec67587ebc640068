#include "sim/churn.h"

#include <algorithm>

namespace rdmagw::sim {

namespace {

// Where in its cycle each kind happens, in thousandths. The switch is back
// on gNMI (the demo retries it 10 s after the fallback) before sshd stops,
// so the SSH outage hits the ESXi hosts and not a switch mid-fallback.
struct Slot {
  ChurnKind kind;
  int permille;
};
constexpr Slot kSlots[] = {
    {ChurnKind::kGnmiDown, 0},         {ChurnKind::kRdmaDeviceGone, 100}, {ChurnKind::kRdmaDeviceBack, 250},
    {ChurnKind::kGnmiUp, 300},         {ChurnKind::kSshdDown, 600},       {ChurnKind::kSshdUp, 750},
    {ChurnKind::kSnmpdRestart, 850},
};

bool present(ChurnKind kind, const ChurnShape& shape) {
  switch (kind) {
    case ChurnKind::kGnmiDown:
    case ChurnKind::kGnmiUp: return shape.switches > 0;
    case ChurnKind::kRdmaDeviceGone:
    case ChurnKind::kRdmaDeviceBack: return shape.rdma_devices > 0;
    case ChurnKind::kSshdDown:
    case ChurnKind::kSshdUp: return shape.sshd;
    case ChurnKind::kSnmpdRestart: return shape.snmpd;
  }
  return false;
}

int subjectOf(ChurnKind kind, long long cycle, const ChurnShape& shape) {
  switch (kind) {
    case ChurnKind::kGnmiDown:
    case ChurnKind::kGnmiUp: return int(cycle % shape.switches);
    case ChurnKind::kRdmaDeviceGone:
    case ChurnKind::kRdmaDeviceBack: return int(cycle % shape.rdma_devices);
    default: return 0;
  }
}

}  // namespace

const char* churnKindName(ChurnKind kind) {
  switch (kind) {
    case ChurnKind::kGnmiDown: return "gnmi-down";
    case ChurnKind::kRdmaDeviceGone: return "rdma-device-gone";
    case ChurnKind::kRdmaDeviceBack: return "rdma-device-back";
    case ChurnKind::kGnmiUp: return "gnmi-up";
    case ChurnKind::kSshdDown: return "sshd-down";
    case ChurnKind::kSshdUp: return "sshd-up";
    case ChurnKind::kSnmpdRestart: return "snmpd-restart";
  }
  return "?";
}

ChurnSchedule::ChurnSchedule(std::chrono::milliseconds cycle, ChurnShape shape)
    : cycle_(std::max(cycle, std::chrono::milliseconds(10000))), shape_(shape) {}

std::vector<ChurnEvent> ChurnSchedule::between(std::chrono::milliseconds from, std::chrono::milliseconds to) const {
  std::vector<ChurnEvent> out;
  if (to <= from) return out;
  const long long first = std::max<long long>(0, from / cycle_);
  for (long long c = first; c * cycle_ < to; ++c) {
    for (const Slot& slot : kSlots) {
      if (!present(slot.kind, shape_)) continue;
      const std::chrono::milliseconds at = c * cycle_ + cycle_ * slot.permille / 1000;
      if (at >= from && at < to) out.push_back({at, slot.kind, subjectOf(slot.kind, c, shape_), c});
    }
  }
  return out;
}

}  // namespace rdmagw::sim
