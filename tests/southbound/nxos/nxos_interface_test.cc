#include <gtest/gtest.h>

#include "tests/southbound/nxos/nxos_test_util.h"

namespace rdmagw::testing {
using namespace rdmagw::southbound::nxos;  // the helpers speak the vocabulary of the code they test
namespace {

TEST(NxosInterfaceTest, GenieGolden1) {
  Parsed p = parse("nxos-interface", readFixture("nxos_show_interface__genie_golden1.txt"));
  ASSERT_TRUE(p.status.isOk());
  EXPECT_TRUE(p.batch.errors.empty());
  EXPECT_EQ(u64At(p.batch, ifc("Ethernet1/1", "in-multicast-pkts")), 260u);
  EXPECT_EQ(u64At(p.batch, ifc("Ethernet1/1", "in-pkts")), 260u);
  EXPECT_EQ(u64At(p.batch, ifc("Ethernet1/1", "in-octets")), 35017u);
  EXPECT_EQ(u64At(p.batch, eth("Ethernet1/1", "in-mac-pause-frames")), 0u);
  EXPECT_EQ(u64At(p.batch, eth("Ethernet2/1", "out-mac-pause-frames")), 0u);
  EXPECT_EQ(u64At(p.batch, ifc("Ethernet2/2", "out-discards")), 0u);
  // mgmt0's single-spaced Rx/Tx lines (genie's expected dict mixes Tx into Rx
  // here; these are the numbers the text prints).
  EXPECT_EQ(u64At(p.batch, ifc("mgmt0", "in-pkts")), 2u);
  EXPECT_EQ(u64At(p.batch, ifc("mgmt0", "in-multicast-pkts")), 2u);
  EXPECT_EQ(u64At(p.batch, ifc("mgmt0", "in-octets")), 168u);
  EXPECT_EQ(u64At(p.batch, ifc("mgmt0", "out-pkts")), 22u);
  EXPECT_EQ(u64At(p.batch, ifc("mgmt0", "out-broadcast-pkts")), 4u);
  EXPECT_EQ(u64At(p.batch, ifc("mgmt0", "out-octets")), 4726u);
  // Subinterfaces without counters and the truncated nve1 emit nothing.
  EXPECT_FALSE(findUpdate(p.batch, ifc("Ethernet2/1.10", "in-pkts")));
  EXPECT_FALSE(findUpdate(p.batch, ifc("nve1", "in-pkts")));
}

TEST(NxosInterfaceTest, N93180TextGolden) {
  Parsed p = parse("nxos-interface", readFixture("nxos_n93180_7.0.3.I7.2_show_interface__napalm.txt"));
  ASSERT_TRUE(p.status.isOk());
  EXPECT_TRUE(p.batch.errors.empty());
  EXPECT_EQ(u64At(p.batch, ifc("Ethernet1/2", "in-unicast-pkts")), 214967910u);
  EXPECT_EQ(u64At(p.batch, ifc("Ethernet1/2", "in-pkts")), 216054646u);
  EXPECT_EQ(u64At(p.batch, ifc("Ethernet1/2", "in-octets")), 257944443173u);
  EXPECT_EQ(u64At(p.batch, ifc("Ethernet1/2", "out-discards")), 21049u);
  EXPECT_EQ(u64At(p.batch, ifc("Ethernet1/3", "out-octets")), 30762979065u);
  EXPECT_EQ(u64At(p.batch, ifc("Ethernet1/3", "out-discards")), 21033u);
  EXPECT_EQ(u64At(p.batch, ifc("mgmt0", "in-broadcast-pkts")), 11588u);
  EXPECT_EQ(u64At(p.batch, ifc("mgmt0", "out-octets")), 47081472u);
}

// A loopback's short counter form beside an Ethernet RX/TX block: each to
// the same leaves, neither disturbing the other.
TEST(NxosInterfaceTest, LoopbackShortCountersBesideEthernet) {
  constexpr std::string_view kText = R"nx(Ethernet1/1 is up
admin state is up, Dedicated Interface
  Hardware: 100000 Ethernet, address: 0000.0000.0001 (bia 0000.0000.0001)
  MTU 9216 bytes, BW 100000000 Kbit, DLY 10 usec
  174 interface resets
  30 seconds input rate 25280136 bits/sec, 419 packets/sec
  RX
    100 unicast packets  5 multicast packets  1 broadcast packets
    106 input packets  20000 bytes
    2 input error  0 short frame  0 overrun   0 underrun  0 ignored
  TX
    70 unicast packets  3 multicast packets  0 broadcast packets
    73 output packets  9000 bytes
    1 output error  0 collision  0 deferred  0 late collision

loopback0 is up
admin state is up,
  Hardware: Loopback
  Internet Address is 10.0.0.1/32
  MTU 1500 bytes, BW 8000000 Kbit, DLY 5000 usec
  reliability 255/255, txload 1/255, rxload 1/255
  Encapsulation LOOPBACK, medium is broadcast
  Auto-mdix is turned off
    12 packets input 1104 bytes
    4 multicast frames 0 compressed
    3 input errors 0 frame 0 overrun 0 fifo
    9 packets output 864 bytes 0 underruns
    7 output errors 0 collisions 0 fifo
    0 out_carrier_errors
)nx";
  Parsed p = parse("nxos-interface", kText);
  ASSERT_TRUE(p.status.isOk()) << p.status.message();
  EXPECT_TRUE(p.batch.errors.empty());
  EXPECT_EQ(u64At(p.batch, ifc("loopback0", "in-pkts")), 12u);
  EXPECT_EQ(u64At(p.batch, ifc("loopback0", "in-octets")), 1104u);
  EXPECT_EQ(u64At(p.batch, ifc("loopback0", "in-multicast-pkts")), 4u);
  EXPECT_EQ(u64At(p.batch, ifc("loopback0", "in-errors")), 3u);
  EXPECT_EQ(u64At(p.batch, ifc("loopback0", "out-pkts")), 9u);
  EXPECT_EQ(u64At(p.batch, ifc("loopback0", "out-octets")), 864u);
  EXPECT_EQ(u64At(p.batch, ifc("loopback0", "out-errors")), 7u);
  EXPECT_FALSE(findUpdate(p.batch, ifc("loopback0", "in-unicast-pkts")));
  EXPECT_EQ(u64At(p.batch, ifc("Ethernet1/1", "in-pkts")), 106u);
  EXPECT_EQ(u64At(p.batch, ifc("Ethernet1/1", "in-octets")), 20000u);
  EXPECT_EQ(u64At(p.batch, ifc("Ethernet1/1", "in-multicast-pkts")), 5u);
  EXPECT_EQ(u64At(p.batch, ifc("Ethernet1/1", "in-errors")), 2u);
  EXPECT_EQ(u64At(p.batch, ifc("Ethernet1/1", "out-pkts")), 73u);
  EXPECT_EQ(u64At(p.batch, ifc("Ethernet1/1", "out-octets")), 9000u);
  EXPECT_EQ(u64At(p.batch, ifc("Ethernet1/1", "out-errors")), 1u);
  EXPECT_EQ(u64At(p.batch, ifc("Ethernet1/1", "in-unicast-pkts")), 100u);
}

// The recorded N93180's loopback1 (the fixture's only loopback that counted).
TEST(NxosInterfaceTest, RecordedLoopbackCounters) {
  Parsed p = parse("nxos-interface", readFixture("nxos_n93180_7.0.3.I7.2_show_interface__napalm.txt"));
  ASSERT_TRUE(p.status.isOk());
  EXPECT_EQ(u64At(p.batch, ifc("loopback1", "in-pkts")), 12173u);
  EXPECT_EQ(u64At(p.batch, ifc("loopback1", "in-octets")), 635270u);
  EXPECT_EQ(u64At(p.batch, ifc("loopback1", "in-multicast-pkts")), 3878u);
  EXPECT_EQ(u64At(p.batch, ifc("loopback1", "out-pkts")), 0u);
  EXPECT_EQ(u64At(p.batch, ifc("loopback0", "in-pkts")), 0u);
}

TEST(NxosInterfaceTest, N5kRxTxBlockNamedByPrompt) {
  Parsed p = parse("nxos-interface", readFixture("nxos_n5k_show_interface_eth_rx_tx_block__oswalt_blog.txt"));
  ASSERT_TRUE(p.status.isOk());
  EXPECT_EQ(u64At(p.batch, ifc("Ethernet1/47", "in-pkts")), 1080442447u);
  EXPECT_EQ(u64At(p.batch, ifc("Ethernet1/47", "out-octets")), 1186046939577u);
  EXPECT_EQ(u64At(p.batch, eth("Ethernet1/47", "out-mac-pause-frames")), 0u);
}

TEST(NxosInterfaceTest, PartsSummedWhenNoTotal) {
  constexpr std::string_view kText = R"nx(Ethernet1/9 is up
  RX
    10 unicast packets  20 multicast packets  3 broadcast packets
    4,096 bytes
    7 Rx pause
  TX
    1 unicast packets  2 multicast packets  99999999999999999999 broadcast packets
    8 Tx pause
)nx";
  Parsed p = parse("nxos-interface", kText);
  ASSERT_TRUE(p.status.isOk());
  EXPECT_EQ(u64At(p.batch, ifc("Ethernet1/9", "in-pkts")), 33u);
  EXPECT_EQ(u64At(p.batch, ifc("Ethernet1/9", "in-octets")), 4096u);
  EXPECT_EQ(u64At(p.batch, eth("Ethernet1/9", "in-mac-pause-frames")), 7u);
  EXPECT_EQ(u64At(p.batch, eth("Ethernet1/9", "out-mac-pause-frames")), 8u);
  EXPECT_FALSE(findUpdate(p.batch, ifc("Ethernet1/9", "out-broadcast-pkts")));
  EXPECT_FALSE(findUpdate(p.batch, ifc("Ethernet1/9", "out-pkts")));  // a part unreadable
  EXPECT_TRUE(anyErrorContains(p.batch, "beyond 64 bits"));
}

