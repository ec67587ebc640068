#include "southbound/rdma/rdma_collector.h"

#include <gtest/gtest.h>

#include "models/schema.h"
#include "southbound/rdma/ethtool_text.h"
#include "southbound/rdma/rdma_config.h"
#include "southbound/rdma/rdma_factory.h"
#include "southbound/rdma/sysfs_reader_impl.h"
#include "tests/mocks/fake_ethtool_source.h"
#include "tests/southbound/rdma/rdma_test_util.h"

namespace rdmagw::southbound::rdma {
namespace {

using rdmagw::testing::FakeEthtoolSource;
using rdmagw::testing::TempTree;
using rdmagw::testing::anyErrorContains;
using rdmagw::testing::keyless;
using rdmagw::testing::findUpdate;
using rdmagw::testing::strAt;
using rdmagw::testing::u64At;

const std::string kDev = "/rdma/devices/device[name=mlx5_0]";
const std::string kPort = kDev + "/ports/port[port-num=1]/state";
const std::string kIf = "/interfaces/interface[name=ens1f0np0]";

// An mlx5 RoCE port with PFC on priority 3, written as the kernel lays it out.
void writeRoceHost(TempTree& t) {
  const std::string d = "sys/class/infiniband/mlx5_0/";
  t.write(d + "fw_ver", "22.36.1010\n");
  t.write(d + "hca_type", "MT4125\n");
  t.write(d + "board_id", "MT_0000000359\n");
  t.write(d + "node_guid", "b8ce:f603:00a1:b2c4\n");
  const std::string p = d + "ports/1/";
  t.write(p + "state", "4: ACTIVE\n");
  t.write(p + "phys_state", "5: LinkUp\n");
  t.write(p + "rate", "100 Gb/sec (2X HDR)\n");
  t.write(p + "link_layer", "Ethernet\n");
  t.write(p + "gid_attrs/ndevs/0", "ens1f0np0\n");
  t.write(p + "counters/port_xmit_data", "250\n");
  t.write(p + "counters/port_rcv_data", "1000\n");
  t.write(p + "counters/symbol_error", "65535\n");
  t.write(p + "counters/link_downed", "3\n");
  t.write(p + "counters/local_link_integrity_errors", "1\n");
  t.write(p + "counters/VL15_dropped", "0\n");
  t.write(p + "counters/port_xmit_packets", "93\n");
  t.write(p + "hw_counters/np_ecn_marked_roce_packets", "5120\n");
  t.write(p + "hw_counters/np_cnp_sent", "2048\n");
  t.write(p + "hw_counters/rp_cnp_handled", "4096\n");
  t.write(p + "hw_counters/out_of_buffer", "4294967290\n");
  t.write(p + "hw_counters/duplicate_request", "41\n");
  t.write(p + "hw_counters/lifespan", "10\n");
  t.write(p + "hw_counters/rx_new_fancy_counter", "9\n");
  t.write("ethtool/ens1f0np0.txt",
          "NIC statistics:\n"
          "     rx_packets: 1000\n     tx_packets: 2000\n"
          "     rx_bytes: 640000\n     tx_bytes: 1280000\n"
          "     rx_discards_phy: 7\n     rx_out_of_buffer: 3\n"
          "     rx_pause_ctrl_phy: 15\n     tx_pause_ctrl_phy: 16\n"
          "     rx_global_pause: 0\n     tx_global_pause: 0\n"
          "     rx_prio3_bytes: 500000\n     rx_prio3_packets: 800\n"
          "     tx_prio3_bytes: 900000\n     tx_prio3_packets: 1500\n"
          "     rx_prio3_pause: 12\n     rx_prio3_pause_duration: 3400\n"
          "     tx_prio3_pause: 11\n     tx_prio3_pause_duration: 2200\n"
          "     rx_prio3_pause_transition: 6\n     rx_prio3_discards: 2\n"
          "     tx_pause_storm_warning_events: 1\n     tx_pause_storm_error_events: 0\n");
}

RdmaCollector collectorFor(TempTree& t, IbClass::Clock clock, DeviceFilter f = {}) {
  return RdmaCollector(std::make_unique<SysfsReaderImpl>(t.path("sys")), std::move(f),
                       std::make_unique<EthtoolText>(t.path("ethtool")), std::move(clock));
}

TEST(RdmaCollectorTest, RoceHostEndToEnd) {
  TempTree t;
  writeRoceHost(t);
  TimestampNs now = 1000;
  RdmaCollector c = collectorFor(t, [&] { return now++; });
  EXPECT_EQ(c.transport(), "sysfs");
  PollBatch b;
  ASSERT_TRUE(c.poll(b).isOk());
  EXPECT_TRUE(b.errors.empty()) << b.errors.front();

  EXPECT_EQ(strAt(b, kDev + "/state/fw-version"), "22.36.1010");
  EXPECT_EQ(strAt(b, kDev + "/state/node-guid"), "b8ce:f603:00a1:b2c4");
  EXPECT_EQ(strAt(b, kPort + "/state"), "ACTIVE");
  EXPECT_EQ(u64At(b, kPort + "/state-id"), 4u);
  EXPECT_EQ(strAt(b, kPort + "/phys-state"), "LinkUp");
  EXPECT_EQ(u64At(b, kPort + "/phys-state-id"), 5u);
  EXPECT_EQ(u64At(b, kPort + "/rate"), 100000000000ULL);
  EXPECT_EQ(strAt(b, kPort + "/link-layer"), "Ethernet");
  EXPECT_EQ(strAt(b, kPort + "/netdev"), "ens1f0np0");

  EXPECT_EQ(u64At(b, kPort + "/counters/port-xmit-octets"), 1000u);  // 250 words x 4
  EXPECT_EQ(u64At(b, kPort + "/counters/port-rcv-octets"), 4000u);
  EXPECT_EQ(u64At(b, kPort + "/counters/port-xmit-packets"), 93u);
  EXPECT_EQ(u64At(b, kPort + "/counters/vl15-dropped"), 0u);
  EXPECT_EQ(u64At(b, kPort + "/hw-counters/np-cnp-sent"), 2048u);
  EXPECT_EQ(u64At(b, kPort + "/hw-counters/out-of-buffer"), 4294967290u);
  EXPECT_EQ(u64At(b, kPort + "/hw-counters/rx-new-fancy-counter"), 9u);  // unknown, kept
  EXPECT_FALSE(findUpdate(b, kPort + "/hw-counters/lifespan"));

  EXPECT_EQ(
      u64At(b, kIf + "/ethernet/pfc/priorities/priority[id=3]/state/counters/in-pause-frames"),
      12u);
  EXPECT_EQ(
      u64At(b, kIf + "/ethernet/pfc/priorities/priority[id=3]/state/counters/out-pause-frames"),
      11u);
  EXPECT_EQ(
      u64At(b, kIf + "/ethernet/pfc/priorities/priority[id=3]/state/counters/in-pause-duration"),
      3400u);
  EXPECT_EQ(u64At(b, kIf + "/ethernet/pfc/priorities/priority[id=3]/state/counters/in-discards"),
            2u);
  EXPECT_EQ(u64At(b, kIf + "/ethernet/pfc/state/counters/in-pause-ctrl-frames"), 15u);
  EXPECT_EQ(u64At(b, kIf + "/ethernet/pfc/state/counters/pause-storm-warning-events"), 1u);
  EXPECT_EQ(u64At(b, kIf + "/ethernet/state/counters/out-mac-pause-frames"), 0u);
  EXPECT_EQ(u64At(b, kIf + "/state/counters/in-discards"), 7u);
  EXPECT_EQ(u64At(b, kIf + "/state/counters/out-octets"), 1280000u);
  EXPECT_EQ(b.updates.size(), 4u + 7u + 7u + 6u + 21u);  // device, port state, PMA, hw, ethtool
}

TEST(RdmaCollectorTest, CounterSourcesFollowTheWidthTable) {
  TempTree t;
  writeRoceHost(t);
  RdmaCollector c = collectorFor(t, [] { return TimestampNs{1}; });
  PollBatch b;
  ASSERT_TRUE(c.poll(b).isOk());
  auto src = [&](const std::string& leaf) { return findUpdate(b, kPort + leaf)->source; };
  EXPECT_EQ(src("/counters/symbol-error").bits, 16);
  EXPECT_TRUE(src("/counters/symbol-error").saturates);
  EXPECT_EQ(src("/counters/link-downed").bits, 8);
  EXPECT_EQ(src("/counters/local-link-integrity-errors").bits, 4);
  EXPECT_TRUE(src("/counters/vl15-dropped").saturates);
  EXPECT_EQ(src("/counters/vl15-dropped").bits, 16);
  EXPECT_EQ(src("/counters/port-xmit-octets").bits, 64);
  EXPECT_EQ(src("/hw-counters/out-of-buffer").bits, 32);
  EXPECT_FALSE(src("/hw-counters/out-of-buffer").saturates);
  EXPECT_EQ(src("/hw-counters/duplicate-request").bits, 32);
  EXPECT_EQ(src("/hw-counters/np-ecn-marked-roce-packets").bits, 64);
  EXPECT_EQ(src("/hw-counters/rx-new-fancy-counter").bits, 64);
}

TEST(RdmaCollectorTest, EveryEmittedPathHasASchemaRow) {
  TempTree t;
  writeRoceHost(t);
  RdmaCollector c = collectorFor(t, [] { return TimestampNs{1}; });
  PollBatch b;
  ASSERT_TRUE(c.poll(b).isOk());
  ASSERT_GT(b.updates.size(), 40u);
  for (const Update& u : b.updates) {
    if (u.path == kPort + "/hw-counters/rx-new-fancy-counter") continue;  // unknown by design
    const LeafSchema* row = SchemaTable::instance().find(keyless(u.path));
    ASSERT_NE(row, nullptr) << u.path;
    EXPECT_EQ(row->kind == LeafKind::kString, std::holds_alternative<std::string>(u.value))
        << u.path;
  }
}

TEST(RdmaCollectorTest, TimestampsAreWhenEachValueWasRead) {
  TempTree t;
  writeRoceHost(t);
  TimestampNs before = nowNs();
  auto src = createRdmaSource(
      RdmaConfig{t.path("sys"), {}, {}, RdmaConfig::EthtoolMode::kText, t.path("ethtool")});
  ASSERT_TRUE(src.isOk()) << src.status().toString();
  PollBatch b;
  ASSERT_TRUE(src.value()->poll(b).isOk());
  TimestampNs after = nowNs();
  for (const Update& u : b.updates) {
    EXPECT_GE(u.timestamp_ns, before) << u.path;
    EXPECT_LE(u.timestamp_ns, after) << u.path;
  }
  // Stamped per read, not once per poll: fw_ver is read before the hw counters.
  EXPECT_LT(findUpdate(b, kDev + "/state/fw-version")->timestamp_ns,
            findUpdate(b, kPort + "/hw-counters/np-cnp-sent")->timestamp_ns);
  EXPECT_LT(findUpdate(b, kPort + "/counters/port-xmit-octets")->timestamp_ns,
            findUpdate(b, kIf + "/state/counters/in-octets")->timestamp_ns);
  EXPECT_EQ(
      u64At(b, kIf + "/ethernet/pfc/priorities/priority[id=3]/state/counters/in-pause-frames"),
      12u);
}

TEST(RdmaCollectorTest, MissingRootFailsThePollWithThePath) {
  auto src = createRdmaSource(
      RdmaConfig{"/nonexistent/rdmagw-root", {}, {}, RdmaConfig::EthtoolMode::kNone, ""});
  ASSERT_TRUE(src.isOk());
  PollBatch b;
  Status st = src.value()->poll(b);
  EXPECT_EQ(st.code(), Status::Code::kUnavailable);
  EXPECT_NE(st.message().find("/nonexistent/rdmagw-root/class/infiniband"), std::string::npos);
  EXPECT_TRUE(b.updates.empty());
}

TEST(RdmaCollectorTest, EthtoolFailureIsOneLineRestKept) {
  TempTree t;
  writeRoceHost(t);
  auto fake = std::make_unique<FakeEthtoolSource>();
  FakeEthtoolSource* f = fake.get();
  f->fail("ens1f0np0", Status::ioError("ethtool GSTATS ens1f0np0: Operation not supported"));
  RdmaCollector c(std::make_unique<SysfsReaderImpl>(t.path("sys")), DeviceFilter(), std::move(fake),
                  [] { return TimestampNs{1}; });
  PollBatch b;
  ASSERT_TRUE(c.poll(b).isOk());
  ASSERT_EQ(b.errors.size(), 1u);
  EXPECT_NE(b.errors[0].find("ethtool -S ens1f0np0 (mlx5_0 port 1): ethtool GSTATS"),
            std::string::npos);
  EXPECT_EQ(u64At(b, kPort + "/counters/port-xmit-octets"), 1000u);
  EXPECT_EQ(f->asked(), std::vector<std::string>{"ens1f0np0"});
}

TEST(RdmaCollectorTest, ExcludedDeviceEmitsNothingAndItsNetdevIsNotAsked) {
  TempTree t;
  writeRoceHost(t);
  auto fake = std::make_unique<FakeEthtoolSource>();
  FakeEthtoolSource* f = fake.get();
  RdmaCollector c(std::make_unique<SysfsReaderImpl>(t.path("sys")), DeviceFilter({}, {"mlx5_*"}),
                  std::move(fake), [] { return TimestampNs{1}; });
  PollBatch b;
  ASSERT_TRUE(c.poll(b).isOk());
  EXPECT_TRUE(b.updates.empty());
  EXPECT_TRUE(b.errors.empty());
  EXPECT_TRUE(f->asked().empty());
}

TEST(RdmaCollectorTest, SkippedEthtoolLinesBecomeErrorLines) {
  TempTree t;
  writeRoceHost(t);
  t.write("ethtool/ens1f0np0.txt", "     rx_prio3_pause: 12\n     ???\n");
  RdmaCollector c = collectorFor(t, [] { return TimestampNs{1}; });
  PollBatch b;
  ASSERT_TRUE(c.poll(b).isOk());
  ASSERT_EQ(b.errors.size(), 1u);
  EXPECT_TRUE(anyErrorContains(b, "skipped 1 line(s)"));
  EXPECT_EQ(
      u64At(b, kIf + "/ethernet/pfc/priorities/priority[id=3]/state/counters/in-pause-frames"),
      12u);
}

// --- config and factory -------------------------------------------------------

// The MTU and the DCQCN knobs are configuration: read on the first poll,
// then again only once the config interval has passed; a netdev first seen
// later is read at once.
TEST(RdmaCollectorTest, ConfigIsReadAgainOnlyAfterItsInterval) {
  TempTree t;
  writeRoceHost(t);
  t.write("sys/class/net/ens1f0np0/mtu", "9000\n");
  for (int p = 0; p < 8; ++p) t.write("sys/class/net/ens1f0np0/ecn/roce_np/enable/" + std::to_string(p), "1\n");
  TimestampNs now = 1'000'000'000;
  RdmaCollector c = collectorFor(t, [&] { return now; });
  c.setConfigInterval(std::chrono::seconds(60));
  const std::string mtu = kIf + "/state/mtu";
  const std::string np = kIf + "/ethernet/dcqcn/state/np-enabled-priorities";

  PollBatch first;
  ASSERT_TRUE(c.poll(first).isOk());
  EXPECT_EQ(u64At(first, mtu), 9000u);
  EXPECT_EQ(u64At(first, np), 0xffu);

  t.write("sys/class/net/ens1f0np0/mtu", "1500\n");
  t.write("sys/class/net/ens1f0np0/ecn/roce_np/enable/3", "0\n");
  now += 10'000'000'000;  // one poll later: counters yes, configuration no
  PollBatch second;
  ASSERT_TRUE(c.poll(second).isOk());
  EXPECT_FALSE(u64At(second, mtu));
  EXPECT_FALSE(u64At(second, np));
  EXPECT_TRUE(u64At(second, kPort + "/hw-counters/np-cnp-sent"));

  // A second port whose netdev the collector has not read yet: read at once.
  const std::string d = "sys/class/infiniband/mlx5_1/ports/1/";
  t.write(d + "link_layer", "Ethernet\n");
  t.write(d + "gid_attrs/ndevs/0", "ens1f1np1\n");
  t.write("sys/class/net/ens1f1np1/mtu", "4200\n");
  now += 10'000'000'000;
  PollBatch third;
  ASSERT_TRUE(c.poll(third).isOk());
  EXPECT_EQ(u64At(third, "/interfaces/interface[name=ens1f1np1]/state/mtu"), 4200u);
  EXPECT_FALSE(u64At(third, mtu));

  now += 41'000'000'000;  // 61 s after the first read
  PollBatch due;
  ASSERT_TRUE(c.poll(due).isOk());
  EXPECT_EQ(u64At(due, mtu), 1500u);
  EXPECT_EQ(u64At(due, np), 0xf7u);

  c.setConfigInterval(std::chrono::seconds(0));  // every poll
  now += 1'000'000'000;
  PollBatch every;
  ASSERT_TRUE(c.poll(every).isOk());
  EXPECT_EQ(u64At(every, mtu), 1500u);
}

// configfs RDMA CM defaults, under <sysfs root>/kernel/config/rdma_cm as
// on a host (/sys/kernel/config/rdma_cm), for the devices the filter keeps.
TEST(RdmaCollectorTest, RdmaCmDefaultsFromConfigfs) {
  TempTree t;
  writeRoceHost(t);
  t.write("sys/kernel/config/rdma_cm/mlx5_0/ports/1/default_roce_tos", "106\n");
  t.write("sys/kernel/config/rdma_cm/mlx5_0/ports/1/default_roce_mode", "RoCE v2\n");
  t.write("sys/class/infiniband/mlx5_9/ports/1/link_layer", "Ethernet\n");
  t.write("sys/kernel/config/rdma_cm/mlx5_9/ports/1/default_roce_tos", "0\n");
  TimestampNs now = 1'000'000'000;
  RdmaCollector c = collectorFor(t, [&] { return now; }, DeviceFilter({}, {"mlx5_9"}));
  c.setConfigInterval(std::chrono::seconds(60));
  PollBatch b;
  ASSERT_TRUE(c.poll(b).isOk());
  EXPECT_EQ(u64At(b, kDev + "/ports/port[port-num=1]/state/default-roce-tos"), 106u);
  EXPECT_EQ(strAt(b, kDev + "/ports/port[port-num=1]/state/default-roce-mode"), "RoCE v2");
  EXPECT_FALSE(u64At(b, "/rdma/devices/device[name=mlx5_9]/ports/port[port-num=1]/state/default-roce-tos"));
  EXPECT_FALSE(anyErrorContains(b, "rdma_cm")) << b.errors.front();

  // Configuration: not again until the interval is over.
  now += 10'000'000'000;
  PollBatch second;
  ASSERT_TRUE(c.poll(second).isOk());
  EXPECT_FALSE(u64At(second, kDev + "/ports/port[port-num=1]/state/default-roce-tos"));

  // A bad value is an error line naming the file; the mode stays.
  t.write("sys/kernel/config/rdma_cm/mlx5_0/ports/1/default_roce_tos", "256\n");
  now += 60'000'000'000;
  PollBatch bad;
  ASSERT_TRUE(c.poll(bad).isOk());
  EXPECT_TRUE(anyErrorContains(bad, "/sys/kernel/config/rdma_cm/mlx5_0/ports/1/default_roce_tos"));
  EXPECT_FALSE(u64At(bad, kDev + "/ports/port[port-num=1]/state/default-roce-tos"));
  EXPECT_EQ(strAt(bad, kDev + "/ports/port[port-num=1]/state/default-roce-mode"), "RoCE v2");
}

TEST(RdmaCollectorTest, NoConfigfsIsQuiet) {
  TempTree t;
  writeRoceHost(t);
  RdmaCollector c = collectorFor(t, [] { return TimestampNs{1}; });
  PollBatch b;
  ASSERT_TRUE(c.poll(b).isOk());
  EXPECT_FALSE(anyErrorContains(b, "rdma_cm"));
  for (const Update& u : b.updates) EXPECT_EQ(u.path.find("default-roce"), std::string::npos) << u.path;
}

TEST(RdmaConfigTest, DefaultsAreValid) {
  RdmaConfig c;
  EXPECT_EQ(c.sysfs_root, "/sys");
  EXPECT_EQ(c.ethtool, RdmaConfig::EthtoolMode::kIoctl);
  EXPECT_TRUE(c.validate().isOk());
}

TEST(RdmaConfigTest, AllProblemsReportedWithTheirKeys) {
  RdmaConfig c;
  c.sysfs_root = "";
  c.include_devices = {"mlx5_*", "mlx5_[0"};
  c.exclude_devices = {""};
  c.ethtool = RdmaConfig::EthtoolMode::kText;
  Status st = c.validate();
  ASSERT_FALSE(st.isOk());
  EXPECT_EQ(st.code(), Status::Code::kInvalidArgument);
  EXPECT_NE(st.message().find("sysfs_root: must not be empty"), std::string::npos);
  EXPECT_NE(st.message().find("include_devices[1]: glob 'mlx5_[0' has an unterminated '['"),
            std::string::npos);
  EXPECT_NE(st.message().find("exclude_devices[0]: empty glob"), std::string::npos);
  EXPECT_NE(st.message().find("ethtool_dir: required"), std::string::npos);
  EXPECT_FALSE(createRdmaSource(c).isOk());
}

TEST(RdmaConfigTest, GlobValidation) {
  EXPECT_TRUE(DeviceFilter::validateGlob("mlx5_[0-3]").isOk());
  EXPECT_TRUE(DeviceFilter::validateGlob("[]]x").isOk());
  EXPECT_TRUE(DeviceFilter::validateGlob("a\\[b").isOk());
  EXPECT_FALSE(DeviceFilter::validateGlob("a/b").isOk());
  EXPECT_FALSE(DeviceFilter::validateGlob("ab\\").isOk());
  DeviceFilter f({"mlx5_*", "irdma?"}, {"mlx5_1*"});
  EXPECT_TRUE(f.accepts("mlx5_0"));
  EXPECT_FALSE(f.accepts("mlx5_1"));
  EXPECT_FALSE(f.accepts("mlx5_10"));
  EXPECT_TRUE(f.accepts("irdma0"));
  EXPECT_FALSE(f.accepts("bnxt_re0"));
}

}  // namespace
}  // namespace rdmagw::southbound::rdma
