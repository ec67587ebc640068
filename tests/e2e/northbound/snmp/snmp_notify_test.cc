// SNMP notifications of verdict changes, received by a real snmptrapd
// started by the test: exact varbinds of a v2c trap, a v2c inform and a v3
// authPriv inform; a change and its clear; alarms present at start; a
// removed verdict sends nothing; bad destinations (nobody listening, wrong
// community) counted as failed while the good one still receives.
// Notifications leave from the subagent itself: no snmpd is needed.

#include <gtest/gtest.h>

#include "models/self_metrics.h"
#include "northbound/snmp/notification_sender.h"
#include "northbound/snmp/snmp_agent.h"
#include "sim/snmpd_launcher.h"
#include "tests/northbound/snmp/notify_test_util.h"
#include "tests/northbound/snmp/snmp_test_store.h"
#include "tests/support/test_support.h"

namespace rdmagw::northbound::snmp {
namespace {

using sim::ReceivedTrap;
using sim::SnmptrapdLauncher;
using testing::put;
using Type = SnmpNotifyDestination::Type;

const std::string kPrio = "/fabric/interfaces/interface[name=eth1/1]/priorities/priority[id=3]/state/";
const std::string kPrioQuiet = "/fabric/interfaces/interface[name=eth1/2]/priorities/priority[id=3]/state/";
const std::string kDcqcn = "/fabric/dcqcn/devices/device[name=mlx5_0]/ports/port[port-num=1]/state/";
// mlx5_0 as a length-prefixed OCTET STRING index, then port 1.
const std::string kDcqcnInstance = ".6.109.108.120.53.95.48.1";

class SnmpNotifyTest : public ::testing::Test {
 protected:
  void SetUp() override {
    ASSERT_TRUE(trapd_.start().isOk()) << trapd_.logText();
    testing::fillStore(&store_);
  }
  void TearDown() override {
    if (agent_) agent_->stop();
    if (HasFailure()) std::fprintf(stderr, "snmptrapd:\n%s\n", trapd_.logText().c_str());
  }

  void startAgent(std::vector<SnmpNotifyDestination> destinations, size_t queue = 1024) {
    SnmpConfig cfg = testing::notifyAgentConfig(state_.path());
    cfg.notifications = std::move(destinations);
    cfg.notification_queue = queue;
    agent_ = std::make_unique<SnmpAgent>(store_, cfg);
    Status st = agent_->start();
    ASSERT_TRUE(st.isOk()) << st.message();
  }

  uint64_t sent(size_t destination, size_t type) const { return agent_->notifyCounters()->sent[destination][type]; }
  uint64_t failed(size_t destination, size_t type) const {
    return agent_->notifyCounters()->failed[destination][type];
  }

  // The pause-storm notification for sw1 eth1/1 priority 3 with `code`.
  void expectStorm(const ReceivedTrap& t, const std::string& code) {
    const std::string instance = "." + std::to_string(testing::ifIndexOf(*agent_, "sw1", "eth1/1")) + ".3";
    ASSERT_EQ(t.varbinds.size(), 5u) << t.text();
    EXPECT_EQ(t.varbinds[0].first, ".1.3.6.1.2.1.1.3.0") << t.text();  // sysUpTime.0 first
    EXPECT_EQ(t.varbinds[1], (std::pair<std::string, std::string>{".1.3.6.1.6.3.1.1.4.1.0",
                                                                  testing::kPauseStormChange}));
    EXPECT_EQ(t.varbinds[2], (std::pair<std::string, std::string>{testing::kNotifyTarget, "\"sw1\""}));
    EXPECT_EQ(t.varbinds[3], (std::pair<std::string, std::string>{testing::kNotifyPort, "\"eth1/1\""}));
    EXPECT_EQ(t.varbinds[4], (std::pair<std::string, std::string>{
                                 std::string(testing::kFabricPrioEntry) + "2" + instance, code}));
  }

