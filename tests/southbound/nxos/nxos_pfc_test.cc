#include <gtest/gtest.h>

#include "tests/southbound/nxos/nxos_test_util.h"

namespace rdmagw::testing {
using namespace rdmagw::southbound::nxos;  // the helpers speak the vocabulary of the code they test
namespace {

TEST(NxosFormatsTest, AllFormatsListedWithHelp) {
  for (std::string_view name :
       {"nxos-pfc", "nxos-pfc-detail", "nxos-queuing", "nxos-queuing-json", "nxos-interface",
        "nxos-interface-json", "nxos-interface-counters", "nxos-interface-counters-errors", "nxos-network-qos"}) {
    const ParserFormat* f = format(name);
    ASSERT_NE(f, nullptr) << name;
    EXPECT_FALSE(f->help.empty()) << name;
    EXPECT_NE(f->parse, nullptr) << name;
  }
}

TEST(NxosPfcTest, N5kFixtureGolden) {
  Parsed p = parse("nxos-pfc", readFixture("nxos_n5k_show_interface_priority-flow-control__oswalt_blog.txt"));
  ASSERT_TRUE(p.status.isOk()) << p.status.toString();
  EXPECT_TRUE(p.batch.errors.empty()) << p.batch.errors.front();
  EXPECT_EQ(p.batch.updates.size(), 4u * 5u);
  EXPECT_EQ(strAt(p.batch, pfcState("Ethernet1/47", "admin-mode")), "auto");
  EXPECT_EQ(strAt(p.batch, pfcState("Ethernet1/47", "oper-mode")), "off");
  EXPECT_EQ(u64At(p.batch, pfcState("Ethernet1/47", "enabled-priorities")), 0u);
  EXPECT_EQ(u64At(p.batch, pfcCtr("Ethernet1/47", "in-pfc-frames")), 7316u);
  EXPECT_EQ(u64At(p.batch, pfcCtr("Ethernet1/47", "out-pfc-frames")), 762946u);
  EXPECT_EQ(u64At(p.batch, pfcCtr("Ethernet1/48", "in-pfc-frames")), 7428u);
  EXPECT_EQ(u64At(p.batch, pfcCtr("Ethernet1/48", "out-pfc-frames")), 761362u);
  EXPECT_EQ(u64At(p.batch, pfcCtr("Ethernet4/16", "out-pfc-frames")), 0u);
}

TEST(NxosPfcTest, UcsFiFixtureGoldenWithVlBitmap) {
  Parsed p = parse("nxos-pfc", readFixture("nxos_ucsfi_show_interface_priority-flow-control__ucs_traffic_monitor_v2020.txt"));
  ASSERT_TRUE(p.status.isOk());
  EXPECT_TRUE(p.batch.errors.empty());
  // "On  (8)": hex 0x08, bit 3 = priority 3 (FCoE).
  EXPECT_EQ(strAt(p.batch, pfcState("Ethernet1/1/1", "oper-mode")), "on");
  EXPECT_EQ(u64At(p.batch, pfcState("Ethernet1/1/1", "enabled-priorities")), 0x08u);
  EXPECT_EQ(strAt(p.batch, pfcState("Ethernet1/1/2", "oper-mode")), "off");
  EXPECT_EQ(u64At(p.batch, pfcCtr("Ethernet1/2", "in-pfc-frames")), 2u);
  EXPECT_EQ(u64At(p.batch, pfcCtr("Ethernet1/3", "in-pfc-frames")), 2u);
  EXPECT_EQ(strAt(p.batch, pfcState("Vethernet9547", "admin-mode")), "auto");
}

// Layout of the N9K variant (internal ii ports, Br-Ethernet breakouts, short
// names): synthetic rows, the header as NX-OS prints it.
constexpr std::string_view kIiAndBreakouts = R"nx(switch# show interface priority-flow-control
slot  1
=======

============================================================
Port               Mode Oper(VL bmap)  RxPPP      TxPPP
============================================================

Ethernet1/1        On   On   (28)      12         1,234,567
ii1/1/1            Auto On   (8)       5          6
ii1/1/2            Auto Off            0          0
Br-Ethernet1/49/2  Auto On   (20)      77         88
Eth1/50            Auto Off            3          4
switch#
)nx";

TEST(NxosPfcTest, InternalPortsBreakoutsAndShortNames) {
  Parsed p = parse("nxos-pfc", kIiAndBreakouts);
  ASSERT_TRUE(p.status.isOk());
  EXPECT_TRUE(p.batch.errors.empty()) << p.batch.errors.front();
  EXPECT_EQ(u64At(p.batch, pfcState("Ethernet1/1", "enabled-priorities")), 0x28u);  // priorities 3 and 5
  EXPECT_EQ(u64At(p.batch, pfcCtr("Ethernet1/1", "out-pfc-frames")), 1234567u);
  EXPECT_EQ(strAt(p.batch, pfcState("Ethernet1/1", "admin-mode")), "on");
  EXPECT_EQ(u64At(p.batch, pfcState("ii1/1/1", "enabled-priorities")), 8u);
  EXPECT_EQ(u64At(p.batch, pfcCtr("ii1/1/1", "in-pfc-frames")), 5u);
  EXPECT_EQ(u64At(p.batch, pfcCtr("ii1/1/1", "out-pfc-frames")), 6u);
  EXPECT_EQ(strAt(p.batch, pfcState("ii1/1/2", "oper-mode")), "off");
  // Br-Ethernet1/49/2 is the breakout port Ethernet1/49/2 of other commands.
  EXPECT_EQ(u64At(p.batch, pfcState("Ethernet1/49/2", "enabled-priorities")), 0x20u);
  EXPECT_EQ(u64At(p.batch, pfcCtr("Ethernet1/49/2", "in-pfc-frames")), 77u);
  EXPECT_EQ(u64At(p.batch, pfcCtr("Ethernet1/50", "out-pfc-frames")), 4u);
}

TEST(NxosPfcTest, ColumnsFoundByHeaderName) {
  constexpr std::string_view kReordered = R"nx(
Port               TxPPP      Extra  Mode Oper(VL bmap)  RxPPP
Ethernet1/7        11         x      Auto On  (8)        22
)nx";
  Parsed p = parse("nxos-pfc", kReordered);
  ASSERT_TRUE(p.status.isOk());
  EXPECT_EQ(u64At(p.batch, pfcCtr("Ethernet1/7", "out-pfc-frames")), 11u);
  EXPECT_EQ(u64At(p.batch, pfcCtr("Ethernet1/7", "in-pfc-frames")), 22u);
  EXPECT_EQ(u64At(p.batch, pfcState("Ethernet1/7", "enabled-priorities")), 8u);
}