TEST(NxosInterfaceJsonTest, N9000Golden) {
  Parsed p = parse("nxos-interface", readFixture("nxos_n9000_show_interface_json__napalm_N9000.json"));
  ASSERT_TRUE(p.status.isOk()) << p.status.toString();
  EXPECT_TRUE(p.batch.errors.empty());
  EXPECT_EQ(u64At(p.batch, ifc("mgmt0", "in-pkts")), 704u);
  EXPECT_EQ(u64At(p.batch, ifc("mgmt0", "in-unicast-pkts")), 703u);
  EXPECT_EQ(u64At(p.batch, ifc("mgmt0", "out-octets")), 723181u);
  EXPECT_EQ(u64At(p.batch, ifc("Ethernet2/1", "in-pkts")), 0u);
  EXPECT_EQ(u64At(p.batch, eth("Ethernet2/1", "in-mac-pause-frames")), 0u);
}

TEST(NxosInterfaceJsonTest, N3548Golden) {
  Parsed p = parse("nxos-interface-json", readFixture("nxos_n3548_show_interface_json__napalm.json"));
  ASSERT_TRUE(p.status.isOk());
  EXPECT_TRUE(p.batch.errors.empty());
  EXPECT_EQ(u64At(p.batch, ifc("mgmt0", "in-octets")), 3592332845u);
  EXPECT_EQ(u64At(p.batch, ifc("Ethernet1/4", "in-unicast-pkts")), 313829248u);
  EXPECT_EQ(u64At(p.batch, ifc("Ethernet1/4", "in-octets")), 94484566849u);
  EXPECT_EQ(u64At(p.batch, ifc("Ethernet1/4", "out-multicast-pkts")), 491892848u);
  EXPECT_EQ(u64At(p.batch, ifc("port-channel69", "out-octets")), 21132967857368u);
  EXPECT_FALSE(findUpdate(p.batch, ifc("Vlan1", "in-pkts")));
}

