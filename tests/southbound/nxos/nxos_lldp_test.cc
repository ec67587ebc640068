// `show lldp neighbors detail` (nxos-lldp-neighbors), `| json` and text, on
// recorded outputs (tests/fixtures/nxos/SOURCES.md): every neighbour reaches
// the OpenConfig LLDP leaves under its normalized local port; TLVs the
// neighbour left out ("null", "not advertised") give no leaf; damage is an
// error line and the neighbours before it are kept.

#include <gtest/gtest.h>

#include "models/lldp.h"
#include "tests/southbound/nxos/nxos_test_util.h"

namespace rdmagw::testing {
using namespace rdmagw::southbound::nxos;  // the helpers speak the vocabulary of the code they test
namespace {

constexpr std::string_view kFormat = "nxos-lldp-neighbors";

std::string nbr(const std::string& port, const std::string& id, const std::string& leaf) {
  return lldp::neighborPath(port, id, leaf);
}

void expectAllSchemaRows(const PollBatch& b) {
  for (const Update& u : b.updates) EXPECT_EQ(schemaProblem(u.path), "") << u.path;
}

TEST(NxosLldpTest, RecordedJsonGivesEveryNeighbourUnderTheLongPortName) {
  const Parsed p = parse(kFormat, readFixture("nxos_show_lldp_neighbors_detail_json__harvest.json"));
  ASSERT_TRUE(p.status.isOk()) << p.status.message();
  EXPECT_TRUE(p.batch.errors.empty()) << p.batch.errors[0];
  expectAllSchemaRows(p.batch);
  EXPECT_EQ(strAt(p.batch, nbr("Ethernet1/9", "dead.beef.7fef", "system-name")), "na2a-mc1-nbg3");
  EXPECT_EQ(strAt(p.batch, nbr("Ethernet1/9", "dead.beef.7fef", "port-id")), "e1b");
  EXPECT_EQ(strAt(p.batch, nbr("Ethernet1/9", "dead.beef.7fef", "port-id-type")), "INTERFACE_NAME");
  EXPECT_EQ(strAt(p.batch, nbr("Ethernet1/9", "dead.beef.7fef", "chassis-id")), "dead.beef.7fef");
  EXPECT_EQ(strAt(p.batch, nbr("Ethernet1/10", "d039.eaba.f280", "system-name")), "na2b-mc1-nbg3");
  EXPECT_EQ(strAt(p.batch, nbr("mgmt0", "dead.beef.7fef", "port-id")), "e0M");
  // port_desc "null": the neighbour sent none.
  EXPECT_EQ(findUpdate(p.batch, nbr("Ethernet1/9", "dead.beef.7fef", "port-description")), nullptr);
  EXPECT_EQ(p.batch.updates.size(), 3u * 4u);
}

TEST(NxosLldpTest, RecordedTextGivesTheSameLeavesAsJsonWould) {
  const Parsed p = parse(kFormat, readFixture("nxos_show_lldp_neighbors_detail__genie_golden2.txt"));
  ASSERT_TRUE(p.status.isOk()) << p.status.message();
  EXPECT_TRUE(p.batch.errors.empty()) << p.batch.errors[0];
  expectAllSchemaRows(p.batch);
  // The ConnectX host: system name "null" is no name; a port ID with spaces is kept whole.
  const std::string host = "3935-5A43-4A37-39373638-35303036574C";
  EXPECT_EQ(findUpdate(p.batch, nbr("Ethernet1/14", host, "system-name")), nullptr);
  EXPECT_EQ(strAt(p.batch, nbr("Ethernet1/14", host, "port-id")), "PCI-E Slot 1, Port 2");
  EXPECT_EQ(strAt(p.batch, nbr("Ethernet1/14", host, "port-description")), "ConnectX-4 Lx, 25G/10G/1G SFP");
  // A multi-line System Description does not leak into the next keys.
  EXPECT_EQ(strAt(p.batch, nbr("Ethernet1/42", "7018.a7ff.7d64", "system-name")), "CAT2960-CED1");
  EXPECT_EQ(strAt(p.batch, nbr("Ethernet1/43", "7018.a7ff.7d64", "system-name")), "RCAT2960");
  EXPECT_EQ(strAt(p.batch, nbr("Ethernet1/46", "70ea.1aff.b6f6", "port-id")), "Ethernet1/46");
  EXPECT_EQ(strAt(p.batch, nbr("Ethernet1/54", "70ea.1aff.854d", "system-name")), "NX2-2");
  // Text has no port-id type: only a MAC-shaped port ID says what it is.
  EXPECT_EQ(findUpdate(p.batch, nbr("Ethernet1/46", "70ea.1aff.b6f6", "port-id-type")), nullptr);
}

TEST(NxosLldpTest, MacPortIdIsTypedInText) {
  const Parsed p = parse(kFormat,
                         "Chassis id: 248a.07b4.a0c2\nPort id: 24:8a:07:b4:a0:c2\nLocal Port id: Eth1/3\n"
                         "Port Description: ens1f0np0\nSystem Name: host01.rdma.lab\n");
  ASSERT_TRUE(p.status.isOk()) << p.status.message();
  EXPECT_EQ(strAt(p.batch, nbr("Ethernet1/3", "248a.07b4.a0c2", "port-id-type")), "MAC_ADDRESS");
  EXPECT_EQ(strAt(p.batch, nbr("Ethernet1/3", "248a.07b4.a0c2", "port-description")), "ens1f0np0");
}

TEST(NxosLldpTest, DamagedJsonKeepsTheNeighboursBeforeTheDamage) {
  std::string text = readFixture("nxos_show_lldp_neighbors_detail_json__harvest.json");
  text.resize(text.find("d039.eaba.f280"));  // cut inside the third row
  const Parsed p = parse(kFormat, text);
  ASSERT_TRUE(p.status.isOk()) << p.status.message();
  EXPECT_TRUE(anyErrorContains(p.batch, "JSON damaged")) << ::testing::PrintToString(p.batch.errors);
  EXPECT_EQ(strAt(p.batch, nbr("Ethernet1/9", "dead.beef.7fef", "system-name")), "na2a-mc1-nbg3");
  expectAllSchemaRows(p.batch);
}

TEST(NxosLldpTest, ARowWithoutALocalPortIsAnErrorLineAndTheOthersStay) {
  const Parsed p = parse(kFormat, R"({"TABLE_nbor_detail": {"ROW_nbor_detail": [
      {"chassis_id": "aaaa.bbbb.cccc", "port_id": "Ethernet1/1", "sys_name": "leaf02"},
      {"chassis_id": "aaaa.bbbb.cccd", "l_port_id": "Eth1/2", "port_id": "Ethernet1/2", "sys_name": "leaf02"}]}})");
  ASSERT_TRUE(p.status.isOk()) << p.status.message();
  EXPECT_TRUE(anyErrorContains(p.batch, "no usable local port id")) << ::testing::PrintToString(p.batch.errors);
  EXPECT_EQ(strAt(p.batch, nbr("Ethernet1/2", "aaaa.bbbb.cccd", "system-name")), "leaf02");
}

TEST(NxosLldpTest, NoNeighboursIsNotAnError) {
  EXPECT_TRUE(parse(kFormat, R"({"neigh_hdr": "neigh_hdr", "neigh_count": "0"})").status.isOk());
  EXPECT_TRUE(parse(kFormat, "Capability codes:\n  (R) Router\nTotal entries displayed: 0\n").status.isOk());
}

TEST(NxosLldpTest, GarbageAndBannersAreClearErrors) {
  Parsed p = parse(kFormat, "% Invalid command at '^' marker.\n");
  EXPECT_FALSE(p.status.isOk());
  EXPECT_NE(p.status.message().find("device error"), std::string::npos) << p.status.message();
  p = parse(kFormat, "this is not lldp output\n");
  EXPECT_FALSE(p.status.isOk());
  EXPECT_NE(p.status.message().find("nxos-lldp-neighbors"), std::string::npos) << p.status.message();
}

}  // namespace
}  // namespace rdmagw::testing
