// lldpd's `lldpctl -f json0` and `-f json` (both shapes of the latter: one
// interface as an object, several as an array) to the OpenConfig LLDP
// neighbour leaves; damaged and foreign input; the lldpctl command source
// (absent, failing, working) and the collector running it.

#include "southbound/rdma/lldpctl_json.h"

#include <gtest/gtest.h>
#include <sys/stat.h>

#include "models/lldp.h"
#include "models/schema.h"
#include "southbound/rdma/lldp_source.h"
#include "southbound/rdma/memory_sysfs_reader.h"
#include "southbound/rdma/parsers.h"
#include "southbound/rdma/rdma_collector.h"
#include "tests/southbound/rdma/rdma_test_util.h"

namespace rdmagw::southbound::rdma {
namespace {

using rdmagw::testing::TempTree;
using rdmagw::testing::anyErrorContains;
using rdmagw::testing::readFixture;
using rdmagw::testing::strAt;

constexpr TimestampNs kTs = 1700000000000000000;

std::string at(const std::string& netdev, const std::string& chassis, const std::string& leaf) {
  return lldp::neighborPath(netdev, chassis, leaf);
}

// The leaves of the two-port host every fixture describes (or its first port).
void expectPort0(const PollBatch& b) {
  EXPECT_EQ(strAt(b, at("ens1f0np0", "00:de:fb:01:00:00", "system-name")), "leaf01.fabric.example");
  EXPECT_EQ(strAt(b, at("ens1f0np0", "00:de:fb:01:00:00", "port-id")), "Ethernet1/1");
  EXPECT_EQ(strAt(b, at("ens1f0np0", "00:de:fb:01:00:00", "port-id-type")), "INTERFACE_NAME");
  EXPECT_EQ(strAt(b, at("ens1f0np0", "00:de:fb:01:00:00", "chassis-id")), "00:de:fb:01:00:00");
  EXPECT_EQ(strAt(b, at("ens1f0np0", "00:de:fb:01:00:00", "port-description")), "host01:mlx5_0");
}

void expectPort1(const PollBatch& b) {
  EXPECT_EQ(strAt(b, at("ens1f1np1", "00:de:fb:02:00:00", "system-name")), "leaf02.fabric.example");
  EXPECT_EQ(strAt(b, at("ens1f1np1", "00:de:fb:02:00:00", "port-id")), "Ethernet1/1");
}

PollBatch parseOk(const std::string& text) {
  PollBatch b;
  const Status st = parseLldpctlJson(text, kTs, b);
  EXPECT_TRUE(st.isOk()) << st.message();
  EXPECT_TRUE(b.errors.empty()) << b.errors[0];
  for (const Update& u : b.updates) {
    EXPECT_NE(SchemaTable::instance().find(rdmagw::testing::keyless(u.path)), nullptr) << u.path;
    EXPECT_EQ(u.timestamp_ns, kTs);
  }
  return b;
}

TEST(LldpctlJsonTest, Json0TwoPorts) {
  const PollBatch b = parseOk(readFixture("RECONSTRUCTED_lldpctl_json0_two_ports.json"));
  expectPort0(b);
  expectPort1(b);
  EXPECT_EQ(b.updates.size(), 10u);
}

TEST(LldpctlJsonTest, JsonOneInterfaceIsAnObject) {
  const PollBatch b = parseOk(readFixture("RECONSTRUCTED_lldpctl_json_one_port.json"));
  expectPort0(b);
  EXPECT_EQ(b.updates.size(), 5u);
}

TEST(LldpctlJsonTest, JsonSeveralInterfacesAreAnArray) {
  const PollBatch json = parseOk(readFixture("RECONSTRUCTED_lldpctl_json_two_ports.json"));
  const PollBatch json0 = parseOk(readFixture("RECONSTRUCTED_lldpctl_json0_two_ports.json"));
  expectPort0(json);
  expectPort1(json);
  ASSERT_EQ(json.updates.size(), json0.updates.size());
  for (size_t i = 0; i < json.updates.size(); ++i) {
    EXPECT_EQ(json.updates[i].path, json0.updates[i].path);
    EXPECT_EQ(json.updates[i].value, json0.updates[i].value) << json.updates[i].path;
  }
}

TEST(LldpctlJsonTest, NoNeighbourIsNothingAndNoError) {
  EXPECT_TRUE(parseOk(R"({"lldp": [{}]})").updates.empty());
  EXPECT_TRUE(parseOk(R"({"lldp": {}})").updates.empty());
}

TEST(LldpctlJsonTest, DamagedJsonKeepsTheNeighboursBeforeTheDamage) {
  std::string text = readFixture("RECONSTRUCTED_lldpctl_json0_two_ports.json");
  text.resize(text.find("ens1f1np1"));
  PollBatch b;
  ASSERT_TRUE(parseLldpctlJson(text, kTs, b).isOk());
  EXPECT_TRUE(anyErrorContains(b, "JSON damaged")) << ::testing::PrintToString(b.errors);
  expectPort0(b);
}

TEST(LldpctlJsonTest, ForeignTextIsAClearError) {
  for (const char* text : {"lldpctl: cannot connect to socket /run/lldpd.socket", R"({"interfaces": []})", "{\"ll"}) {
    PollBatch b;
    const Status st = parseLldpctlJson(text, kTs, b);
    EXPECT_FALSE(st.isOk()) << text;
    EXPECT_NE(st.message().find("lldpctl"), std::string::npos) << st.message();
    EXPECT_TRUE(b.updates.empty());
  }
}

TEST(LldpctlJsonTest, RegisteredAsAFormat) {
  bool found = false;
  for (const ParserFormat& f : rdmaParserFormats()) found = found || f.name == "lldpctl-json";
  EXPECT_TRUE(found);
}

TEST(LldpctlCommandTest, AbsentOrFailingLldpctlIsNoLldpNotAnError) {
  TempTree t;
  EXPECT_FALSE(LldpctlCommand("rdmagw-no-such-lldpctl -f json0").read());
  t.write("bin/lldpctl", "#!/bin/sh\necho 'cannot find lldpd control socket' >&2\nexit 1\n");
  ::chmod(t.path("bin/lldpctl").c_str(), 0755);
  LldpctlCommand failing(t.path("bin/lldpctl") + " -f json0");
  EXPECT_FALSE(failing.read());
  EXPECT_FALSE(failing.read());  // noted once in the log, quietly absent after
}

TEST(LldpctlCommandTest, TheCollectorAddsWhatLldpctlPrints) {
  TempTree t;
  t.write("lldp.json", readFixture("RECONSTRUCTED_lldpctl_json0_two_ports.json"));
  t.write("bin/lldpctl", "#!/bin/sh\n[ \"$1 $2\" = '-f json0' ] || exit 64\ncat '" + t.path("lldp.json") + "'\n");
  ::chmod(t.path("bin/lldpctl").c_str(), 0755);
  MemorySysfsReader reader = MemorySysfsReader::fromDump(
      "/sys/class/infiniband/\n/sys/class/infiniband/mlx5_0/\n/sys/class/infiniband/mlx5_0/ports/\n"
      "/sys/class/infiniband/mlx5_0/ports/1/\n/sys/class/infiniband/mlx5_0/ports/1/state: 4: ACTIVE\n",
      nullptr);
  RdmaCollector collector(std::make_unique<MemorySysfsReader>(std::move(reader)), DeviceFilter(), nullptr,
                          [] { return kTs; });
  collector.setLldp(std::make_unique<LldpctlCommand>(t.path("bin/lldpctl") + " -f json0"));
  PollBatch b;
  ASSERT_TRUE(collector.poll(b).isOk());
  EXPECT_TRUE(b.errors.empty()) << b.errors[0];
  expectPort0(b);
  expectPort1(b);
  EXPECT_GT(b.updates.size(), 10u) << "the sysfs leaves too";
}

}  // namespace
}  // namespace rdmagw::southbound::rdma