TEST(NxosInterfaceJsonTest, StateAndDescriptionForIfMib) {
  Parsed p = parse("nxos-interface-json", readFixture("nxos_n3548_show_interface_json__napalm.json"));
  ASSERT_TRUE(p.status.isOk());
  const std::string state = "/interfaces/interface[name=Ethernet1/5]/state/";
  const Update* desc = findUpdate(p.batch, state + "description");
  ASSERT_NE(desc, nullptr);
  EXPECT_EQ(std::get<std::string>(desc->value), "SIL-ULLNK-202_SF_P1");
  const Update* up = findUpdate(p.batch, state + "oper-status");
  ASSERT_NE(up, nullptr);
  EXPECT_EQ(std::get<std::string>(up->value), "UP");
  // "state": "down" (XCVR not inserted), and no "desc" key: no description.
  const Update* down = findUpdate(p.batch, "/interfaces/interface[name=Ethernet1/1]/state/oper-status");
  ASSERT_NE(down, nullptr);
  EXPECT_EQ(std::get<std::string>(down->value), "DOWN");
  EXPECT_EQ(findUpdate(p.batch, "/interfaces/interface[name=Ethernet1/1]/state/description"), nullptr);
  // The counters-only tables carry neither.
  Parsed counters = parse("nxos-interface-json", readFixture("nxos_n3548_show_interface_counters_detailed_json__napalm.json"));
  for (const Update& u : counters.batch.updates) EXPECT_EQ(u.path.find("/state/oper-status"), std::string::npos) << u.path;
}

