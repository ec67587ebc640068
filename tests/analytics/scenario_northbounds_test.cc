// Every scenario of sim/scenario.h as the Prometheus and gNMI readers see it
// (a verdict must show on the right link, port and priority and nowhere
// else, whichever northbound reads it; SNMP is fabric_snmp_notify_test.cc).
// The real simulated fabric feeds the store through the real collectors and
// the analytics engine (sim_feed.h); then the /metrics text the Prometheus
// writer builds and a gNMI Get across every target (`*`, wildcard keys) must
// flag exactly the ports the store flags, with the same codes, and nothing
// once the scenario stops. Which ports those are is scenario_verdicts_test's
// and dcb_scenario_test's subject; this one proves the readers agree.

#include <gtest/gtest.h>

#include <map>
#include <set>
#include <string>

#include "models/path.h"
#include "models/value.h"
#include "northbound/gnmi/get_handler.h"
#include "northbound/prometheus/exposition.h"
#include "sim/scenario.h"
#include "tests/analytics/gnmi_get_request.h"
#include "tests/analytics/sim_feed.h"

namespace rdmagw::analytics {
namespace {

using Codes = std::map<std::string, std::string>;  // "target:key1[:key2]" -> code
using testing::SimFeed;

constexpr int kWaitTicks = 60;  // generous: verdicts settle within a window or two (4 ticks)

struct Case {
  sim::ScenarioKind kind;
  int receiver;
  const char* leaf;          // derived leaf, as SimFeed names it
  const char* family;        // its Prometheus family
  std::string gnmi_path;     // its path, every key a wildcard
  std::set<std::string> alarming;
};

Codes alarmsOf(const Codes& all, const std::set<std::string>& alarming) {
  Codes out;
  for (const auto& [k, v] : all) {
    if (alarming.count(v)) out[k] = v;
  }
  return out;
}

// Samples of `family` in the exposition: label values joined by ':' (target
// first, then the row's labels in the schema's order, as SimFeed keys them).
Codes fromExposition(const std::string& text, const std::string& family) {
  Codes out;
  const std::string prefix = family + "{";
  size_t at = 0;
  while ((at = text.find(prefix, at)) != std::string::npos) {
    if (at > 0 && text[at - 1] != '\n') {
      ++at;
      continue;
    }
    const size_t end = text.find('\n', at);
    const std::string line = text.substr(at, end - at);
    at = end;
    std::string key;
    for (size_t q = line.find('"'); q != std::string::npos; q = line.find('"', line.find('"', q + 1) + 1)) {
      const size_t close = line.find('"', q + 1);
      key += (key.empty() ? "" : ":") + line.substr(q + 1, close - q - 1);
    }
    out[key] = line.substr(line.rfind(' ') + 1);
  }
  return out;
}

// A gNMI Get of `path` on every target: each update's target and key values
// joined by ':' -> its value as text.
Codes fromGnmiGet(const Store& store, const std::string& path) {
  gnmi::GetResponse resp;
  const grpc::Status st = northbound::gnmi::answerGet(store, testing::getRequest("*", path), &resp);
  Codes out;
  if (!st.ok()) return out;  // NOT_FOUND: nothing to flag
  for (const gnmi::Notification& n : resp.notification()) {
    for (const gnmi::Update& u : n.update()) {
      std::string key = n.prefix().target();
      gnmi::Path full = n.prefix();
      full.MergeFrom(u.path());
      for (const gnmi::PathElem& e : full.elem()) {
        // Keys in the order the path declares them; one key per list here.
        for (const auto& [k, v] : e.key()) key += ":" + v;
      }
      const gnmi::TypedValue& v = u.val();
      if (v.has_int_val()) {
        out[key] = std::to_string(v.int_val());
      } else if (v.has_uint_val()) {
        out[key] = std::to_string(v.uint_val());
      } else if (v.has_double_val()) {
        out[key] = valueToString(Value(v.double_val()));
      } else {
        out[key] = v.string_val();
      }
    }
  }
  return out;
}

class ScenarioNorthboundsTest : public ::testing::TestWithParam<Case> {
 protected:
  void SetUp() override { feed_.ticks(6); }  // two samples and a full window: every verdict present and quiet

  Codes stored() const { return alarmsOf(feed_.derived(GetParam().leaf), GetParam().alarming); }
  Codes exposed() {
    return alarmsOf(fromExposition(writer_.build(feed_.store()), GetParam().family), GetParam().alarming);
  }
  Codes got() { return alarmsOf(fromGnmiGet(feed_.store(), GetParam().gnmi_path), GetParam().alarming); }

  SimFeed feed_{SimFeed::calmFabric(), SimFeed::config()};
  northbound::prometheus::ExpositionWriter writer_;
};

TEST_P(ScenarioNorthboundsTest, PrometheusAndGnmiFlagExactlyTheStoresPortsThenNothing) {
  const Case& c = GetParam();
  ASSERT_TRUE(stored().empty());
  feed_.fabric().setScenario({c.kind, c.receiver});
  ASSERT_TRUE(feed_.tickUntil([&] { return !stored().empty(); }, kWaitTicks));
  feed_.ticks(4);
  const Codes expected = stored();
  ASSERT_FALSE(expected.empty());
  EXPECT_EQ(exposed(), expected);
  EXPECT_EQ(got(), expected);

  feed_.fabric().setScenario({});
  ASSERT_TRUE(feed_.tickUntil([&] { return stored().empty(); }, kWaitTicks));
  feed_.ticks(4);
  EXPECT_TRUE(exposed().empty());
  EXPECT_TRUE(got().empty());
}

const std::string kDcqcn = "/fabric/dcqcn/devices/device[name=*]/ports/port[port-num=*]/state/verdict-code";
const std::string kPrio = "/fabric/interfaces/interface[name=*]/priorities/priority[id=*]/state/";
const std::string kDcb = "/fabric/interfaces/interface[name=*]/dcb/state/consistency-code";

INSTANTIATE_TEST_SUITE_P(
    Scenarios, ScenarioNorthboundsTest,
    ::testing::Values(
        Case{sim::ScenarioKind::kNpOff, 0, "verdict-code", "rdmagw_fabric_dcqcn_verdict_code", kDcqcn, {"2", "3", "4"}},
        Case{sim::ScenarioKind::kRpOff, 0, "verdict-code", "rdmagw_fabric_dcqcn_verdict_code", kDcqcn, {"2", "3", "4"}},
        Case{sim::ScenarioKind::kIncast, 0, "pause-tree-state-code", "rdmagw_fabric_pause_tree_state_code",
             kPrio + "pause-tree-state-code", {"1", "2"}},
        Case{sim::ScenarioKind::kPauseStorm, 3, "pause-storm", "rdmagw_fabric_pfc_pause_storm_alarm",
             kPrio + "pause-storm", {"1"}},
        Case{sim::ScenarioKind::kPfcMismatch, 0, "consistency-code", "rdmagw_fabric_dcb_consistency_code", kDcb, {"1"}},
        Case{sim::ScenarioKind::kPfcMismatchSwitch, 0, "consistency-code", "rdmagw_fabric_dcb_consistency_code",
             kDcb, {"1"}},
        Case{sim::ScenarioKind::kTrustMismatch, 0, "consistency-code", "rdmagw_fabric_dcb_consistency_code",
             kDcb, {"1"}}),
    [](const ::testing::TestParamInfo<Case>& info) {
      std::string name(sim::scenarioName(info.param.kind));
      std::erase(name, '-');
      return name;
    });

}  // namespace
}  // namespace rdmagw::analytics
