#include "southbound/rdma/ethtool_mapping.h"

#include <gtest/gtest.h>

#include "models/schema.h"
#include "southbound/rdma/ethtool_text.h"
#include "tests/southbound/rdma/rdma_test_util.h"

namespace rdmagw::southbound::rdma {
namespace {

using rdmagw::testing::keyless;
using rdmagw::testing::readFixture;
using rdmagw::testing::u64At;

const std::string kIf = "/interfaces/interface[name=ens1f0np0]";

TEST(EthtoolMappingTest, EveryRuleLandsOnASchemaLeaf) {
  for (const EthtoolRule& r : ethtoolRules()) {
    std::string name(r.pattern);
    if (size_t n = name.find('N'); n != std::string::npos) name[n] = '3';
    std::optional<std::string> path = ethtoolLeafPath("ens1f0np0", name);
    ASSERT_TRUE(path.has_value()) << name;
    EXPECT_NE(SchemaTable::instance().find(keyless(*path)), nullptr) << *path;
  }
}

TEST(EthtoolMappingTest, PriorityPatternsExpandToEightPriorities) {
  EXPECT_EQ(ethtoolLeafPath("ens1f0np0", "rx_prio3_pause"),
            kIf + "/ethernet/pfc/priorities/priority[id=3]/state/counters/in-pause-frames");
  EXPECT_EQ(ethtoolLeafPath("ens1f0np0", "tx_prio7_pause_duration"),
            kIf + "/ethernet/pfc/priorities/priority[id=7]/state/counters/out-pause-duration");
  EXPECT_EQ(ethtoolLeafPath("ens1f0np0", "rx_prio0_pause_transition"),
            kIf + "/ethernet/pfc/priorities/priority[id=0]/state/counters/in-pause-transitions");
  EXPECT_FALSE(ethtoolLeafPath("ens1f0np0", "rx_prio8_pause").has_value());
  EXPECT_FALSE(ethtoolLeafPath("ens1f0np0", "rx_prioN_pause").has_value());
}

TEST(EthtoolMappingTest, ScopesAndUnmappedNames) {
  EXPECT_EQ(ethtoolLeafPath("ens1f0np0", "tx_pause_ctrl_phy"),
            kIf + "/ethernet/pfc/state/counters/out-pause-ctrl-frames");
  EXPECT_EQ(ethtoolLeafPath("ens1f0np0", "rx_global_pause"),
            kIf + "/ethernet/state/counters/in-mac-pause-frames");
  EXPECT_EQ(ethtoolLeafPath("ens1f0np0", "rx_discards_phy"), kIf + "/state/counters/in-discards");
  EXPECT_FALSE(ethtoolLeafPath("ens1f0np0", "rx_out_of_buffer").has_value());
  EXPECT_FALSE(ethtoolLeafPath("ens1f0np0", "rx_bytes_phy").has_value());
}

TEST(EthtoolMappingTest, EthqFixtureUpdates) {
  EthtoolTextParse p = parseEthtoolText(readFixture("ethtool_S_mlx5_core_cx4lx_ethq.txt"));
  PollBatch b;
  appendEthtoolUpdates("ens1f0np0", p.stats, 42, b);
  // PFC was off on that host: no per-priority pause stats.
  EXPECT_EQ(u64At(b, kIf + "/state/counters/in-octets"), 2195783498134ULL);
  EXPECT_EQ(u64At(b, kIf + "/state/counters/out-octets"), 2655285206479ULL);
  EXPECT_EQ(u64At(b, kIf + "/state/counters/in-pkts"), 845320277ULL);
  EXPECT_EQ(u64At(b, kIf + "/state/counters/out-pkts"), 896117891ULL);
  EXPECT_EQ(u64At(b, kIf + "/state/counters/in-discards"), 0u);
  EXPECT_EQ(u64At(b, kIf + "/ethernet/pfc/priorities/priority[id=0]/state/counters/in-octets"),
            2202570777997ULL);
  EXPECT_EQ(u64At(b, kIf + "/ethernet/pfc/priorities/priority[id=0]/state/counters/out-pkts"),
            896117891ULL);
  EXPECT_FALSE(
      u64At(b, kIf + "/ethernet/pfc/priorities/priority[id=3]/state/counters/in-pause-frames"));
  for (const Update& u : b.updates) {
    EXPECT_EQ(u.timestamp_ns, 42);
    EXPECT_EQ(u.source.bits, 64);
    EXPECT_NE(SchemaTable::instance().find(keyless(u.path)), nullptr) << u.path;
  }
  // Every mapped name of 751 lines, nothing else.
  size_t mapped = 0;
  for (const auto& [name, v] : p.stats) mapped += ethtoolLeafPath("x", name).has_value();
  EXPECT_EQ(b.updates.size(), mapped);
  EXPECT_EQ(mapped, 5u + 32u + 2u + 5u);  // interface, prio 0..7 x4, pause ctrl, global pause
}

}  // namespace
}  // namespace rdmagw::southbound::rdma
