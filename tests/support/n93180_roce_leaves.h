#pragma once
// The switch leaves of the recorded N93180FX2 RoCE plan
// (tests/fixtures/roce-config/nxos_running-config_qos_snippet__zartbot-blog.txt):
// RoCE on DSCP 26 -> qos-group 5, paused on CoS 5, MTU 2240, 70 % of what
// the strict queues leave, ECN at 400/800 kbytes, ingress no-drop thresholds;
// CNPs on DSCP 48 -> qos-group 6, strict at priority level 2; the PFC
// watchdog on, globally and on Ethernet1/51-52. One table for the writer's
// test (models/roce_leaves.h, from a struct built by hand) and the parser's
// (southbound/nxos/nxos_ipqos_leaves.h, from the recorded text): each adds
// what only its input has and expects the whole set.

#include <gtest/gtest.h>

#include <map>
#include <string>
#include <variant>

#include "models/update.h"

namespace rdmagw::testing {

// path -> "123" for a number, "'text'" for a string.
using LeafTable = std::map<std::string, std::string>;

// Every update of `b` in a LeafTable; a path written twice fails the test.
inline LeafTable leafTable(const PollBatch& b) {
  LeafTable out;
  for (const Update& u : b.updates) {
    std::string v = std::holds_alternative<uint64_t>(u.value) ? std::to_string(std::get<uint64_t>(u.value))
                    : std::holds_alternative<std::string>(u.value) ? "'" + std::get<std::string>(u.value) + "'"
                                                                   : "?";
    EXPECT_TRUE(out.emplace(u.path, v).second) << "written twice: " << u.path;
  }
  return out;
}

inline const std::string kQosGroup = "/qos/qos-groups/qos-group";

inline LeafTable n93180RoceLeaves() {
  const std::string& g = kQosGroup;
  LeafTable t = {
      {"/qos/dscp-map/dscp[value=26]/state/qos-group", "5"},
      {"/qos/dscp-map/dscp[value=48]/state/qos-group", "6"},
      {g + "[id=5]/state/pause-cos", "32"},
      {g + "[id=5]/state/mtu", "2240"},
      {g + "[id=5]/state/egress-queue", "'c-out-8q-q5'"},
      {g + "[id=5]/state/bandwidth-percent", "70"},
      {g + "[id=5]/state/ecn", "1"},
      {g + "[id=5]/state/wred-min-threshold", "409600"},
      {g + "[id=5]/state/wred-max-threshold", "819200"},
      {g + "[id=5]/state/pause-buffer-size", "147456"},
      {g + "[id=5]/state/pause-threshold", "114688"},
      {g + "[id=5]/state/resume-threshold", "107688"},
      {g + "[id=6]/state/egress-queue", "'c-out-8q-q6'"},
      {g + "[id=6]/state/priority-level", "2"},
      {g + "[id=6]/state/ecn", "0"},
      {"/qos/pfc-watchdog/state/interval", "'on'"},
      {"/interfaces/interface[name=Ethernet1/51]/ethernet/pfc/state/watchdog-interval", "'on'"},
      {"/interfaces/interface[name=Ethernet1/52]/ethernet/pfc/state/watchdog-interval", "'on'"},
  };
  // Every other DSCP falls to class-default: qos-group 0, listed so that a
  // class removed later moves its DSCPs there in the store too.
  for (int dscp = 0; dscp < 64; ++dscp) {
    t.try_emplace("/qos/dscp-map/dscp[value=" + std::to_string(dscp) + "]/state/qos-group", "0");
  }
  return t;
}

}  // namespace rdmagw::testing
