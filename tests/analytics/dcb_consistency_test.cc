// DCB consistency per link (analytics/dcb_consistency.h) on the small
// fabric: leaf01 Ethernet1/1 - host01 ens1f0np0 (through mlx5_0/1),
// Ethernet1/2 - host02 ens1f0np0, Ethernet1/3 - esx01 vmnic4 (whose DCB
// configuration is collected only where a test says so). The leaf has PFC
// on priority 3 on every port; each test gives the hosts their configuration.

#include <gtest/gtest.h>

#include "analytics/dcb_consistency.h"
#include "models/path.h"
#include "northbound/gnmi/get_handler.h"
#include "northbound/prometheus/exposition.h"
#include "tests/analytics/gnmi_get_request.h"
#include "tests/analytics/small_fabric.h"

namespace rdmagw::analytics {
namespace {

using testing::SmallFabric;
using Leaves = std::map<std::string, std::string>;

const std::string kNetdev = "ens1f0np0";

std::string mtu(const std::string& iface) { return "/interfaces/interface[name=" + iface + "]/state/mtu"; }
std::string knob(const std::string& point) {
  return "/interfaces/interface[name=" + kNetdev + "]/ethernet/dcqcn/state/" + point + "-enabled-priorities";
}

class DcbConsistencyTest : public ::testing::Test {
 protected:
  // Both hosts as a RoCE host should be: PFC on 3, DCQCN on everywhere,
  // jumbo frames below the leaf's 9216.
  void SetUp() override {
    for (const char* host : {"host01", "host02"}) {
      f_.set(host, SmallFabric::pfcState(kNetdev, "enabled-priorities"), 0x08);
      f_.set(host, mtu(kNetdev), 9000);
      f_.set(host, knob("np"), 0xff);
      f_.set(host, knob("rp"), 0xff);
    }
    for (const char* port : {"Ethernet1/1", "Ethernet1/2", "Ethernet1/3"}) f_.set("leaf01", mtu(port), 9216);
  }

  Leaves codes() const { return f_.derived("consistency-code"); }