TEST(NxosInterfaceJsonTest, N3548CountersDetailedGolden) {
  // Numbers agree with napalm's get_interfaces_counters() expected result.
  Parsed p = parse("nxos-interface-json", readFixture("nxos_n3548_show_interface_counters_detailed_json__napalm.json"));
  ASSERT_TRUE(p.status.isOk());
  EXPECT_EQ(u64At(p.batch, ifc("mgmt0", "in-octets")), 3567836622u);
  EXPECT_EQ(u64At(p.batch, ifc("mgmt0", "out-octets")), 3679872971u);
  EXPECT_EQ(u64At(p.batch, ifc("mgmt0", "in-multicast-pkts")), 6075188u);
  EXPECT_EQ(u64At(p.batch, ifc("Ethernet1/2", "out-octets")), 5399880000u);
  EXPECT_EQ(u64At(p.batch, ifc("Ethernet1/2", "out-unicast-pkts")), 45219243u);
  EXPECT_EQ(u64At(p.batch, ifc("Ethernet1/2", "out-broadcast-pkts")), 381158u);
  EXPECT_FALSE(findUpdate(p.batch, ifc("Ethernet1/2", "in-octets")));  // absent, not 0
  EXPECT_EQ(u64At(p.batch, ifc("Ethernet1/4", "in-pkts")), 337789336u);
}

TEST(NxosInterfaceJsonTest, CountersJsonRxTxTables) {
  constexpr std::string_view kJson = R"nx({"TABLE_rx_counters": {"ROW_rx_counters": [
    {"interface_rx": "Eth1/1", "eth_inbytes": "100", "eth_inucast": "1", "eth_inmcast": "2", "eth_inbcast": "3"}]},
   "TABLE_tx_counters": {"ROW_tx_counters": {"interface_tx": "Eth1/1", "eth_outbytes": 200, "eth_outucast": "18446744073709551616"}}})nx";
  Parsed p = parse("nxos-interface-counters", kJson);
  ASSERT_TRUE(p.status.isOk());
  EXPECT_EQ(u64At(p.batch, ifc("Ethernet1/1", "in-pkts")), 6u);
  EXPECT_EQ(u64At(p.batch, ifc("Ethernet1/1", "out-octets")), 200u);
  EXPECT_FALSE(findUpdate(p.batch, ifc("Ethernet1/1", "out-unicast-pkts")));
  EXPECT_TRUE(anyErrorContains(p.batch, "beyond 64 bits"));
}

