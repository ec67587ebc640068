// Queues and lossless priorities from a switch's RoCE configuration
// (analytics/roce_inventory.h) instead of queue-name suffixes and
// analytics.no_drop_priorities, on the small fabric: leaf01's qos-group
// rows say which CoS each group pauses; without them, today's guesses stand.

#include <gtest/gtest.h>

#include "tests/analytics/small_fabric.h"

namespace rdmagw::analytics {
namespace {

using testing::SmallFabric;

const std::string kNetdev = "ens1f0np0";

std::string pauseCos(int group) {
  return "/qos/qos-groups/qos-group[id=" + std::to_string(group) + "]/state/pause-cos";
}

TEST(RoceMappingTest, TheQueueOfTheQosGroupPausingTheLosslessCosCountsItsDrops) {
  SmallFabric f;
  // RoCE's CoS 3 is carried by qos-group 5 (the recorded N93180FX2 layout), so queue "5" serves priority 3.
  f.set("leaf01", SmallFabric::queue("Ethernet1/1", 5, "dropped-pkts"), 0);
  f.ticks(6, [&] { f.bump("leaf01", SmallFabric::queue("Ethernet1/1", 5, "dropped-pkts"), 7); });
  EXPECT_EQ(f.derived("lossless-drop-alarm")["leaf01:Ethernet1/1:3"], "0")
      << "without the configuration queue 5 is taken as priority 5's, which is lossy";
  f.set("leaf01", pauseCos(5), 0x08);
  f.set("leaf01", pauseCos(3), 0);
  f.ticks(6, [&] { f.bump("leaf01", SmallFabric::queue("Ethernet1/1", 5, "dropped-pkts"), 7); });
  EXPECT_EQ(f.derived("lossless-drop-alarm")["leaf01:Ethernet1/1:3"], "1");
  f.ticks(6);
  EXPECT_EQ(f.derived("lossless-drop-alarm")["leaf01:Ethernet1/1:3"], "0");
}

TEST(RoceMappingTest, AHostsLosslessPrioritiesAreThoseItsSwitchPausesWhereTheSwitchSays) {
  SmallFabric f;
  f.ticks(6, [&] { f.bump("host02", SmallFabric::pfc(kNetdev, 0, "in-discards"), 5); });
  EXPECT_EQ(f.derived("lossless-drop-alarm").count("host02:ens1f0np0:0"), 0u)
      << "priority 0 is not in analytics.no_drop_priorities {3}";
  f.set("leaf01", pauseCos(0), 0x01);
  f.ticks(6, [&] { f.bump("host02", SmallFabric::pfc(kNetdev, 0, "in-discards"), 5); });
  EXPECT_EQ(f.derived("lossless-drop-alarm")["host02:ens1f0np0:0"], "1")
      << "leaf01 pauses CoS 0: host02's drops there break the lossless path";
}

}  // namespace
}  // namespace rdmagw::analytics