TEST(NxosPfcTest, MisalignedRowsAreRefusedNotGuessed) {
  constexpr std::string_view kBad = R"nx(
Port               Mode Oper(VL bmap)  RxPPP      TxPPP
Ethernet1/1        Auto Off           7316
Ethernet1/2        Auto Off           abc        5
Ethernet1/3        Auto Off           1          2
)nx";
  Parsed p = parse("nxos-pfc", kBad);
  ASSERT_TRUE(p.status.isOk());
  EXPECT_FALSE(findUpdate(p.batch, pfcCtr("Ethernet1/1", "in-pfc-frames")));
  EXPECT_FALSE(findUpdate(p.batch, pfcState("Ethernet1/1", "admin-mode")));
  EXPECT_FALSE(findUpdate(p.batch, pfcCtr("Ethernet1/2", "out-pfc-frames")));
  EXPECT_EQ(u64At(p.batch, pfcCtr("Ethernet1/3", "out-pfc-frames")), 2u);
  EXPECT_EQ(p.batch.errors.size(), 2u);
}

TEST(NxosPfcTest, OverflowIsAnErrorLineAndNoValue) {
  constexpr std::string_view kBig = R"nx(
Port               Mode Oper(VL bmap)  RxPPP                  TxPPP
Ethernet1/1        Auto Off           18446744073709551616   3
)nx";
  Parsed p = parse("nxos-pfc", kBig);
  ASSERT_TRUE(p.status.isOk());
  EXPECT_FALSE(findUpdate(p.batch, pfcCtr("Ethernet1/1", "in-pfc-frames")));
  EXPECT_EQ(u64At(p.batch, pfcCtr("Ethernet1/1", "out-pfc-frames")), 3u);
  EXPECT_TRUE(anyErrorContains(p.batch, "beyond 64 bits"));
}

TEST(NxosPfcTest, ErrorBannerIsAStatus) {
  Parsed p = parse("nxos-pfc", "switch# show interface priority-flow-contrl\n"
                               "                                    ^\n"
                               "% Invalid command at '^' marker.\n");
  EXPECT_FALSE(p.status.isOk());
  EXPECT_NE(p.status.message().find("Invalid command"), std::string::npos);
  EXPECT_TRUE(p.batch.updates.empty());
  Parsed q = parse("nxos-pfc", "% Invalid parameter detected\n");
  EXPECT_FALSE(q.status.isOk());
  EXPECT_TRUE(parse("nxos-pfc", "").status.code() == Status::Code::kCorrupt);
}

TEST(NxosPfcTest, JsonRows) {
  constexpr std::string_view kJson = R"nx(switch# show interface priority-flow-control | json
{"TABLE_module": {"ROW_module": {"TABLE_pfc_interface": {"ROW_pfc_interface": [
  {"if_name_str": "Ethernet1/51", "admin": "On", "oper": "On (20)", "rx-stats": "0", "tx-stats": "150"},
  {"if_name_str": "ii1/1/3", "admin": "Auto", "oper": "Off", "rx-stats": 4, "tx-stats": 5}
]}}}}
)nx";
  Parsed p = parse("nxos-pfc", kJson);
  ASSERT_TRUE(p.status.isOk()) << p.status.toString();
  EXPECT_EQ(u64At(p.batch, pfcState("Ethernet1/51", "enabled-priorities")), 0x20u);
  EXPECT_EQ(u64At(p.batch, pfcCtr("Ethernet1/51", "out-pfc-frames")), 150u);
  EXPECT_EQ(strAt(p.batch, pfcState("ii1/1/3", "admin-mode")), "auto");
  EXPECT_EQ(u64At(p.batch, pfcCtr("ii1/1/3", "in-pfc-frames")), 4u);
}

