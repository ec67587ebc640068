#include "southbound/rdma/parsers.h"

#include <gtest/gtest.h>

#include <algorithm>

#include "models/schema.h"
#include "southbound/rdma/rdma_collector.h"
#include "southbound/rdma/sysfs_reader_impl.h"
#include "tests/southbound/rdma/rdma_test_util.h"

namespace rdmagw::southbound::rdma {
namespace {

using rdmagw::testing::TempTree;
using rdmagw::testing::keyless;
using rdmagw::testing::readFixture;
using rdmagw::testing::findUpdate;
using rdmagw::testing::strAt;
using rdmagw::testing::u64At;

constexpr TimestampNs kTs = 1700000000123456789;
const std::string kPort = "/rdma/devices/device[name=mlx5_0]/ports/port[port-num=1]/state";

const ParserFormat* format(std::string_view name) {
  for (const ParserFormat& f : rdmaParserFormats()) {
    if (f.name == name) return &f;
  }
  return nullptr;
}

TEST(ParsersTest, FormatsAreListedWithHelp) {
  ASSERT_NE(format("ethtool-s"), nullptr);
  ASSERT_NE(format("sysfs-dump"), nullptr);
  for (const ParserFormat& f : rdmaParserFormats()) {
    EXPECT_FALSE(f.help.empty()) << f.name;
    EXPECT_NE(f.parse, nullptr) << f.name;
  }
}

TEST(ParsersTest, SysfsDumpProcfsFixtureGolden) {
  PollBatch b;
  ASSERT_TRUE(format("sysfs-dump")
                  ->parse(readFixture("sysfs_infiniband_mlx5_procfs_fixture.txt"), kTs, b)
                  .isOk());
  EXPECT_TRUE(b.errors.empty()) << b.errors.front();
  EXPECT_EQ(u64At(b, kPort + "/counters/port-xmit-octets"),
            11523046035392ULL);                                              // 2880761508848 x 4
  EXPECT_EQ(u64At(b, kPort + "/counters/port-rcv-octets"), 72505381512ULL);  // 18126345378 x 4
  EXPECT_EQ(u64At(b, kPort + "/counters/port-xmit-packets"), 10907922116ULL);
  EXPECT_EQ(u64At(b, kPort + "/hw-counters/duplicate-request"), 41u);
  EXPECT_EQ(u64At(b, kPort + "/hw-counters/local-ack-timeout-err"), 131u);
  EXPECT_EQ(u64At(b, kPort + "/rate"), 25000000000ULL);
  EXPECT_EQ(strAt(b, kPort + "/state"), "ACTIVE");
  EXPECT_EQ(u64At(b, kPort + "/state-id"), 4u);
  EXPECT_EQ(strAt(b, kPort + "/link-layer"), "InfiniBand");
  EXPECT_EQ(strAt(b, "/rdma/devices/device[name=mlx5_0]/state/fw-version"), "14.28.2006");
  EXPECT_EQ(strAt(b, "/rdma/devices/device[name=mlx5_0]/state/board-id"), "SM_2001000001034");
  EXPECT_FALSE(findUpdate(b, kPort + "/hw-counters/lifespan"));
  EXPECT_FALSE(findUpdate(b, kPort + "/netdev"));
  // 4 device strings, 6 port state leaves, 21 PMA, 24 hw counters (not lifespan).
  EXPECT_EQ(b.updates.size(), 4u + 6u + 21u + 24u);
  for (const Update& u : b.updates) {
    EXPECT_EQ(u.timestamp_ns, kTs);
    EXPECT_NE(SchemaTable::instance().find(keyless(u.path)), nullptr) << u.path;
  }
}

TEST(ParsersTest, SysfsDumpUsesTheLiveCollectorCode) {
  // The same fixture, once as a dump and once written out as a real tree read
  // by the live collector: the updates must be identical.
  std::string dump = readFixture("sysfs_infiniband_mlx5_procfs_fixture.txt");
  TempTree t;
  size_t pos = 0;
  while (pos < dump.size()) {
    size_t nl = dump.find('\n', pos);
    std::string line = dump.substr(pos, nl - pos);
    pos = nl == std::string::npos ? dump.size() : nl + 1;
    if (line.empty() || line[0] == '#') continue;
    size_t sep = line.find(": ");
    t.write(line.substr(1, sep - 1), line.substr(sep + 2) + "\n");  // "sys/class/..."
  }
  RdmaCollector live(std::make_unique<SysfsReaderImpl>(t.path("sys")), DeviceFilter(), nullptr,
                     [] { return kTs; });
  PollBatch from_live, from_dump;
  ASSERT_TRUE(live.poll(from_live).isOk());
  ASSERT_TRUE(parseSysfsDump(dump, kTs, from_dump).isOk());
  ASSERT_EQ(from_live.updates.size(), from_dump.updates.size());
  for (size_t i = 0; i < from_live.updates.size(); ++i) {
    EXPECT_EQ(from_live.updates[i].path, from_dump.updates[i].path);
    EXPECT_EQ(from_live.updates[i].value, from_dump.updates[i].value) << from_live.updates[i].path;
    EXPECT_EQ(from_live.updates[i].source.bits, from_dump.updates[i].source.bits);
  }
}

TEST(ParsersTest, SysfsDumpBadValuesAndLinesAreErrorLines) {
  PollBatch b;
  Status st = parseSysfsDump(
      "# remote host dump\n"
      "/sys/class/infiniband/mlx5_0/ports/1/counters/symbol_error: N/A (no PMA)\n"
      "/sys/class/infiniband/mlx5_0/ports/1/counters/port_rcv_errors: 3\n"
      "this is not a dump line\n",
      kTs, b);
  ASSERT_TRUE(st.isOk());
  ASSERT_EQ(b.errors.size(), 2u);
  EXPECT_NE(b.errors[0].find("sysfs dump line 4"), std::string::npos);
  EXPECT_NE(b.errors[1].find("/sys/class/infiniband/mlx5_0/ports/1/counters/symbol_error: counter "
                             "not available: \"N/A (no PMA)\""),
            std::string::npos);
  EXPECT_EQ(u64At(b, kPort + "/counters/port-rcv-errors"), 3u);
  EXPECT_FALSE(findUpdate(b, kPort + "/counters/symbol-error"));
}

TEST(ParsersTest, SysfsDumpWithoutInfinibandFails) {
  PollBatch b;
  Status st = parseSysfsDump("# nothing\n", kTs, b);
  EXPECT_EQ(st.code(), Status::Code::kUnavailable);
  EXPECT_NE(st.message().find("/sys/class/infiniband"), std::string::npos);
}

TEST(ParsersTest, EthtoolSPauseBlogGolden) {
  PollBatch b;
  ASSERT_TRUE(
      format("ethtool-s")
          ->parse(readFixture("LINUX_PROXY_mlx5_ethtool_S_pause_counters__cx4lx_blog.txt"), kTs, b)
          .isOk());
  EXPECT_TRUE(b.errors.empty());
  const std::string i = "/interfaces/interface[name=eth03]";
  EXPECT_EQ(u64At(b, i + "/ethernet/pfc/state/counters/out-pause-ctrl-frames"), 1266552u);
  EXPECT_EQ(u64At(b, i + "/ethernet/pfc/state/counters/in-pause-ctrl-frames"), 0u);
  EXPECT_EQ(u64At(b, i + "/ethernet/pfc/state/counters/out-global-pause-duration"), 555665182u);
  EXPECT_EQ(u64At(b, i + "/ethernet/pfc/state/counters/in-global-pause-transitions"), 0u);
  EXPECT_EQ(u64At(b, i + "/ethernet/pfc/state/counters/pause-storm-error-events"), 0u);
  EXPECT_EQ(u64At(b, i + "/ethernet/state/counters/out-mac-pause-frames"), 1266552u);
  EXPECT_EQ(b.updates.size(), 9u);  // of 17 lines, the mapped ones (not tx_mac_control_phy, pci...)
  for (const Update& u : b.updates) EXPECT_EQ(u.timestamp_ns, kTs);
}

TEST(ParsersTest, EthtoolSWithoutNameIsUnknownAndJunkIsCounted) {
  PollBatch b;
  ASSERT_TRUE(parseEthtoolS("NIC statistics:\n     rx_bytes: 5\n     garbage\n", kTs, b).isOk());
  EXPECT_EQ(u64At(b, "/interfaces/interface[name=unknown]/state/counters/in-octets"), 5u);
  ASSERT_EQ(b.errors.size(), 1u);
  EXPECT_NE(b.errors[0].find("skipped 1 line(s)"), std::string::npos);

  PollBatch empty;
  Status st = parseEthtoolS("no stats here\n", kTs, empty);
  EXPECT_EQ(st.code(), Status::Code::kCorrupt);
}

}  // namespace
}  // namespace rdmagw::southbound::rdma

