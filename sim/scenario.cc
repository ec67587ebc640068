#include "sim/scenario.h"

namespace rdmagw::sim {
namespace {

constexpr ScenarioKind kNamed[] = {ScenarioKind::kIncast, ScenarioKind::kNpOff, ScenarioKind::kRpOff,
                                   ScenarioKind::kPfcMismatch, ScenarioKind::kPfcMismatchSwitch,
                                   ScenarioKind::kPauseStorm, ScenarioKind::kTrustMismatch};

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
  }
  return "none";
}

std::optional<ScenarioKind> parseScenarioName(std::string_view name) {
  if (name == "none") return ScenarioKind::kNone;
  for (ScenarioKind k : kNamed) {
    if (scenarioName(k) == name) return k;
  }
  return std::nullopt;
}

std::string scenarioNameList() {
  std::string out;
  for (ScenarioKind k : kNamed) out += (out.empty() ? "" : ", ") + std::string(scenarioName(k));
  return out;
}

}  // namespace rdmagw::sim