TEST(NxosPfcTest, TruncatedJsonKeepsCompleteRows) {
  constexpr std::string_view kCut = R"nx({"TABLE_module": {"ROW_module": {"TABLE_pfc_interface": {"ROW_pfc_interface": [
  {"if_name_str": "Ethernet1/1", "admin": "On", "oper": "On (8)", "rx-stats": "1", "tx-stats": "2"},
  {"if_name_str": "Ethernet1/2", "admin": "On", "oper": "On (8)", "rx-stats": "3", "tx-stats": 12)nx";
  Parsed p = parse("nxos-pfc", kCut);
  ASSERT_TRUE(p.status.isOk());
  EXPECT_EQ(u64At(p.batch, pfcCtr("Ethernet1/1", "out-pfc-frames")), 2u);
  EXPECT_EQ(u64At(p.batch, pfcCtr("Ethernet1/2", "in-pfc-frames")), 3u);
  EXPECT_FALSE(findUpdate(p.batch, pfcCtr("Ethernet1/2", "out-pfc-frames")));  // cut number
  EXPECT_TRUE(anyErrorContains(p.batch, "JSON damaged"));
  Parsed q = parse("nxos-pfc", "{\"TABLE_module\": [[[");
  EXPECT_FALSE(q.status.isOk());
}

// The collapsed N93180FX2 article: detail blocks for Ethernet1/51 and the
// start of Ethernet1/52, plus the PFC Statistics of `show queuing`.
TEST(NxosPfcDetailTest, CollapsedN93180Fx2Golden) {
  Parsed p = parse("nxos-pfc-detail", readFixture("nxos_n93180fx2_queuing_pfc_detail_COLLAPSED_NEWLINES__zartbot_wechat.txt"));
  ASSERT_TRUE(p.status.isOk());
  EXPECT_TRUE(p.batch.errors.empty()) << p.batch.errors.front();
  const std::string e51 = "Ethernet1/51", e52 = "Ethernet1/52";
  EXPECT_EQ(strAt(p.batch, pfcState(e51, "admin-mode")), "on");
  EXPECT_EQ(strAt(p.batch, pfcState(e51, "oper-mode")), "on");
  EXPECT_EQ(u64At(p.batch, pfcState(e51, "enabled-priorities")), 0x20u);  // pfc-cos 5
  EXPECT_EQ(u64At(p.batch, pfcCtr(e51, "out-pfc-frames")), 150u);
  EXPECT_EQ(u64At(p.batch, pfcCtr(e51, "in-pfc-frames")), 0u);
  EXPECT_EQ(u64At(p.batch, prio(e51, 5, "out-pause-frames")), 150u);
  EXPECT_EQ(u64At(p.batch, prio(e51, 4, "out-pause-frames")), 0u);
  EXPECT_EQ(u64At(p.batch, prio(e51, 7, "in-pause-frames")), 0u);
  EXPECT_EQ(u64At(p.batch, pfcCtr(e52, "out-pfc-frames")), 143u);
  EXPECT_EQ(u64At(p.batch, prio(e52, 5, "in-pause-frames")), 0u);
  // The stored copy is cut before Ethernet1/52's Tx row.
  EXPECT_FALSE(findUpdate(p.batch, prio(e52, 5, "out-pause-frames")));
}

TEST(NxosPfcDetailTest, NormalLayoutAndShortRow) {
  constexpr std::string_view kDetail = R"nx(
Ethernet1/1
    Admin Mode: Auto
    Oper Mode: On
    VL bitmap: (8)
    Total Rx PFC Frames: 1,000
    Total Tx PFC Frames: 20
    ---------------------------------------------------------------------
        |  Priority0  |  Priority1  |  Priority2  |  Priority3  |  Priority4  |  Priority5  |  Priority6  |  Priority7  |
    ---------------------------------------------------------------------
    Rx  |0            |0            |0            |1000         |0            |0            |0            |0
    ---------------------------------------------------------------------
    Tx  |0            |0            |0            |20           |0            |0
ii1/1/4
    Admin Mode: On
)nx";
  Parsed p = parse("nxos-pfc-detail", kDetail);
  ASSERT_TRUE(p.status.isOk());
  EXPECT_EQ(u64At(p.batch, prio("Ethernet1/1", 3, "in-pause-frames")), 1000u);
  EXPECT_EQ(u64At(p.batch, pfcCtr("Ethernet1/1", "in-pfc-frames")), 1000u);
  EXPECT_FALSE(findUpdate(p.batch, prio("Ethernet1/1", 3, "out-pause-frames")));  // 6 cells under 8
  EXPECT_EQ(p.batch.errors.size(), 1u);
  EXPECT_EQ(strAt(p.batch, pfcState("ii1/1/4", "admin-mode")), "on");
}

}  // namespace
}  // namespace rdmagw::testing
