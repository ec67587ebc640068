// `show queuing pfc-queue interface X detail` into the switch model. Only a
// synthetic layout exists (a third-party parser's test); these tests pin
// what the loose reader takes from it and that it survives variations.

#include "southbound/nxos/nxos_pfc_watchdog.h"
#include "southbound/nxos/nxos_pfc_watchdog_json.h"
#include "southbound/nxos/nxos_pfc_watchdog_leaves.h"

#include <gtest/gtest.h>

#include "models/store.h"
#include "tests/southbound/roce_test_util.h"

namespace rdmagw::southbound::nxos {
namespace {

using rdmagw::roce::SwitchQos;

TEST(NxosPfcWatchdogTest, SyntheticLayoutFieldByField) {
  SwitchQos q;
  Status s = parseNxosPfcWatchdog(
      testing::roceFixture("nxos_show_queuing_pfc-queue_interface_detail__otel-ciscoos-test.txt"), q);
  ASSERT_TRUE(s.isOk()) << s.message();
  ASSERT_EQ(q.watchdog.size(), 1u);
  const auto& port = q.watchdog.at("Ethernet1/23");
  EXPECT_EQ(port.enabled, true);
  EXPECT_EQ(port.disable_action, "No");
  EXPECT_EQ(port.interface_multiplier, 0u);
  ASSERT_EQ(port.queues.size(), 1u);
  const auto& g = port.queues[0];
  EXPECT_EQ(g.qos_group, 3u);
  EXPECT_EQ(g.state, "Shutdown");
  EXPECT_EQ(g.pfc, true);
  EXPECT_EQ(g.pfc_cos, 3u);
  const std::map<std::string, uint64_t> stats = {
      {"Shutdown", 1}, {"Restored", 2}, {"Total pkts drained", 3}, {"Total pkts dropped", 4},
      {"Total pkts drained + dropped", 5}, {"Aggregate pkts dropped", 6},
      {"Total Ingress pkts dropped", 1924}, {"Aggregate Ingress pkts dropped", 1925}};
  EXPECT_EQ(g.stats, stats);
}

TEST(NxosPfcWatchdogTest, PromptNamesThePortAndSeveralGroups) {
  SwitchQos q;
  Status s = parseNxosPfcWatchdog("sw# show queuing pfc-queue interface e1/5 detail\n"
                                  "| QOS GROUP 5 [Ok] PFC [YES] PFC-COS [5]\n"
                                  "|   Shutdown|   0|\n"
                                  "| QOS GROUP 6 [Ok] PFC [NO] PFC-COS [6]\n"
                                  "|   Shutdown|  --|\n",
                                  q);
  ASSERT_TRUE(s.isOk()) << s.message();
  const auto& port = q.watchdog.at("Ethernet1/5");
  EXPECT_FALSE(port.enabled);
  ASSERT_EQ(port.queues.size(), 2u);
  EXPECT_EQ(port.queues[0].state, "Ok");
  EXPECT_EQ(port.queues[0].stats.at("Shutdown"), 0u);
  EXPECT_EQ(port.queues[1].pfc, false);
  EXPECT_TRUE(port.queues[1].stats.empty());  // "--": no value
}

TEST(NxosPfcWatchdogTest, BadValuesAndGarbage) {
  SwitchQos q;
  Status s = parseNxosPfcWatchdog("Ethernet1/1 Interface PFC watchdog: [Maybe]\n"
                                  "PFC watch-dog interface-multiplier : lots\n"
                                  "| QOS GROUP 9 [Ok] PFC [YES] PFC-COS [9]\n"
                                  "| QOS GROUP 3 [Ok] PFC [YES] PFC-COS [12]\n"
                                  "|   Shutdown|   x1|\n",
                                  q);
  ASSERT_EQ(s.code(), Status::Code::kInvalidArgument);
  for (const char* part : {"watchdog state 'Maybe'", "interface-multiplier: 'lots' is not a number",
                           "qos-group 9 is out of range 0..7", "PFC-COS: 12 is out of range 0..7", "'Shutdown'"}) {
    EXPECT_NE(s.message().find(part), std::string::npos) << part << " in " << s.message();
  }
  ASSERT_EQ(q.watchdog.at("Ethernet1/1").queues.size(), 1u);
  EXPECT_FALSE(q.watchdog.at("Ethernet1/1").queues[0].pfc_cos);
  for (std::string_view junk : {std::string_view(""), std::string_view("+-----+\n| a | b |\n"),
                                std::string_view("\xff\xfe")}) {
    SwitchQos g;
    EXPECT_EQ(parseNxosPfcWatchdog(junk, g).code(), Status::Code::kCorrupt) << junk;
  }
  SwitchQos d;
  EXPECT_EQ(parseNxosPfcWatchdog("% Invalid command at '^' marker.\n", d).code(), Status::Code::kUnavailable);
}

TEST(NxosPfcWatchdogJsonTest, GrammarBuiltJsonReadsLikeTheText) {
  SwitchQos text;
  ASSERT_TRUE(parseNxosPfcWatchdog(
                  testing::roceFixture("nxos_show_queuing_pfc-queue_interface_detail__otel-ciscoos-test.txt"), text)
                  .isOk());
  SwitchQos json;
  Status s = parseNxosPfcWatchdogJson(
      testing::roceFixture("SYNTHETIC_nxos_show_queuing_pfc-queue_detail_json__from_9.3x_grammar.json"), json);
  ASSERT_TRUE(s.isOk()) << s.message();
  EXPECT_EQ(json.watchdog_global_enabled, true);
  ASSERT_EQ(json.watchdog.size(), 2u);
  const auto& a = json.watchdog.at("Ethernet1/23");
  const auto& b = text.watchdog.at("Ethernet1/23");
  EXPECT_EQ(a.enabled, b.enabled);
  EXPECT_EQ(a.disable_action, b.disable_action);
  EXPECT_EQ(a.interface_multiplier, b.interface_multiplier);
  ASSERT_EQ(a.queues.size(), 1u);
  EXPECT_EQ(a.queues[0].qos_group, 3u);
  EXPECT_EQ(a.queues[0].state, "Shutdown");
  EXPECT_EQ(a.queues[0].pfc, true);
  EXPECT_EQ(a.queues[0].pfc_cos, 3u);
  EXPECT_EQ(a.queues[0].stats, b.queues[0].stats);
  EXPECT_EQ(a.queues[0].stats.at("Aggregate Ingress pkts dropped"), 1925u);
  EXPECT_EQ(json.watchdog.at("Ethernet1/24").enabled, false);
  EXPECT_TRUE(json.watchdog.at("Ethernet1/24").queues.empty());
}

TEST(NxosPfcWatchdogJsonTest, BadValuesAndDamage) {
  SwitchQos q;
  Status s = parseNxosPfcWatchdogJson(
      R"({"glb-wd-status":"sometimes","TABLE_queuing_interface":{"ROW_queuing_interface":[)"
      R"({"if_name_str":"Eth1/1","wd-status":"Enabled","intf-multi":"x","TABLE_qosgrp_stats":{"ROW_qosgrp_stats":[)"
      R"({"eq-qosgrp":"9"},{"eq-qosgrp":2,"pfc-cos":"11","TABLE_qosgrp_stats_entry":{"ROW_qosgrp_stats_entry":)"
      R"({"q-shutdown":"-5","q-restored":7}}}]}},{"if_name_str":"??"}]}})",
      q);
  ASSERT_EQ(s.code(), Status::Code::kInvalidArgument);
  for (const char* part : {"glb-wd-status 'sometimes'", "intf-multi: 'x' is not a number", "eq-qosgrp: 9 is out of range",
                           "pfc-cos: 11 is out of range", "q-shutdown", "without a valid if_name_str"}) {
    EXPECT_NE(s.message().find(part), std::string::npos) << part << " in " << s.message();
  }
  const auto& port = q.watchdog.at("Ethernet1/1");
  EXPECT_EQ(port.enabled, true);
  ASSERT_EQ(port.queues.size(), 1u);
  EXPECT_EQ(port.queues[0].qos_group, 2u);
  EXPECT_EQ(port.queues[0].stats.at("Restored"), 7u);
  EXPECT_EQ(port.queues[0].stats.count("Shutdown"), 0u);
  for (std::string_view bad : {std::string_view(""), std::string_view("Ethernet1/23 Interface PFC watchdog: [Enabled]"),
                               std::string_view(R"({"TABLE_queuing_interface":{"ROW_queuing_interface":[{"if_)"),
                               std::string_view(R"({"other":1})")}) {
    SwitchQos g;
    EXPECT_EQ(parseNxosPfcWatchdogJson(bad, g).code(), Status::Code::kCorrupt) << bad;
  }
}

// The device-wide output lists every watched port: one it no longer lists
// (PFC or the watchdog turned off there) loses its watchdog leaves, Shutdown
// above all, while the port's other leaves stay. A damaged read deletes
// nothing beyond the ports it names.
TEST(NxosPfcWatchdogLeavesTest, APortGoneFromTheOutputLosesItsWatchdogLeaves) {
  const std::string e23 = "/interfaces/interface[name=Ethernet1/23]/ethernet/pfc";
  const std::string e24 = "/interfaces/interface[name=Ethernet1/24]/ethernet/pfc";
  const std::string shutdown = e23 + "/watchdog/qos-groups/qos-group[id=3]/state/shutdown-events";
  Store store;
  PollBatch first;
  ASSERT_TRUE(parseNxosPfcWatchdogJsonLeaves(
                  testing::roceFixture("SYNTHETIC_nxos_show_queuing_pfc-queue_detail_json__from_9.3x_grammar.json"), 1,
                  first)
                  .isOk());
  first.add(e24 + "/state/watchdog-interval", Value{std::string("on")}, 1);  // from the running-config
  store.apply("leaf01", first);
  ASSERT_TRUE(store.get("leaf01", e24 + "/watchdog/state/enabled").has_value());
  ASSERT_TRUE(store.get("leaf01", shutdown).has_value());

  // One later read listing Ethernet1/24 alone, its global status as given;
  // the read's error lines.
  const auto readOnly24 = [&store](const std::string& global, TimestampNs ts) {
    PollBatch b;
    EXPECT_TRUE(parseNxosPfcWatchdogJsonLeaves(R"({"glb-wd-status":")" + global +
                                                   R"(","TABLE_queuing_interface":{"ROW_queuing_interface":)"
                                                   R"([{"if_name_str":"Eth1/24","wd-status":"Enabled"}]}})",
                                               ts, b)
                    .isOk());
    store.apply("leaf01", b);
    return b.errors;
  };
  ASSERT_FALSE(readOnly24("sometimes", 2).empty()) << "a damaged read";
  EXPECT_TRUE(store.get("leaf01", shutdown).has_value()) << "a damaged read keeps the ports it did not name";

  ASSERT_TRUE(readOnly24("Enabled", 3).empty());  // Ethernet1/23 no longer listed
  EXPECT_FALSE(store.get("leaf01", shutdown).has_value());
  EXPECT_FALSE(store.get("leaf01", e23 + "/watchdog/state/enabled").has_value());
  ASSERT_TRUE(store.get("leaf01", e24 + "/watchdog/state/enabled").has_value());
  EXPECT_EQ(std::get<uint64_t>(store.get("leaf01", e24 + "/watchdog/state/enabled")->value), 1u);
  EXPECT_TRUE(store.get("leaf01", e24 + "/state/watchdog-interval").has_value()) << "not under the watchdog subtree";
}

}  // namespace
}  // namespace rdmagw::southbound::nxos
