// `show interface`, text and `| json`: the state leaves (oper and admin
// state, description, MTU, speed) and the CRC count of every interface of
// every recorded output, against golden lists. The goldens were written from
// the recordings by an independent reading (each header, `admin state is`,
// `Description:`, `MTU ... BW ... Kbit`, `full-duplex, 100 Gb/s` and `CRC`
// line; each eth_* / svi_* key) and checked line by line against them.

#include <gtest/gtest.h>

#include <fstream>
#include <set>
#include <sstream>

#include "tests/southbound/nxos/nxos_test_util.h"

namespace rdmagw::testing {
using namespace rdmagw::southbound::nxos;  // the helpers speak the vocabulary of the code they test
namespace {

bool isStateLeaf(const std::string& path) {
  for (std::string_view tail : {"/state/oper-status", "/state/admin-status", "/state/description", "/state/mtu",
                                "/state/speed", "/ethernet/state/port-speed", "/state/counters/in-fcs-errors"}) {
    if (path.ends_with(tail)) return true;
  }
  return false;
}

std::string stateLines(const PollBatch& b) {
  std::set<std::string> lines;
  for (const Update& u : b.updates) {
    if (!isStateLeaf(u.path)) continue;
    std::string v;
    if (const auto* s = std::get_if<std::string>(&u.value)) v = *s;
    if (const auto* n = std::get_if<uint64_t>(&u.value)) v = std::to_string(*n);
    EXPECT_TRUE(lines.insert(u.path + "=" + v).second) << "emitted twice: " << u.path;
  }
  std::string out;
  for (const std::string& l : lines) out += l + "\n";
  return out;
}

std::string golden(const std::string& name) {
  std::ifstream in(std::string(RDMAGW_SOURCE_DIR) + "/tests/southbound/nxos/golden/" + name);
  EXPECT_TRUE(in.good()) << "missing golden " << name;
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

struct Case {
  const char* format;
  const char* fixture;
};

class InterfaceStateGolden : public ::testing::TestWithParam<Case> {};

TEST_P(InterfaceStateGolden, EveryInterfaceLeafByLeaf) {
  const Case& c = GetParam();
  Parsed p = parse(c.format, readFixture(c.fixture));
  ASSERT_TRUE(p.status.isOk()) << p.status.toString();
  EXPECT_TRUE(p.batch.errors.empty()) << p.batch.errors.front();
  for (const Update& u : p.batch.updates) EXPECT_EQ(schemaProblem(u.path), "");
  EXPECT_EQ(stateLines(p.batch), golden(std::string(c.fixture) + ".state"));
}

INSTANTIATE_TEST_SUITE_P(
    Recordings, InterfaceStateGolden,
    ::testing::Values(Case{"nxos-interface", "nxos_show_interface__genie_golden1.txt"},
                    Case{"nxos-interface", "nxos_n93180_7.0.3.I7.2_show_interface__napalm.txt"},
                    Case{"nxos-interface", "nxos_n5k_show_interface_eth_rx_tx_block__oswalt_blog.txt"},
                    Case{"nxos-interface-json", "nxos_n9000_show_interface_json__napalm_N9000.json"},
                    Case{"nxos-interface-json", "nxos_n3548_show_interface_json__napalm.json"}),
    [](const ::testing::TestParamInfo<Case>& i) { return "Fixture" + std::to_string(i.index); });

// A few of the golden lines spelled out: what each kind of interface gives.
TEST(NxosInterfaceStateTest, EveryKindOfInterface) {
  Parsed p = parse("nxos-interface", readFixture("nxos_n93180_7.0.3.I7.2_show_interface__napalm.txt"));
  auto at = [&](const std::string& ifname, const std::string& leaf) { return ifname + ":" + [&] {
    const Update* u = findUpdate(p.batch, "/interfaces/interface[name=" + ifname + "]/" + leaf);
    if (u == nullptr) return std::string("absent");
    if (const auto* s = std::get_if<std::string>(&u->value)) return *s;
    return std::to_string(std::get<uint64_t>(u->value));
  }(); };
  // A 100G port: the speed word, its identity, MTU and both states.
  EXPECT_EQ(at("Ethernet1/53", "state/speed"), "Ethernet1/53:100000000000");
  EXPECT_EQ(at("Ethernet1/53", "ethernet/state/port-speed"), "Ethernet1/53:SPEED_100GB");
  // A port down without a transceiver: auto-speed, no rate.
  EXPECT_EQ(at("Ethernet1/1", "state/oper-status"), "Ethernet1/1:DOWN");
  EXPECT_EQ(at("Ethernet1/1", "state/admin-status"), "Ethernet1/1:DOWN");
  EXPECT_EQ(at("Ethernet1/1", "ethernet/state/port-speed"), "Ethernet1/1:SPEED_UNKNOWN");
  EXPECT_EQ(at("Ethernet1/1", "state/speed"), "Ethernet1/1:absent");
  // A port-channel: its BW (both members), not one member's speed word.
  EXPECT_EQ(at("port-channel1", "state/speed"), "port-channel1:200000000000");
  EXPECT_EQ(at("port-channel1", "state/mtu"), "port-channel1:9216");
  EXPECT_EQ(at("port-channel1", "ethernet/state/port-speed"), "port-channel1:absent");
  // An SVI whose Description line ran into the next one in the recording.
  EXPECT_EQ(at("Vlan333", "state/description"), "Vlan333:*** LIBRE ***");
  EXPECT_EQ(at("Vlan600", "state/mtu"), "Vlan600:9216");
  EXPECT_EQ(at("Vlan1", "state/admin-status"), "Vlan1:DOWN");
  EXPECT_EQ(at("Vlan1", "state/speed"), "Vlan1:1000000000");
  EXPECT_EQ(at("mgmt0", "state/description"), "mgmt0:*** LIBRE ***");
  EXPECT_EQ(at("Ethernet1/2", "state/counters/in-fcs-errors"), "Ethernet1/2:0");
}

TEST(NxosInterfaceStateTest, CrcAndSpeedFromTheText) {
  constexpr std::string_view kText = R"nx(Ethernet1/7 is up
admin state is up, Dedicated Interface
  Description: host07:mlx5_0
  MTU 9216 bytes, BW 25000000 Kbit, DLY 10 usec
  full-duplex, 25 Gb/s, media type is 25G
  RX
    0 runts  0 giants  17 CRC  0 no buffer
Ethernet1/8 is up
admin state is up, Dedicated Interface
  MTU 9216 bytes, BW 10000000 Kbit, DLY 10 usec
  full-duplex, 56 furlongs/s
  RX
    0 runts  0 giants  3 CRC/FCS  0 no buffer
)nx";
  Parsed p = parse("nxos-interface", kText);
  ASSERT_TRUE(p.status.isOk());
  const std::string e7 = "/interfaces/interface[name=Ethernet1/7]/";
  EXPECT_EQ(u64At(p.batch, e7 + "state/counters/in-fcs-errors"), 17u);
  EXPECT_EQ(u64At(p.batch, e7 + "state/speed"), 25'000'000'000u);
  EXPECT_EQ(strAt(p.batch, e7 + "ethernet/state/port-speed"), "SPEED_25GB");
  EXPECT_EQ(strAt(p.batch, e7 + "state/description"), "host07:mlx5_0");
  // A speed word that is not a speed: an error line, and the BW stands in.
  const std::string e8 = "/interfaces/interface[name=Ethernet1/8]/";
  EXPECT_EQ(u64At(p.batch, e8 + "state/counters/in-fcs-errors"), 3u);
  EXPECT_EQ(u64At(p.batch, e8 + "state/speed"), 10'000'000'000u);
  EXPECT_TRUE(anyErrorContains(p.batch, "56 furlongs/s"));
}

// nve1 prints unicast and multicast on one line per direction: the octets
// are their sum (not the multicast part alone).
TEST(NxosInterfaceStateTest, NveCountersSumUnicastAndMulticast) {
  Parsed p = parse("nxos-interface", readFixture("nxos_n93180_7.0.3.I7.2_show_interface__napalm.txt"));
  const std::string nve = "/interfaces/interface[name=nve1]/state/counters/";
  EXPECT_EQ(u64At(p.batch, nve + "in-octets"), 3306152263688u + 46942726883u);
  EXPECT_EQ(u64At(p.batch, nve + "in-unicast-pkts"), 3863244147u);
  EXPECT_EQ(u64At(p.batch, nve + "in-multicast-pkts"), 267502286u);
  EXPECT_EQ(u64At(p.batch, nve + "out-octets"), 11634881817661u + 4116604350u);
  EXPECT_EQ(u64At(p.batch, nve + "out-unicast-pkts"), 11017030135u);
}

}  // namespace
}  // namespace rdmagw::testing
