#include "sim/scenario.h"

namespace rdmagw::sim {
namespace {

constexpr ScenarioKind kNamed[] = {ScenarioKind::kIncast,
                                   ScenarioKind::kNpOff,
                                   ScenarioKind::kRpOff,
                                   ScenarioKind::kPfcMismatch,
                                   ScenarioKind::kPfcMismatchSwitch,
                                   ScenarioKind::kPauseStorm,
                                   ScenarioKind::kTrustMismatch,
                                   ScenarioKind::kCnpLossy,
                                   ScenarioKind::kEcnOff,
                                   ScenarioKind::kPauseCosMissing,
                                   ScenarioKind::kRoceEtsZero,
                                   ScenarioKind::kStrictStarve,
                                   ScenarioKind::kWatchdogOff,
                                   ScenarioKind::kMtuSmall,
                                   ScenarioKind::kPfcLossyPrio,
                                   ScenarioKind::kWatchdogFalseTrip,
                                   ScenarioKind::kEcnLate,
                                   ScenarioKind::kAcsRedirect,
                                   ScenarioKind::kNicDown};

}  // namespace

std::string_view scenarioName(ScenarioKind kind) {
  switch (kind) {
    case ScenarioKind::kNone: return "none";
    case ScenarioKind::kIncast: return "incast";
    case ScenarioKind::kNpOff: return "np-off";
    case ScenarioKind::kRpOff: return "rp-off";
    case ScenarioKind::kPfcMismatch: return "pfc-mismatch";
    case ScenarioKind::kPfcMismatchSwitch: return "pfc-mismatch-switch";
    case ScenarioKind::kPauseStorm: return "pause-storm";
    case ScenarioKind::kTrustMismatch: return "trust-mismatch";
    case ScenarioKind::kCnpLossy: return "cnp-lossy";
    case ScenarioKind::kEcnOff: return "ecn-off";
    case ScenarioKind::kPauseCosMissing: return "pause-cos-missing";
    case ScenarioKind::kRoceEtsZero: return "roce-ets-zero";
    case ScenarioKind::kStrictStarve: return "strict-starve";
    case ScenarioKind::kWatchdogOff: return "watchdog-off";
    case ScenarioKind::kMtuSmall: return "mtu-small";
    case ScenarioKind::kPfcLossyPrio: return "pfc-lossy-prio";
    case ScenarioKind::kWatchdogFalseTrip: return "watchdog-false-trip";
    case ScenarioKind::kEcnLate: return "ecn-late";
    case ScenarioKind::kAcsRedirect:
      return "acs-redirect";
    case ScenarioKind::kNicDown:
      return "nic-down";
  }
  return "none";
}

std::optional<ScenarioKind> parseScenarioName(std::string_view name) {
  if (name == "none") return ScenarioKind::kNone;
  if (name == "trust-pcp") return ScenarioKind::kTrustMismatch;  // what the host does, by name
  for (ScenarioKind k : kNamed) {
    if (scenarioName(k) == name) return k;
  }
  return std::nullopt;
}

bool isConfigScenario(ScenarioKind kind) {
  return kind == ScenarioKind::kTrustMismatch || kind >= ScenarioKind::kCnpLossy;
}

std::string_view scenarioSummary(ScenarioKind kind) {
  switch (kind) {
    case ScenarioKind::kTrustMismatch: return "trusts pcp (no dcb app dscp-prio rules), its leaf dscp";
    case ScenarioKind::kCnpLossy: return "no type-qos class for the CNP DSCP 48: CNPs fall to class-default (lossy)";
    case ScenarioKind::kEcnOff: return "WRED without ecn on the RoCE egress queue";
    case ScenarioKind::kPauseCosMissing: return "no pause pfc-cos on the RoCE network-qos class";
    case ScenarioKind::kRoceEtsZero: return "the RoCE traffic class at 0 % ETS";
    case ScenarioKind::kStrictStarve: return "the RoCE traffic class strict below strict classes";
    case ScenarioKind::kWatchdogOff: return "priority-flow-control watch-dog-interval off";
    case ScenarioKind::kMtuSmall: return "MTU 1500 under jumbo hosts";
    case ScenarioKind::kPfcLossyPrio: return "receives PFC frames on the lossy priority";
    case ScenarioKind::kWatchdogFalseTrip: return "its PFC watchdog shuts the RoCE queue with no pause storm";
    case ScenarioKind::kEcnLate: return "marks ECN on the RoCE queue from 1500 kbytes, ten times later than the other leaves";
    case ScenarioKind::kAcsRedirect:
      return "ACS P2P redirect on the PCIe switch port above its NIC (with --gpus)";
    case ScenarioKind::kNicDown:
      return "its RDMA port's link down: nothing sent or received";
    default: return "";
  }
}

std::string scenarioNameList() {
  std::string out;
  for (ScenarioKind k : kNamed) out += (out.empty() ? "" : ", ") + std::string(scenarioName(k));
  return out;
}

}  // namespace rdmagw::sim
