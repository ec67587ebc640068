// `show running-config ipqos` as the switch's RoCE leaves: the recorded
// N93180FX2 configuration field by field, device errors, bad statements.
#include "southbound/nxos/nxos_ipqos_leaves.h"

#include <gtest/gtest.h>

#include <map>
#include <string>

#include "models/store.h"
#include "tests/southbound/roce_test_util.h"
#include "tests/support/n93180_roce_leaves.h"

namespace rdmagw::southbound::nxos {
namespace {

using testing::roceFixture;

using rdmagw::testing::leafTable;

TEST(NxosIpqosLeavesTest, RecordedN93180ConfigurationGivesTheDeviceWidePath) {
  PollBatch b;
  ASSERT_TRUE(parseNxosIpqosLeaves(roceFixture("nxos_running-config_qos_snippet__zartbot-blog.txt"), 7, b).isOk());
  EXPECT_TRUE(b.errors.empty()) << b.errors.front();
  const rdmagw::testing::LeafTable got = leafTable(b);
  const std::string& g = rdmagw::testing::kQosGroup;
  rdmagw::testing::LeafTable want = rdmagw::testing::n93180RoceLeaves();
  // What only the recorded text has: the egress queues of the other groups
  // (the queuing policy names all eight), two more ports with the watchdog.
  rdmagw::testing::LeafTable own = {
      {g + "[id=7]/state/egress-queue", "'c-out-8q-q7'"},
      {g + "[id=7]/state/priority-level", "1"},
      {g + "[id=7]/state/ecn", "0"},
      // The paste names the default queue twice (20 %, then 15 %): the later stands.
      {g + "[id=0]/state/egress-queue", "'c-out-8q-q-default'"},
      {g + "[id=0]/state/bandwidth-percent", "15"},
      {g + "[id=0]/state/ecn", "0"},
      {"/interfaces/interface[name=Ethernet1/53]/ethernet/pfc/state/watchdog-interval", "'on'"},
      {"/interfaces/interface[name=Ethernet1/54]/ethernet/pfc/state/watchdog-interval", "'on'"},
  };
  for (int q = 1; q <= 4; ++q) {
    const std::string id = g + "[id=" + std::to_string(q) + "]/state/";
    own[id + "egress-queue"] = "'c-out-8q-q" + std::to_string(q) + "'";
    own[id + "bandwidth-percent"] = "0";
    own[id + "ecn"] = "0";
  }
  for (const auto& [path, value] : own) {
    EXPECT_TRUE(want.emplace(path, value).second) << path << " is in the shared table already";
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
  const rdmagw::testing::LeafTable got = leafTable(b);
  EXPECT_EQ(got.at("/qos/qos-groups/qos-group[id=3]/state/pause-cos"), "8");
  EXPECT_EQ(got.at("/qos/qos-groups/qos-group[id=3]/state/mtu"), "9216");
}

}  // namespace
}  // namespace rdmagw::southbound::nxos
