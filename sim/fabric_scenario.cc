// The scenarios of sim/scenario.h: who takes part, and the flows they add.
// What each fault does to the counters lives where that counter moves
// (fabric.cc: receive() for NP and RP off, nicPause() for the storm).

#include <algorithm>

#include "sim/fabric.h"
#include "sim/fabric_internal.h"

namespace rdmagw::sim {

using namespace internal;

void Fabric::setScenario(Scenario scenario) {
  if (scenario.kind != ScenarioKind::kNone) {
    scenario.receiver = std::clamp(scenario.receiver, 0, endpointCount() - 1);
  }
  scenario_ = scenario;
  cast_ = castFor(scenario);
  for (int e = 0; e < endpointCount(); ++e) {
    port(e).pfc_roce = !pfcOff(e) || switchPfcOff(e);
    port(e).np_roce = !npOff(e);
    port(e).rp_roce = !rpOff(e);
    port(e).dscp_trust = !trustPcp(e);
    topo_.portOf(e).pfc_roce = !switchPfcOff(e);
    port(e).ets_fault = configFault(ScenarioKind::kRoceEtsZero, e)    ? EtsFault::kRoceZero
                        : configFault(ScenarioKind::kStrictStarve, e) ? EtsFault::kStrictStarve
                                                                      : EtsFault::kNone;
    topo_.portOf(e).pfc_watchdog = !configFault(ScenarioKind::kWatchdogOff, e);
    topo_.portOf(e).mtu = configFault(ScenarioKind::kMtuSmall, e) ? kDefaultMtu : kPortMtu;
  }
  const int leaf = cast_.faulty >= 0 ? topo_.attachment(cast_.faulty).sw : -1;
  for (int w = 0; w < int(topo_.switches().size()); ++w) {
    Switch& sw = topo_.switchAt(w);
    sw.cnp_lossy = w == leaf && scenario_.kind == ScenarioKind::kCnpLossy;
    sw.ecn_off = w == leaf && scenario_.kind == ScenarioKind::kEcnOff;
    sw.ecn_late = w == leaf && scenario_.kind == ScenarioKind::kEcnLate;
    sw.pause_cos_missing = w == leaf && scenario_.kind == ScenarioKind::kPauseCosMissing;
  }
  // Keep the epoch's hot flows with their rates; replace the scenario's.
  const std::vector<Flow> hot(flows_.begin() + std::ptrdiff_t(background_flows_ + scenario_flows_), flows_.end());
  flows_.resize(background_flows_);
  const uint64_t demand = cap_pkts_ * kScenarioDemandPct / 100;
  for (int s : cast_.senders) flows_.push_back({s, cast_.receiver, demand, demand, true});
  scenario_flows_ = cast_.senders.size();
  flows_.insert(flows_.end(), hot.begin(), hot.end());
}

ScenarioCast Fabric::castFor(const Scenario& s) const {
  ScenarioCast c;
  if (s.kind == ScenarioKind::kNone || endpointCount() < 2) return c;
  c.receiver = s.receiver;
  if (s.kind == ScenarioKind::kPauseStorm || isConfigScenario(s.kind)) {
    c.faulty = s.receiver;
    return c;
  }
  c.senders = incastSenders(s.receiver);
  if (s.kind == ScenarioKind::kNpOff) c.faulty = s.receiver;
  if (s.kind == ScenarioKind::kRpOff || s.kind == ScenarioKind::kPfcMismatch || s.kind == ScenarioKind::kPfcMismatchSwitch) {
    c.faulty = c.senders.front();
  }
  return c;
}

std::string Fabric::scenarioTarget() const {
  const int e = cast_.faulty >= 0 ? cast_.faulty : cast_.receiver;
  if (e < 0) return "";
  const Switch& sw = topo_.switches()[topo_.attachment(e).sw];
  switch (scenario_.kind) {
    case ScenarioKind::kCnpLossy:
    case ScenarioKind::kEcnOff:
    case ScenarioKind::kPauseCosMissing:
    case ScenarioKind::kEcnLate:
      return sw.name;
    case ScenarioKind::kWatchdogOff:
    case ScenarioKind::kMtuSmall:
    case ScenarioKind::kPfcLossyPrio:
    case ScenarioKind::kPfcMismatchSwitch:
    case ScenarioKind::kWatchdogFalseTrip:
      return sw.name + " " + topo_.portOf(e).name;
    default:
      break;
  }
  if (e < device_count_) return endpointName(e) + " (" + device(e).netdev + ")";
  return endpointName(e);
}

std::vector<int> Fabric::incastSenders(int r) const {
  // The same device on the next hosts: on a rail-optimised fabric that is
  // the receiver's leaf, and host ports alternate ASICs, so with four or
  // more hosts one sender's traffic and pause cross the ii ports.
  std::vector<int> out;
  const int leaf = topo_.attachment(r).sw;
  auto take = [&](int e) {
    if (int(out.size()) < kScenarioSenders && e != r && topo_.attachment(e).sw == leaf &&
        std::find(out.begin(), out.end(), e) == out.end()) {
      out.push_back(e);
    }
  };
  if (r < device_count_) {
    const int dph = config_.devices_per_host;
    for (int k = 1; k < config_.hosts; ++k) take(((r / dph + k) % config_.hosts) * dph + r % dph);
  }
  for (int e = 0; e < endpointCount(); ++e) take(e);  // a small fabric: any other port of the leaf
  return out;
}

}  // namespace rdmagw::sim