namespace rdmagw::southbound::rdma {
namespace {

// `dcb -j` documents behind their command lines, two netdevs; ens7's one
// document is damaged: an error line, and ens6 is still written.
TEST(ParsersTest, DcbJsonDocumentsPerNetdev) {
  const ParserFormat* f = format("dcb-json");
  ASSERT_NE(f, nullptr);
  const std::string text =
      "# dcb -j pfc show dev ens6\n"
      "{\"pfc_cap\":8,\"prio_pfc\":[false,false,false,true,false,false,false,false]}\n"
      "# dcb -j ets show dev ens6\n"
      "{\"tc_bw\":[10,10,10,60,10,0,0,0],\"tc_tsa\":[\"ets\",\"ets\",\"ets\",\"ets\",\"ets\",\"strict\",\"strict\","
      "\"strict\"],\"prio_tc\":[0,1,2,3,4,5,6,7]}\n"
      "# dcb -j ets show dev ens7\n"
      "{\"tc_bw\":[10,\n";
  PollBatch b;
  ASSERT_TRUE(f->parse(text, kTs, b).isOk());
  const std::string ens6 = "/interfaces/interface[name=ens6]/ethernet/";
  EXPECT_EQ(u64At(b, ens6 + "pfc/state/enabled-priorities"), 8u);
  EXPECT_EQ(u64At(b, ens6 + "dcb/priorities/priority[id=3]/state/traffic-class"), 3u);
  EXPECT_EQ(u64At(b, ens6 + "dcb/traffic-classes/traffic-class[id=3]/state/bandwidth-percent"), 60u);
  EXPECT_FALSE(findUpdate(b,
                          "/interfaces/interface[name=ens7]/ethernet/dcb/traffic-classes/traffic-class[id=0]/state/"
                          "bandwidth-percent"));
  ASSERT_EQ(b.errors.size(), 1u);
  EXPECT_NE(b.errors[0].find("ens7 ets"), std::string::npos) << b.errors[0];
  PollBatch none;
  EXPECT_FALSE(f->parse("{\"prio_pfc\":[true]}\n", kTs, none).isOk());  // no command line: which netdev?
}

// The text form: the command line names the netdev.
TEST(ParsersTest, DcbShowTextNamedByItsCommandLine) {
  const ParserFormat* f = format("dcb-show");
  ASSERT_NE(f, nullptr);
  PollBatch b;
  ASSERT_TRUE(
      f->parse("$ dcb pfc show dev swp1\nprio-pfc 0:off 1:off 2:off 3:on 4:on 5:off 6:off 7:off\n", kTs, b).isOk());
  EXPECT_EQ(u64At(b, "/interfaces/interface[name=swp1]/ethernet/pfc/state/enabled-priorities"), 24u);
  PollBatch junk;
  EXPECT_FALSE(f->parse("nothing here\n", kTs, junk).isOk());
}

}  // namespace
}  // namespace rdmagw::southbound::rdma