TEST(NxosInterfaceCountersTest, GenieGolden) {
  Parsed p = parse("nxos-interface-counters", readFixture("nxos_show_interface_counters__genie_golden1.txt"));
  ASSERT_TRUE(p.status.isOk());
  EXPECT_TRUE(p.batch.errors.empty());
  const std::string e = "Ethernet1/33";  // printed Eth1/33
  EXPECT_EQ(u64At(p.batch, ifc(e, "in-octets")), 1162614u);
  EXPECT_EQ(u64At(p.batch, ifc(e, "in-unicast-pkts")), 14178u);
  EXPECT_EQ(u64At(p.batch, ifc(e, "in-multicast-pkts")), 64u);
  EXPECT_EQ(u64At(p.batch, ifc(e, "in-broadcast-pkts")), 0u);
  EXPECT_EQ(u64At(p.batch, ifc(e, "out-octets")), 12199396u);
  EXPECT_EQ(u64At(p.batch, ifc(e, "out-unicast-pkts")), 23366u);
  EXPECT_EQ(u64At(p.batch, ifc(e, "out-multicast-pkts")), 65u);
  EXPECT_EQ(u64At(p.batch, ifc(e, "out-broadcast-pkts")), 1u);
  EXPECT_EQ(u64At(p.batch, ifc(e, "in-pkts")), 14178u + 64u + 0u);   // sum of parts
  EXPECT_EQ(u64At(p.batch, ifc(e, "out-pkts")), 23366u + 65u + 1u);
}

TEST(NxosInterfaceCountersTest, ErrorsGenieGolden) {
  Parsed p = parse("nxos-interface-counters-errors", readFixture("nxos_show_interface_counters_errors__genie_golden.txt"));
  ASSERT_TRUE(p.status.isOk());
  EXPECT_TRUE(p.batch.errors.empty());
  EXPECT_EQ(u64At(p.batch, ifc("Ethernet1/13", "out-discards")), 14500u);
  EXPECT_EQ(u64At(p.batch, ifc("Ethernet1/23", "out-discards")), 20340u);
  EXPECT_EQ(u64At(p.batch, ifc("Ethernet1/1", "in-errors")), 0u);
  EXPECT_EQ(u64At(p.batch, ifc("Ethernet1/24", "in-discards")), 0u);
  EXPECT_EQ(u64At(p.batch, ifc("Ethernet1/24", "out-errors")), 0u);
  // mgmt0 prints "--": no such counter, not zero.
  EXPECT_FALSE(findUpdate(p.batch, ifc("mgmt0", "out-errors")));
  EXPECT_FALSE(findUpdate(p.batch, ifc("mgmt0", "in-discards")));
}

TEST(NxosInterfaceCountersTest, ExtraAndReorderedColumns) {
  constexpr std::string_view kText = R"nx(
--------------------------------------------------------------------------------
Port          OutDiscards  NewCol   Rcv-Err
--------------------------------------------------------------------------------
Eth1/1                 5      x9       7
Eth1/2                 6               8
Eth1/3                 1,234  0        12,34
)nx";
  Parsed p = parse("nxos-interface-counters-errors", kText);
  EXPECT_EQ(p.status.code(), Status::Code::kCorrupt);  // every row refused: nothing usable
  EXPECT_EQ(u64At(p.batch, ifc("Ethernet1/1", "out-discards")), std::nullopt);  // x9: misaligned
  EXPECT_FALSE(findUpdate(p.batch, ifc("Ethernet1/2", "in-errors")));          // 3 cells under 4
  EXPECT_FALSE(findUpdate(p.batch, ifc("Ethernet1/3", "out-discards")));       // bad grouping: row refused
  EXPECT_EQ(p.batch.errors.size(), 3u);
  constexpr std::string_view kGood = R"nx(
Port          Rcv-Err   OutDiscards
Eth1/1/3      1,234,567 5
ii1/1/1       0         9
)nx";
  Parsed q = parse("nxos-interface-counters-errors", kGood);
  EXPECT_EQ(u64At(q.batch, ifc("Ethernet1/1/3", "in-errors")), 1234567u);
  EXPECT_EQ(u64At(q.batch, ifc("ii1/1/1", "out-discards")), 9u);
}

TEST(NxosInterfaceCountersTest, BannersAndEmpty) {
  for (std::string_view fmt : {"nxos-interface", "nxos-interface-json", "nxos-interface-counters",
                               "nxos-interface-counters-errors", "nxos-queuing", "nxos-pfc-detail"}) {
    Parsed p = parse(fmt, "sw1# show interface counters errrors\n% Invalid parameter detected at '^' marker.\n");
    EXPECT_EQ(p.status.code(), Status::Code::kInvalidArgument) << fmt;
    EXPECT_TRUE(p.batch.updates.empty()) << fmt;
    EXPECT_FALSE(parse(fmt, "").status.isOk()) << fmt;
  }
}

}  // namespace
}  // namespace rdmagw::testing
