// `show policy-map system type network-qos`: the switch's no-drop CoS and
// class MTUs, for the fabric's DCB consistency check.

#include <gtest/gtest.h>

#include "tests/southbound/nxos/nxos_test_util.h"

namespace rdmagw::testing {
using namespace rdmagw::southbound::nxos;  // the helpers speak the vocabulary of the code they test
namespace {

std::string classLeaf(const std::string& cls, const std::string& leaf) {
  return "/qos/network-qos/classes/class[name=" + cls + "]/state/" + leaf;
}

TEST(NxosNetworkQosTest, RoceTemplateGolden) {
  Parsed p = parse("nxos-network-qos",
                   readFixture("SYNTHETIC_nxos_show_policy-map_system_type_network-qos__reconstructed.txt"));
  ASSERT_TRUE(p.status.isOk()) << p.status.toString();
  EXPECT_TRUE(p.batch.errors.empty()) << p.batch.errors.front();
  EXPECT_EQ(u64At(p.batch, classLeaf("c-8q-nq3", "pfc-priorities")), 0x08u);
  EXPECT_EQ(u64At(p.batch, classLeaf("c-8q-nq3", "mtu")), 9216u);
  // A class that pauses nothing says so (0), it is not left out.
  EXPECT_EQ(u64At(p.batch, classLeaf("c-8q-nq7", "pfc-priorities")), 0u);
  EXPECT_EQ(u64At(p.batch, classLeaf("c-8q-nq-default", "mtu")), 9216u);
  EXPECT_EQ(p.batch.updates.size(), 6u);
}

TEST(NxosNetworkQosTest, CosListsRangesAndNoDropKeyword) {
  Parsed p = parse("nxos-network-qos",
                   "policy-map type network-qos NQ\n"
                   "  class type network-qos c-8q-nq3\n"
                   "    pause no-drop pfc-cos 3,4\n"
                   "  class type network-qos c-8q-nq5\n"
                   "    pause buffer-size 100 pause-threshold 50 resume-threshold 40 pfc-cos 5-6\n");
  ASSERT_TRUE(p.status.isOk()) << p.status.toString();
  EXPECT_EQ(u64At(p.batch, classLeaf("c-8q-nq3", "pfc-priorities")), 0x18u);
  EXPECT_EQ(u64At(p.batch, classLeaf("c-8q-nq5", "pfc-priorities")), 0x60u);
  EXPECT_FALSE(u64At(p.batch, classLeaf("c-8q-nq3", "mtu")));
}

TEST(NxosNetworkQosTest, BrokenLinesAreErrorsAndTheOtherClassesStay) {
  Parsed p = parse("nxos-network-qos",
                   "  class type network-qos c-8q-nq3\n"
                   "    pause pfc-cos 9\n"
                   "    mtu lots\n"
                   "  class type network-qos c-8q-nq-default\n"
                   "    mtu 9216\n");
  ASSERT_TRUE(p.status.isOk());
  ASSERT_EQ(p.batch.errors.size(), 2u);
  EXPECT_NE(p.batch.errors[0].find("nxos-network-qos: line 2: no pfc-cos list 0..7"), std::string::npos)
      << p.batch.errors[0];
  EXPECT_NE(p.batch.errors[1].find("bad mtu"), std::string::npos) << p.batch.errors[1];
  EXPECT_EQ(u64At(p.batch, classLeaf("c-8q-nq3", "pfc-priorities")), 0u);
  EXPECT_EQ(u64At(p.batch, classLeaf("c-8q-nq-default", "mtu")), 9216u);
}

TEST(NxosNetworkQosTest, DeviceErrorAndNoPolicyAreClearFailures) {
  Parsed banner = parse("nxos-network-qos", "% Invalid command at '^' marker.\n");
  EXPECT_FALSE(banner.status.isOk());
  EXPECT_NE(banner.status.message().find("device error"), std::string::npos) << banner.status.toString();
  Parsed empty = parse("nxos-network-qos", "\n  Type network-qos policy-maps\n  ====\n");
  EXPECT_FALSE(empty.status.isOk());
  EXPECT_NE(empty.status.message().find("no 'class type network-qos' line found"), std::string::npos);
}

TEST(NxosNetworkQosTest, InterfaceJsonCarriesTheMtu) {
  Parsed p = parse("nxos-interface-json", readFixture("nxos_n9000_show_interface_json__napalm_N9000.json"));
  ASSERT_TRUE(p.status.isOk());
  bool any = false;
  for (const Update& u : p.batch.updates) any |= u.path.ends_with("/state/mtu");
  EXPECT_TRUE(any);
  Parsed bad = parse("nxos-interface-json",
                     R"({"TABLE_interface":{"ROW_interface":[{"interface":"Ethernet1/1","eth_mtu":"big","eth_inbytes":"5"}]}})");
  ASSERT_TRUE(bad.status.isOk());
  EXPECT_EQ(u64At(bad.batch, "/interfaces/interface[name=Ethernet1/1]/state/counters/in-octets"), 5u);
  ASSERT_FALSE(bad.batch.errors.empty());
  EXPECT_NE(bad.batch.errors[0].find("eth_mtu"), std::string::npos);
}

}  // namespace
}  // namespace rdmagw::testing
