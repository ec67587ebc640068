// `show running-config ipqos` as the switch's RoCE leaves: the recorded
// N93180FX2 configuration field by field, device errors, bad statements.
#include "southbound/roce/nxos_ipqos_leaves.h"

#include <gtest/gtest.h>

#include <map>
#include <string>

#include "models/store.h"
#include "tests/southbound/roce/roce_test_util.h"

namespace rdmagw::southbound::roce {
namespace {

using testing::roceFixture;

std::map<std::string, std::string> leaves(const PollBatch& b) {
  std::map<std::string, std::string> out;
  for (const Update& u : b.updates) {
    out[u.path] = std::holds_alternative<uint64_t>(u.value) ? std::to_string(std::get<uint64_t>(u.value))
                                                            : "'" + std::get<std::string>(u.value) + "'";
  }
  return out;
}

TEST(NxosIpqosLeavesTest, RecordedN93180ConfigurationGivesTheDeviceWidePath) {
  PollBatch b;
  ASSERT_TRUE(parseNxosIpqosLeaves(roceFixture("nxos_running-config_qos_snippet__zartbot-blog.txt"), 7, b).isOk());
  EXPECT_TRUE(b.errors.empty()) << b.errors.front();
  const std::map<std::string, std::string> got = leaves(b);
  const std::string g = "/qos/qos-groups/qos-group";
  std::map<std::string, std::string> want = {
      // RoCE on DSCP 26 -> qos-group 5, CNPs on 48 -> 6.
      {"/qos/dscp-map/dscp[value=26]/state/qos-group", "5"},
      {"/qos/dscp-map/dscp[value=48]/state/qos-group", "6"},
      // Group 5: paused on CoS 5, MTU 2240, 70 % remaining, ECN at 400/800 kbytes,
      // ingress no-drop thresholds from the interfaces' input queuing policy.
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
      // Group 6 (CNP): strict, level 2, no network-qos class of its own.
      {g + "[id=6]/state/egress-queue", "'c-out-8q-q6'"},
      {g + "[id=6]/state/priority-level", "2"},
      {g + "[id=6]/state/ecn", "0"},
      {g + "[id=7]/state/egress-queue", "'c-out-8q-q7'"},
      {g + "[id=7]/state/priority-level", "1"},
      {g + "[id=7]/state/ecn", "0"},
      {g + "[id=1]/state/egress-queue", "'c-out-8q-q1'"},
      {g + "[id=1]/state/bandwidth-percent", "0"},
      {g + "[id=1]/state/ecn", "0"},
      {g + "[id=2]/state/egress-queue", "'c-out-8q-q2'"},
      {g + "[id=2]/state/bandwidth-percent", "0"},
      {g + "[id=2]/state/ecn", "0"},
      {g + "[id=3]/state/egress-queue", "'c-out-8q-q3'"},
      {g + "[id=3]/state/bandwidth-percent", "0"},
      {g + "[id=3]/state/ecn", "0"},
      {g + "[id=4]/state/egress-queue", "'c-out-8q-q4'"},
      {g + "[id=4]/state/bandwidth-percent", "0"},
      {g + "[id=4]/state/ecn", "0"},
      // The paste names the default queue twice (20 %, then 15 %): the later stands.
      {g + "[id=0]/state/egress-queue", "'c-out-8q-q-default'"},
      {g + "[id=0]/state/bandwidth-percent", "15"},
      {g + "[id=0]/state/ecn", "0"},
      {"/qos/pfc-watchdog/state/interval", "'on'"},
      {"/interfaces/interface[name=Ethernet1/51]/ethernet/pfc/state/watchdog-interval", "'on'"},
      {"/interfaces/interface[name=Ethernet1/52]/ethernet/pfc/state/watchdog-interval", "'on'"},
      {"/interfaces/interface[name=Ethernet1/53]/ethernet/pfc/state/watchdog-interval", "'on'"},
      {"/interfaces/interface[name=Ethernet1/54]/ethernet/pfc/state/watchdog-interval", "'on'"},
  };
  // Every other DSCP falls to class-default: qos-group 0, listed so that a
  // class removed later moves its DSCPs there in the store too.
  for (int dscp = 0; dscp < 64; ++dscp) {
    want.try_emplace("/qos/dscp-map/dscp[value=" + std::to_string(dscp) + "]/state/qos-group", "0");
  }
  EXPECT_EQ(got, want);
  for (const Update& u : b.updates) EXPECT_EQ(u.timestamp_ns, 7) << u.path;
  Store store;
  const Store::ApplyResult r = store.apply("nx", b.updates);
  EXPECT_EQ(r.rejected, 0u) << r.first_error;
}

TEST(NxosIpqosLeavesTest, DeviceErrorsWriteNothing) {
  PollBatch banner;
  EXPECT_FALSE(parseNxosIpqosLeaves("% Invalid command at '^' marker.\n", 1, banner).isOk());
  EXPECT_TRUE(banner.updates.empty());
  PollBatch foreign;
  EXPECT_EQ(parseNxosIpqosLeaves("hello world\n", 1, foreign).code(), Status::Code::kCorrupt);
  EXPECT_TRUE(foreign.updates.empty());
}

TEST(NxosIpqosLeavesTest, ABadStatementIsAnErrorLineTheRestIsWritten) {
  PollBatch b;
  ASSERT_TRUE(parseNxosIpqosLeaves("class-map type qos match-all RoCE\n"
                                   "  match dscp 26\n"
                                   "policy-map type qos MARK\n"
                                   "  class RoCE\n"
                                   "    set qos-group 99\n"
                                   "policy-map type network-qos NQ\n"
                                   "  class type network-qos c-8q-nq3\n"
                                   "    pause pfc-cos 3\n"
                                   "    mtu 9216\n"
                                   "system qos\n"
                                   "  service-policy type qos input MARK\n"
                                   "  service-policy type network-qos NQ\n",
                                   1, b)
                  .isOk());
  ASSERT_EQ(b.errors.size(), 1u);
  EXPECT_NE(b.errors[0].find("99"), std::string::npos) << b.errors[0];
  const std::map<std::string, std::string> got = leaves(b);
  EXPECT_EQ(got.at("/qos/qos-groups/qos-group[id=3]/state/pause-cos"), "8");
  EXPECT_EQ(got.at("/qos/qos-groups/qos-group[id=3]/state/mtu"), "9216");
}

}  // namespace
}  // namespace rdmagw::southbound::roce