  Store store_;
  testing::TempDir state_{"rdmagw-snmp-notify"};
  SnmptrapdLauncher trapd_;
  std::unique_ptr<SnmpAgent> agent_;
};

TEST_F(SnmpNotifyTest, V2cTrapForAStormPresentAtStartThenItsClear) {
  put(&store_, "sw1", kPrio + "pause-storm", uint64_t{1});
  put(&store_, "sw1", kPrioQuiet + "pause-storm", uint64_t{0});       // normal at start: nothing sent
  put(&store_, "sw1", kPrio + "lossless-drop-alarm", uint64_t{0});    // normal: nothing sent
  startAgent({testing::v2cDestination(trapd_, Type::kTrap)});
  ASSERT_TRUE(testing::waitForTraps(trapd_, testing::kPauseStormChange, 1)) << trapd_.logText();
  expectStorm(testing::trapsOf(trapd_, "")[0], "1");

  put(&store_, "sw1", kPrio + "pause-storm", uint64_t{0});
  ASSERT_TRUE(testing::waitRefreshing(*agent_, [&] { return testing::trapsOf(trapd_, "").size() >= 2; }));
  std::vector<ReceivedTrap> all = testing::trapsOf(trapd_, "");
  ASSERT_EQ(all.size(), 2u);
  expectStorm(all[1], "0");
  EXPECT_EQ(sent(0, 1), 2u);
  EXPECT_EQ(failed(0, 1), 0u);
}

TEST_F(SnmpNotifyTest, V2cInformCarriesTheDcqcnVerdictTextAndIsCountedWhenAcknowledged) {
  put(&store_, "host1", kDcqcn + "verdict-code", uint64_t{1});  // working: normal, nothing at start
  put(&store_, "host1", kDcqcn + "verdict", std::string("working"));
  startAgent({testing::v2cDestination(trapd_, Type::kInform)});
  put(&store_, "host1", kDcqcn + "verdict-code", uint64_t{2});
  put(&store_, "host1", kDcqcn + "verdict", std::string("marks-no-cnp"));
  ASSERT_TRUE(testing::waitRefreshing(*agent_, [&] { return sent(0, 0) >= 1; })) << trapd_.logText();
  std::vector<ReceivedTrap> all = testing::trapsOf(trapd_, "");
  ASSERT_EQ(all.size(), 1u);
  const ReceivedTrap& t = all[0];
  ASSERT_EQ(t.varbinds.size(), 6u) << t.text();
  EXPECT_EQ(t.trapOid(), testing::kDcqcnChange);
  EXPECT_EQ(t.value(testing::kNotifyTarget), "\"host1\"");
  EXPECT_EQ(t.value(testing::kNotifyPort), "\"mlx5_0:1\"");
  EXPECT_EQ(t.varbinds[4], (std::pair<std::string, std::string>{
                               std::string(testing::kFabricDcqcnEntry) + "1" + kDcqcnInstance, "2"}));
  EXPECT_EQ(t.varbinds[5], (std::pair<std::string, std::string>{
                               std::string(testing::kFabricDcqcnEntry) + "2" + kDcqcnInstance, "\"marks-no-cnp\""}));
  EXPECT_EQ(failed(0, 0), 0u);
}

TEST_F(SnmpNotifyTest, V3AuthPrivInformOfAPauseTreeRootWithItsSizeAndRoots) {
  startAgent({testing::v3InformDestination(trapd_)});
  put(&store_, "sw1", kPrio + "pause-tree-state-code", uint64_t{2});
  put(&store_, "sw1", kPrio + "pause-tree-size", uint64_t{4});
  put(&store_, "sw1", kPrio + "pause-tree-roots", std::string("sw1:eth1/1"));
  ASSERT_TRUE(testing::waitRefreshing(*agent_, [&] { return sent(0, 3) >= 1; })) << trapd_.logText();
  std::vector<ReceivedTrap> all = testing::trapsOf(trapd_, "");
  ASSERT_EQ(all.size(), 1u);
  const ReceivedTrap& t = all[0];
  const std::string instance = "." + std::to_string(testing::ifIndexOf(*agent_, "sw1", "eth1/1")) + ".3";
  EXPECT_EQ(t.trapOid(), testing::kPauseTreeChange) << t.text();
  EXPECT_EQ(t.value(testing::kNotifyTarget), "\"sw1\"");
  EXPECT_EQ(t.value(testing::kNotifyPort), "\"eth1/1\"");
  EXPECT_EQ(t.value(std::string(testing::kFabricPrioEntry) + "4" + instance), "2") << t.text();
  EXPECT_EQ(t.value(std::string(testing::kFabricPrioEntry) + "5" + instance), "4") << t.text();
  EXPECT_EQ(t.value(std::string(testing::kFabricPrioEntry) + "6" + instance), "\"sw1:eth1/1\"") << t.text();
}

// A v3 trap's sender is the authoritative engine: the receiver knows the
// gateway's engine ID (createUser -e), the gateway discovers nothing. The
// ID is the one kept in the state dir, so receivers survive a restart.
TEST_F(SnmpNotifyTest, V3AuthPrivTrapCarriesTheGatewaysKeptEngineId) {
  const std::string kept = "0x80001f880472646d61677774657374";  // enterprise 8072, text "rdmagwtest"
  ASSERT_TRUE(testing::writeFile(state_.file("snmp-engine-id"), kept + "\n"));
  sim::SnmptrapdOptions opts;
  opts.port = sim::freeUdpPort();
  startAgent({testing::v3Destination(opts, opts.port, Type::kTrap)});
  ASSERT_TRUE(testing::waitUntil([&] { return agent_->engineIdHex() == kept; })) << agent_->engineIdHex();
  opts.v3_trap_engine_id = kept;
  SnmptrapdLauncher v3trapd(opts);
  ASSERT_TRUE(v3trapd.start().isOk()) << v3trapd.logText();
  put(&store_, "sw1", kPrio + "pause-storm", uint64_t{1});
  ASSERT_TRUE(testing::waitRefreshing(*agent_, [&] { return !testing::trapsOf(v3trapd, "").empty(); }))
      << opts.v3_trap_engine_id << "\n" << v3trapd.logText();
  expectStorm(testing::trapsOf(v3trapd, "")[0], "1");
  EXPECT_EQ(sent(0, 1), 1u);
}

TEST_F(SnmpNotifyTest, ARemovedVerdictSendsNothingAndItsReturnAsAlarmDoes) {
  put(&store_, "sw1", kPrio + "lossless-drop-alarm", uint64_t{0});
  startAgent({testing::v2cDestination(trapd_, Type::kInform)});
  store_.remove("sw1", *Path::parse("/fabric/interfaces/interface[name=eth1/1]"));
  put(&store_, "sw1", kPrioQuiet + "lossless-drop-alarm", uint64_t{0});
  // Once the snapshot without it is in service (the quiet leaf is there),
  // nothing has been sent; then the alarm comes back on.
  ASSERT_TRUE(testing::waitRefreshing(*agent_, [&] {
    snmp::MibSnapshotPtr s = agent_->latestSnapshot();
    return testing::ifIndexOf(*agent_, "sw1", "eth1/2") != 0 && agent_->snapshotsServed() >= 3;
  }));
  put(&store_, "sw1", kPrio + "lossless-drop-alarm", uint64_t{1});
  ASSERT_TRUE(testing::waitRefreshing(*agent_, [&] { return sent(0, 2) >= 1; })) << trapd_.logText();
  std::vector<ReceivedTrap> all = testing::trapsOf(trapd_, "");
  ASSERT_EQ(all.size(), 1u) << all[0].text();
  EXPECT_EQ(all[0].trapOid(), testing::kLosslessDropChange);
  EXPECT_EQ(all[0].value(testing::kNotifyPort), "\"eth1/1\"");
}

TEST_F(SnmpNotifyTest, UnreachableAndWrongCommunityInformsCountAsFailedAndTheGoodDestinationStillReceives) {
  SnmpNotifyDestination nobody = testing::v2cDestination(trapd_, Type::kInform);
  nobody.port = uint16_t(sim::freeUdpPort());  // nothing listens there
  nobody.retries = 0;
  nobody.timeout = std::chrono::milliseconds(500);
  SnmpNotifyDestination wrong = nobody;
  wrong.port = uint16_t(trapd_.port());
  setenv("RDMAGW_TEST_WRONG_COMMUNITY", "not-the-community", 1);
  wrong.community = SecretRef{"RDMAGW_TEST_WRONG_COMMUNITY", ""};
  put(&store_, "sw1", kPrio + "pause-storm", uint64_t{1});
  startAgent({nobody, testing::v2cDestination(trapd_, Type::kTrap), wrong});
  ASSERT_TRUE(testing::waitForTraps(trapd_, testing::kPauseStormChange, 1)) << trapd_.logText();
  ASSERT_TRUE(testing::waitUntil([&] { return failed(0, 1) == 1 && failed(2, 1) == 1; }))
      << failed(0, 1) << " " << failed(2, 1);
  EXPECT_EQ(sent(0, 1), 0u);
  EXPECT_EQ(sent(1, 1), 1u);
  EXPECT_EQ(failed(1, 1), 0u);
  EXPECT_EQ(sent(2, 1), 0u);
  EXPECT_EQ(agent_->notifyCounters()->in_flight.load(), 0u);
  expectStorm(testing::trapsOf(trapd_, "")[0], "1");
  EXPECT_EQ(testing::trapsOf(trapd_, "").size(), 1u) << "the wrong community's inform was refused";

  // The counters are self-metrics, labelled by destination and type.
  bool found = false;
  for (const SelfMetricSample& s : SelfMetrics::instance().collect()) {
    if (s.id == "snmp_notifications_failed" && s.label_values[0] == nobody.label() &&
        s.label_values[1] == "pause-storm") {
      found = true;
      EXPECT_EQ(s.value, 1.0);
    }
  }
  EXPECT_TRUE(found);
}

// A v3 inform learns the receiver's engine ID when its session opens; with
// nobody there the open fails (one short probe), the notification counts as
// failed and the other destination is served.
TEST_F(SnmpNotifyTest, AV3InformReceiverThatIsDownCountsAsFailed) {
  sim::SnmptrapdOptions opts;
  put(&store_, "sw1", kPrio + "pause-storm", uint64_t{1});
  startAgent({testing::v3Destination(opts, sim::freeUdpPort(), Type::kInform),
              testing::v2cDestination(trapd_, Type::kTrap)});
  ASSERT_TRUE(testing::waitForTraps(trapd_, testing::kPauseStormChange, 1)) << trapd_.logText();
  ASSERT_TRUE(testing::waitUntil([&] { return failed(0, 1) == 1; }));
  EXPECT_EQ(sent(0, 1), 0u);
  EXPECT_EQ(sent(1, 1), 1u);
}

TEST_F(SnmpNotifyTest, AMissingSecretFailsEveryNotificationToThatDestinationOnly) {
  SnmpNotifyDestination unset = testing::v2cDestination(trapd_, Type::kTrap);
  unsetenv("RDMAGW_TEST_UNSET_COMMUNITY");
  unset.community = SecretRef{"RDMAGW_TEST_UNSET_COMMUNITY", ""};
  put(&store_, "sw1", kPrio + "pause-storm", uint64_t{1});
  startAgent({unset, testing::v2cDestination(trapd_, Type::kTrap)});
  ASSERT_TRUE(testing::waitForTraps(trapd_, testing::kPauseStormChange, 1)) << trapd_.logText();
  ASSERT_TRUE(testing::waitUntil([&] { return sent(1, 1) == 1; }));
  EXPECT_EQ(failed(0, 1), 1u);
}

TEST_F(SnmpNotifyTest, WhatTheQueueCannotHoldIsDroppedAndCounted) {
  for (const char* prio : {"3", "4", "5"}) {
    put(&store_, "sw1", "/fabric/interfaces/interface[name=eth1/1]/priorities/priority[id=" + std::string(prio) +
                            "]/state/pause-storm", uint64_t{1});
  }
  put(&store_, "sw1", kPrioQuiet + "pause-storm", uint64_t{1});
  startAgent({testing::v2cDestination(trapd_, Type::kTrap)}, 2);  // four alarms at start, room for two
  ASSERT_TRUE(testing::waitForTraps(trapd_, testing::kPauseStormChange, 2)) << trapd_.logText();
  ASSERT_TRUE(testing::waitUntil([&] { return agent_->notifyCounters()->dropped[1].load() == 2; }));
  EXPECT_EQ(sent(0, 1), 2u);
  EXPECT_EQ(testing::trapsOf(trapd_, "").size(), 2u);
}

TEST(SnmpNotifyConfigTest, DestinationsAreValidated) {
  SnmpNotifyDestination d;
  d.host = "nms";
  EXPECT_FALSE(d.validate().isOk()) << "v2c needs a community";
  d.community.env = "X";
  EXPECT_TRUE(d.validate().isOk());
  d.version = SnmpNotifyDestination::Version::kV3;
  Status st = d.validate();
  EXPECT_NE(st.message().find("community_*: only for version 2c"), std::string::npos) << st.message();
  EXPECT_NE(st.message().find("user: version 3 needs a user"), std::string::npos) << st.message();
  std::string host;
  uint16_t port = 0;
  EXPECT_TRUE(parseNotifyAddress("nms.example.net", &host, &port).isOk());
  EXPECT_EQ(port, 162);
  EXPECT_TRUE(parseNotifyAddress("[2001:db8::1]:10162", &host, &port).isOk());
  EXPECT_EQ(host, "2001:db8::1");
  EXPECT_EQ(port, 10162);
  EXPECT_FALSE(parseNotifyAddress("2001:db8::1", &host, &port).isOk());
  EXPECT_FALSE(parseNotifyAddress("nms:0", &host, &port).isOk());
  EXPECT_FALSE(parseNotifyAddress(":162", &host, &port).isOk());
}

}  // namespace
}  // namespace rdmagw::northbound::snmp