  SmallFabric f_;
};

TEST_F(DcbConsistencyTest, AConsistentFabricIsConsistentAtBothEndsOfEveryKnownLink) {
  f_.tick();
  EXPECT_EQ(codes(), (Leaves{{"host01:ens1f0np0", "0"},
                             {"host02:ens1f0np0", "0"},
                             {"leaf01:Ethernet1/1", "0"},
                             {"leaf01:Ethernet1/2", "0"}}))
      << "esx01's vmnic4 has no collected DCB configuration: no verdict on that link";
  EXPECT_EQ(f_.derived("consistency")["leaf01:Ethernet1/1"], "consistent");
  EXPECT_EQ(f_.derived("mismatches")["leaf01:Ethernet1/1"], "");
  EXPECT_EQ(f_.derived("pfc-priorities")["leaf01:Ethernet1/1"], "3");
  EXPECT_EQ(f_.derived("peer-pfc-priorities")["leaf01:Ethernet1/1"], "3");
  EXPECT_EQ(f_.derived("mtu")["host01:ens1f0np0"], "9000");
  EXPECT_EQ(f_.derived("peer-mtu")["host01:ens1f0np0"], "9216");
}

TEST_F(DcbConsistencyTest, HostWithoutPfcOnTheLosslessPriorityIsAMismatchOnThatLinkAlone) {
  f_.set("host01", SmallFabric::pfcState(kNetdev, "enabled-priorities"), 0);
  f_.tick();
  EXPECT_EQ(codes(), (Leaves{{"host01:ens1f0np0", "1"},
                             {"host02:ens1f0np0", "0"},
                             {"leaf01:Ethernet1/1", "1"},
                             {"leaf01:Ethernet1/2", "0"}}));
  EXPECT_EQ(f_.derived("mismatches")["leaf01:Ethernet1/1"], "pfc priorities: leaf01:Ethernet1/1 {3} vs host01:ens1f0np0 {}");
  EXPECT_EQ(f_.derived("consistency")["host01:ens1f0np0"], "mismatch");
  EXPECT_EQ(f_.derived("pfc-priorities")["host01:ens1f0np0"], "");
  EXPECT_EQ(f_.derived("peer-pfc-priorities")["host01:ens1f0np0"], "3");
  // Fixed on the host: consistent again on the next run.
  f_.set("host01", SmallFabric::pfcState(kNetdev, "enabled-priorities"), 0x08);
  f_.tick();
  EXPECT_EQ(codes()["leaf01:Ethernet1/1"], "0");
}

TEST_F(DcbConsistencyTest, AHostWithPfcOffStillHasItsLosslessDropsAlarmed) {
  // The lossless priorities the drop alarm judges stay the switch's: a
  // misconfigured host must not hide the drops its misconfiguration causes.
  f_.set("host01", SmallFabric::pfcState(kNetdev, "enabled-priorities"), 0);
  f_.ticks(6, [&] { f_.bump("host01", SmallFabric::pfc(kNetdev, 3, "in-discards"), 5); });
  EXPECT_EQ(codes()["host01:ens1f0np0"], "1");
  EXPECT_EQ(f_.derived("lossless-drop-alarm")["host01:ens1f0np0:3"], "1");
}

TEST_F(DcbConsistencyTest, SwitchPortWithoutPfcWhileTheHostHasItIsAMismatchToo) {
  f_.set("leaf01", SmallFabric::pfcState("Ethernet1/2", "enabled-priorities"), 0);
  f_.tick();
  EXPECT_EQ(codes(), (Leaves{{"host01:ens1f0np0", "0"},
                             {"host02:ens1f0np0", "1"},
                             {"leaf01:Ethernet1/1", "0"},
                             {"leaf01:Ethernet1/2", "1"}}));
  EXPECT_EQ(f_.derived("mismatches")["host02:ens1f0np0"], "pfc priorities: leaf01:Ethernet1/2 {} vs host02:ens1f0np0 {3}");
}

TEST_F(DcbConsistencyTest, MtuMismatchesNameBothEnds) {
  f_.set("host02", mtu(kNetdev), 1500);  // left at the default while the leaf runs jumbo
  f_.set("host01", mtu(kNetdev), 9216);  // equal to the leaf: fine
  f_.tick();
  EXPECT_EQ(codes()["leaf01:Ethernet1/1"], "0");
  EXPECT_EQ(codes()["leaf01:Ethernet1/2"], "1");
  EXPECT_EQ(f_.derived("mismatches")["leaf01:Ethernet1/2"], "mtu: leaf01:Ethernet1/2 9216 vs host02:ens1f0np0 1500");
  f_.set("leaf01", mtu("Ethernet1/1"), 9000);
  f_.set("host01", mtu(kNetdev), 9100);  // above its switch port: the leaf drops its biggest frames
  f_.tick();
  EXPECT_EQ(f_.derived("mismatches")["host01:ens1f0np0"], "mtu: leaf01:Ethernet1/1 9000 vs host01:ens1f0np0 9100");
}

TEST_F(DcbConsistencyTest, DcqcnKnobOffOnALosslessPriorityIsAMismatchOnThatHostsLink) {
  f_.set("host01", knob("np"), 0xf7);  // NP off on 3
  f_.set("host02", knob("rp"), 0xfe);  // RP off on 0: not a lossless priority, fine
  f_.tick();
  EXPECT_EQ(codes()["leaf01:Ethernet1/1"], "1");
  EXPECT_EQ(codes()["host01:ens1f0np0"], "1");
  EXPECT_EQ(codes()["leaf01:Ethernet1/2"], "0");
  EXPECT_EQ(f_.derived("mismatches")["leaf01:Ethernet1/1"], "dcqcn np off on lossless priorities: host01:ens1f0np0 {3}");
}

TEST_F(DcbConsistencyTest, AnEndWhosePfcIsNotCollectedGetsNoVerdictNotAGuess) {
  f_.tick();
  ASSERT_EQ(codes()["leaf01:Ethernet1/2"], "0");
  f_.unset("host02", SmallFabric::pfcState(kNetdev, "enabled-priorities"));
  f_.set("host02", mtu(kNetdev), 1500);  // an MTU mismatch alone cannot make a verdict
  f_.tick();
  const Leaves c = codes();
  EXPECT_EQ(c.count("leaf01:Ethernet1/2"), 0u);
  EXPECT_EQ(c.count("host02:ens1f0np0"), 0u);
  EXPECT_TRUE(f_.derived("mismatches").count("leaf01:Ethernet1/1"));
  EXPECT_EQ(f_.derived("mismatches").count("leaf01:Ethernet1/2"), 0u);
}

TEST_F(DcbConsistencyTest, ASwitchPortWithoutItsOwnBitmapFallsBackOnTheNoDropClasses) {
  f_.unset("leaf01", SmallFabric::pfcState("Ethernet1/1", "enabled-priorities"));
  f_.set("leaf01", "/qos/network-qos/classes/class[name=c-8q-nq3]/state/pfc-priorities", 0x08);
  f_.set("leaf01", "/qos/network-qos/classes/class[name=c-8q-nq-default]/state/pfc-priorities", 0);
  f_.tick();
  EXPECT_EQ(codes()["leaf01:Ethernet1/1"], "0");
  EXPECT_EQ(f_.derived("pfc-priorities")["leaf01:Ethernet1/1"], "3");
}

std::string hostTrust() { return "/interfaces/interface[name=" + kNetdev + "]/ethernet/dcb/state/trust"; }
std::string classMatch(const std::string& cls) { return "/qos/type-qos/classes/class[name=" + cls + "]/state/match"; }

TEST_F(DcbConsistencyTest, TrustMismatchNamesBothEndsOnThatLinkAlone) {
  // The leaf classifies RoCE by DSCP (its RDMA class matches dscp; a cos
  // class beside it does not change that); host01 has no dscp-prio rules.
  f_.setText("leaf01", classMatch("RDMA"), "dscp");
  f_.setText("leaf01", classMatch("LEGACY"), "cos");
  f_.setText("host01", hostTrust(), "pcp");
  f_.setText("host02", hostTrust(), "dscp");
  f_.tick();
  EXPECT_EQ(codes(), (Leaves{{"host01:ens1f0np0", "1"},
                             {"host02:ens1f0np0", "0"},
                             {"leaf01:Ethernet1/1", "1"},
                             {"leaf01:Ethernet1/2", "0"}}));
  EXPECT_EQ(f_.derived("mismatches")["host01:ens1f0np0"], "trust: leaf01:Ethernet1/1 dscp vs host01:ens1f0np0 pcp");
  EXPECT_EQ(f_.derived("trust")["leaf01:Ethernet1/1"], "dscp");
  EXPECT_EQ(f_.derived("peer-trust")["leaf01:Ethernet1/1"], "pcp");
  EXPECT_EQ(f_.derived("trust")["host02:ens1f0np0"], "dscp");
  // A switch whose classes all match cos trusts pcp: now host02 is the odd one.
  f_.unset("leaf01", classMatch("RDMA"));
  f_.tick();
  EXPECT_EQ(codes()["leaf01:Ethernet1/1"], "0");
  EXPECT_EQ(codes()["leaf01:Ethernet1/2"], "1");
  EXPECT_EQ(f_.derived("mismatches")["leaf01:Ethernet1/2"], "trust: leaf01:Ethernet1/2 pcp vs host02:ens1f0np0 dscp");
}

TEST_F(DcbConsistencyTest, TrustUnknownAtOneEndIsNoItemNotAGuess) {
  // The switch's class-maps not collected: whatever the hosts trust, no item.
  f_.setText("host01", hostTrust(), "pcp");
  f_.tick();
  EXPECT_EQ(codes()["leaf01:Ethernet1/1"], "0");
  EXPECT_EQ(f_.derived("mismatches")["leaf01:Ethernet1/1"], "");
  EXPECT_EQ(f_.derived("peer-trust")["leaf01:Ethernet1/1"], "pcp");
  EXPECT_EQ(f_.derived("trust").count("leaf01:Ethernet1/1"), 0u);
  // Known on the switch, unknown on host02 (no `dcb app`): no item there.
  f_.setText("leaf01", classMatch("RDMA"), "dscp");
  f_.tick();
  EXPECT_EQ(codes()["leaf01:Ethernet1/1"], "1");
  EXPECT_EQ(codes()["leaf01:Ethernet1/2"], "0");
  EXPECT_EQ(f_.derived("trust").count("host02:ens1f0np0"), 0u);
  EXPECT_EQ(f_.derived("peer-trust")["host02:ens1f0np0"], "dscp");
}

// The verdict reaches /metrics with the port's labels, and a gNMI Get of
// the switch's target: the northbounds serve it unaware.
TEST_F(DcbConsistencyTest, AnEsxiVmnicWithPfcDisabledIsAMismatch) {
  const std::string vmnic_pfc = "/hypervisor/nics/nic[name=vmnic4]/state/pfc-enabled-priorities";
  f_.set("esx01", vmnic_pfc, 0x08);
  f_.tick();
  EXPECT_EQ(codes()["leaf01:Ethernet1/3"], "0");
  EXPECT_EQ(codes()["esx01:vmnic4"], "0");
  f_.set("esx01", vmnic_pfc, 0);  // "PFC Enabled: false" (CEE mode, the field's case)
  f_.tick();
  EXPECT_EQ(codes()["esx01:vmnic4"], "1");
  EXPECT_EQ(f_.derived("mismatches")["leaf01:Ethernet1/3"], "pfc priorities: leaf01:Ethernet1/3 {3} vs esx01:vmnic4 {}");
  EXPECT_EQ(codes()["leaf01:Ethernet1/1"], "0");
}

TEST_F(DcbConsistencyTest, ServedOnPrometheusAndGnmi) {
  f_.set("host01", SmallFabric::pfcState(kNetdev, "enabled-priorities"), 0);
  f_.tick();
  const std::string text = northbound::prometheus::ExpositionWriter().build(f_.store());
  const std::string leaf = "{target=\"leaf01\",interface=\"Ethernet1/1\"}";
  EXPECT_NE(text.find("\nrdmagw_fabric_dcb_consistency_code" + leaf + " 1\n"), std::string::npos) << text;
  EXPECT_NE(text.find("\nrdmagw_fabric_dcb_consistency_code{target=\"leaf01\",interface=\"Ethernet1/2\"} 0\n"),
            std::string::npos);
  EXPECT_NE(text.find("\nrdmagw_fabric_dcb_mismatches_info{target=\"leaf01\",interface=\"Ethernet1/1\",mismatches="
                      "\"pfc priorities: leaf01:Ethernet1/1 {3} vs host01:ens1f0np0 {}\"} 1\n"),
            std::string::npos);
  EXPECT_NE(text.find("\nrdmagw_fabric_dcb_peer_mtu_bytes{target=\"host01\",interface=\"ens1f0np0\",rack=\"r1\"} 9216\n"),
            std::string::npos);

  const gnmi::GetRequest req = testing::getRequest("leaf01", "/fabric/interfaces/interface[name=Ethernet1/1]/dcb/state");
  gnmi::GetResponse r;
  ASSERT_TRUE(northbound::gnmi::answerGet(f_.store(), req, &r).ok());
  std::map<std::string, std::string> got;
  for (const auto& n : r.notification()) {
    for (const auto& u : n.update()) {
      const std::string name = u.path().elem(u.path().elem_size() - 1).name();
      got[name] = u.val().has_string_val() ? u.val().string_val() : std::to_string(u.val().uint_val());
    }
  }
  EXPECT_EQ(got["consistency"], "mismatch");
  EXPECT_EQ(got["consistency-code"], "1");
  EXPECT_EQ(got["mismatches"], "pfc priorities: leaf01:Ethernet1/1 {3} vs host01:ens1f0np0 {}");
  EXPECT_EQ(got["mtu"], "9216");
}

TEST(DcbPriorityListTest, CommaSeparatedAscending) {
  EXPECT_EQ(priorityList(0), "");
  EXPECT_EQ(priorityList(0x08), "3");
  EXPECT_EQ(priorityList(0x98), "3,4,7");
}

}  // namespace
}  // namespace rdmagw::analytics
