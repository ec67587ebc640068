#include "southbound/rdma/ib_class.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cerrno>

#include "southbound/rdma/memory_sysfs_reader.h"
#include "southbound/rdma/sysfs_reader_impl.h"
#include "tests/mocks/recording_sysfs_reader.h"
#include "tests/southbound/rdma/rdma_test_util.h"

namespace rdmagw::southbound::rdma {
namespace {

using rdmagw::testing::readFixture;
using rdmagw::testing::RecordingSysfsReader;
using rdmagw::testing::TempTree;

constexpr TimestampNs kTs = 1700000000000000000;
const IbClass::Clock kClock = [] { return kTs; };

const IbCounter* counter(const std::vector<IbCounter>& cs, const std::string& name) {
  auto it = std::find_if(cs.begin(), cs.end(), [&](const IbCounter& c) { return c.name == name; });
  return it == cs.end() ? nullptr : &*it;
}

bool anyContains(const std::vector<std::string>& lines, const std::string& needle) {
  return std::any_of(lines.begin(), lines.end(),
                     [&](const std::string& l) { return l.find(needle) != std::string::npos; });
}

// Two RoCE devices, the shape of a ConnectX-6 Dx host.
MemorySysfsReader roceHost() {
  MemorySysfsReader r;
  for (const std::string dev : {"mlx5_0", "mlx5_1"}) {
    const std::string d = "class/infiniband/" + dev;
    r.addFile(d + "/fw_ver", "22.36.1010\n");
    r.addFile(d + "/hca_type", "MT4125\n");
    r.addFile(d + "/ports/1/state", "4: ACTIVE\n");
    r.addFile(d + "/ports/1/phys_state", "5: LinkUp\n");
    r.addFile(d + "/ports/1/rate", "100 Gb/sec (2X HDR)\n");
    r.addFile(d + "/ports/1/link_layer", "Ethernet\n");
    r.addFile(d + "/ports/1/counters/port_xmit_data", "1000\n");
    r.addFile(d + "/ports/1/counters/symbol_error", "0\n");
    r.addFile(d + "/ports/1/hw_counters/np_cnp_sent", "77\n");
    r.addFile(d + "/ports/1/hw_counters/lifespan", "10\n");
    r.failRead(d + "/ports/1/gid_attrs/ndevs/0",
               statusFromErrno(EINVAL, "/sys/" + d + "/ports/1/gid_attrs/ndevs/0"));
    r.addFile(d + "/ports/1/gid_attrs/ndevs/0", "");
    r.addFile(d + "/ports/1/gid_attrs/ndevs/1", (dev == "mlx5_0" ? "ens1f0np0\n" : "ens1f1np1\n"));
  }
  return r;
}

// --- pure value parsers ---------------------------------------------------

TEST(SysfsValuesTest, RateInBitsPerSecond) {
  EXPECT_EQ(parseRateBps("100 Gb/sec (4X EDR)\n").value(), 100000000000ULL);
  EXPECT_EQ(parseRateBps("25 Gb/sec (1X EDR)").value(), 25000000000ULL);
  EXPECT_EQ(parseRateBps("2.5 Gb/sec (1X SDR)").value(), 2500000000ULL);
  EXPECT_EQ(parseRateBps("25 Gb/sec").value(), 25000000000ULL);
  EXPECT_EQ(parseRateBps("14.0625 Gb/sec (1X FDR)").value(), 14062500000ULL);
  EXPECT_EQ(parseRateBps("40 Mb/sec").value(), 40000000ULL);
}

TEST(SysfsValuesTest, BadRatesAreRefused) {
  EXPECT_FALSE(parseRateBps("").isOk());
  EXPECT_FALSE(parseRateBps("fast").isOk());
  EXPECT_FALSE(parseRateBps("100 G").isOk());  // truncated
  EXPECT_FALSE(parseRateBps("100").isOk());
  EXPECT_NE(parseRateBps("x").status().message().find("\"x\""), std::string::npos);
}

TEST(SysfsValuesTest, Counters) {
  EXPECT_EQ(parseCounter("2880761508848\n").value(), 2880761508848ULL);
  EXPECT_EQ(parseCounter("18446744073709551615").value(), UINT64_MAX);
  EXPECT_FALSE(parseCounter("18446744073709551616").isOk());  // 2^64
  EXPECT_FALSE(parseCounter("-1").isOk());
  EXPECT_FALSE(parseCounter("12abc").isOk());
  EXPECT_FALSE(parseCounter("\n").isOk());
  Result<uint64_t> na = parseCounter("N/A (no PMA)\n");
  ASSERT_FALSE(na.isOk());
  EXPECT_NE(na.status().message().find("N/A (no PMA)"), std::string::npos);
}

TEST(SysfsValuesTest, NumberedStates) {
  IbEnum s = parseIbEnum("4: ACTIVE\n").value();
  EXPECT_EQ(s.id, 4u);
  EXPECT_EQ(s.name, "ACTIVE");
  IbEnum ps = parseIbEnum("5: LinkUp").value();
  EXPECT_EQ(ps.id, 5u);
  EXPECT_EQ(ps.name, "LinkUp");
  IbEnum bare = parseIbEnum("ACTIVE").value();
  EXPECT_FALSE(bare.id.has_value());
  EXPECT_EQ(bare.name, "ACTIVE");
  EXPECT_FALSE(parseIbEnum("4:").isOk());  // truncated
  EXPECT_FALSE(parseIbEnum("").isOk());
  EXPECT_FALSE(parseIbEnum("x: ACTIVE").isOk());
}

// --- golden: procfs fixture ------------------------------------------------

TEST(IbClassTest, ProcfsFixtureGolden) {
  std::vector<std::string> bad;
  MemorySysfsReader reader =
      MemorySysfsReader::fromDump(readFixture("sysfs_infiniband_mlx5_procfs_fixture.txt"), &bad);
  EXPECT_TRUE(bad.empty());
  std::vector<std::string> errors;
  auto devices = IbClass(reader, DeviceFilter(), kClock).read(&errors);
  ASSERT_TRUE(devices.isOk()) << devices.status().toString();
  EXPECT_TRUE(errors.empty()) << errors.front();
  ASSERT_EQ(devices->size(), 1u);
  const IbDevice& d = devices->front();
  EXPECT_EQ(d.name, "mlx5_0");
  EXPECT_EQ(d.fw_ver->value, "14.28.2006");
  EXPECT_EQ(d.hca_type->value, "MT4118");
  EXPECT_EQ(d.board_id->value, "SM_2001000001034");
  EXPECT_EQ(d.node_guid->value, "0a7f:bc12:45ef:d23b");
  EXPECT_EQ(d.fw_ver->ts, kTs);
  ASSERT_EQ(d.ports.size(), 1u);
  const IbPort& p = d.ports.front();
  EXPECT_EQ(p.num, 1u);
  EXPECT_EQ(p.state->value.id, 4u);
  EXPECT_EQ(p.state->value.name, "ACTIVE");
  EXPECT_EQ(p.phys_state->value.id, 4u);  // the fixture really says "4: ACTIVE" here
  EXPECT_EQ(p.rate_bps->value, 25000000000ULL);
  EXPECT_EQ(p.link_layer->value, "InfiniBand");
  EXPECT_FALSE(p.netdev.has_value());  // no device/net in the fixture: absent, not ""
  EXPECT_EQ(p.counters.size(), 21u);
  EXPECT_EQ(counter(p.counters, "port_xmit_data")->raw, 2880761508848ULL);  // still words
  EXPECT_EQ(counter(p.counters, "port_rcv_data")->raw, 18126345378ULL);
  EXPECT_EQ(counter(p.hw_counters, "duplicate_request")->raw, 41u);
  EXPECT_EQ(counter(p.hw_counters, "req_cqe_error")->raw, 3481u);
  EXPECT_EQ(counter(p.hw_counters, "lifespan"), nullptr);  // not a counter
  EXPECT_EQ(p.hw_counters.size(), 24u);                    // 25 files less lifespan
}

// --- per-file failures keep the rest ---------------------------------------

TEST(IbClassTest, NoPmaValueIsOneErrorLineRestKept) {
  MemorySysfsReader r = roceHost();
  r.addFile("class/infiniband/mlx5_0/ports/1/counters/symbol_error", "N/A (no PMA)\n");
  std::vector<std::string> errors;
  auto devices = IbClass(r, DeviceFilter(), kClock).read(&errors).value();
  ASSERT_EQ(errors.size(), 1u);
  EXPECT_NE(errors[0].find("/sys/class/infiniband/mlx5_0/ports/1/counters/symbol_error"),
            std::string::npos);
  EXPECT_NE(errors[0].find("N/A (no PMA)"), std::string::npos);
  const IbPort& p = devices[0].ports[0];
  EXPECT_EQ(counter(p.counters, "symbol_error"), nullptr);  // absent, not 0
  EXPECT_EQ(counter(p.counters, "port_xmit_data")->raw, 1000u);
  EXPECT_EQ(devices[1].ports[0].counters.size(), 2u);
}

TEST(IbClassTest, EinvalReadIsOneErrorLineRestKept) {
  MemorySysfsReader r = roceHost();
  const std::string rel = "class/infiniband/mlx5_1/ports/1/counters/port_xmit_data";
  r.failRead(rel, statusFromErrno(EINVAL, "/sys/" + rel));
  std::vector<std::string> errors;
  auto devices = IbClass(r, DeviceFilter(), kClock).read(&errors).value();
  ASSERT_EQ(errors.size(), 1u);
  EXPECT_NE(errors[0].find("/sys/" + rel), std::string::npos);
  EXPECT_NE(errors[0].find("EINVAL"), std::string::npos);
  EXPECT_EQ(counter(devices[1].ports[0].counters, "port_xmit_data"), nullptr);
  EXPECT_EQ(counter(devices[1].ports[0].counters, "symbol_error")->raw, 0u);
  EXPECT_EQ(devices[1].ports[0].hw_counters.size(), 1u);
}

TEST(IbClassTest, EmptyTruncatedAndNonNumericFiles) {
  MemorySysfsReader r = roceHost();
  const std::string p = "class/infiniband/mlx5_0/ports/1/";
  r.addFile(p + "hw_counters/np_cnp_sent", "\n");
  r.addFile(p + "state", "4:");
  r.addFile(p + "rate", "100 Gb/");
  r.addFile(p + "counters/symbol_error", "0x1f\n");
  r.addFile("class/infiniband/mlx5_0/fw_ver", "");
  std::vector<std::string> errors;
  auto devices = IbClass(r, DeviceFilter(), kClock).read(&errors).value();
  EXPECT_EQ(errors.size(), 5u);
  EXPECT_TRUE(anyContains(errors, "/sys/" + p + "hw_counters/np_cnp_sent: empty value"));
  EXPECT_TRUE(anyContains(errors, "/sys/" + p + "state: truncated"));
  EXPECT_TRUE(anyContains(errors, "/sys/" + p + "rate: "));
  EXPECT_TRUE(anyContains(errors, "\"0x1f\""));
  EXPECT_TRUE(anyContains(errors, "mlx5_0/fw_ver: empty value"));
  const IbPort& port = devices[0].ports[0];
  EXPECT_FALSE(port.state.has_value());
  EXPECT_FALSE(port.rate_bps.has_value());
  EXPECT_FALSE(devices[0].fw_ver.has_value());
  EXPECT_EQ(port.phys_state->value.name, "LinkUp");  // neighbours unaffected
  EXPECT_EQ(devices[1].ports[0].rate_bps->value, 100000000000ULL);
}

TEST(IbClassTest, NoCountersDirIsNotAnError) {
  MemorySysfsReader r;
  const std::string d = "class/infiniband/bnxt_re0/ports/1/";
  r.addFile(d + "state", "4: ACTIVE\n");
  r.addFile(d + "link_layer", "Ethernet\n");
  r.addFile(d + "hw_counters/rx_pkts", "12\n");
  r.addFile("class/infiniband/irdma0/ports/1/state", "1: DOWN\n");
  std::vector<std::string> errors;
  auto devices = IbClass(r, DeviceFilter(), kClock).read(&errors).value();
  EXPECT_TRUE(errors.empty());
  ASSERT_EQ(devices.size(), 2u);
  EXPECT_TRUE(devices[0].ports[0].counters.empty());
  EXPECT_EQ(counter(devices[0].ports[0].hw_counters, "rx_pkts")->raw, 12u);
  EXPECT_EQ(devices[1].ports[0].state->value.name, "DOWN");
  EXPECT_FALSE(devices[1].fw_ver.has_value());
}

// --- device-level failures ---------------------------------------------------

TEST(IbClassTest, DeviceVanishedAfterListingIsOneLine) {
  MemorySysfsReader mem = roceHost();
  RecordingSysfsReader r(mem);
  r.setAfterHook([&](const std::string& path) {
    if (path == "class/infiniband") mem.removeTree("class/infiniband/mlx5_0");
  });
  std::vector<std::string> errors;
  auto devices = IbClass(r, DeviceFilter(), kClock).read(&errors).value();
  ASSERT_EQ(errors.size(), 1u);
  EXPECT_NE(errors[0].find("mlx5_0 vanished"), std::string::npos);
  ASSERT_EQ(devices.size(), 1u);
  EXPECT_EQ(devices[0].name, "mlx5_1");
  EXPECT_EQ(devices[0].ports[0].netdev->value, "ens1f1np1");
}

TEST(IbClassTest, DeviceVanishedMidReadIsOneLineAndNoPartialData) {
  MemorySysfsReader mem = roceHost();
  RecordingSysfsReader r(mem);
  r.setAfterHook([&](const std::string& path) {
    if (path == "class/infiniband/mlx5_0/ports/1/state") mem.removeTree("class/infiniband/mlx5_0");
  });
  std::vector<std::string> errors;
  auto devices = IbClass(r, DeviceFilter(), kClock).read(&errors).value();
  ASSERT_EQ(errors.size(), 1u) << errors[0] << " / " << errors.back();
  EXPECT_NE(errors[0].find("rdma device mlx5_0 vanished"), std::string::npos);
  ASSERT_EQ(devices.size(), 1u);
  EXPECT_EQ(devices[0].name, "mlx5_1");
}

TEST(IbClassTest, ExcludedDeviceIsNeverRead) {
  MemorySysfsReader mem = roceHost();
  RecordingSysfsReader r(mem);
  std::vector<std::string> errors;
  auto devices = IbClass(r, DeviceFilter({}, {"mlx5_1"}), kClock).read(&errors).value();
  ASSERT_EQ(devices.size(), 1u);
  EXPECT_EQ(devices[0].name, "mlx5_0");
  EXPECT_FALSE(r.touched().empty());
  for (const std::string& p : r.touched()) {
    EXPECT_EQ(p.find("mlx5_1"), std::string::npos) << "excluded device touched: " << p;
  }
}

TEST(IbClassTest, IncludeGlobSelectsDevices) {
  MemorySysfsReader mem = roceHost();
  mem.addFile("class/infiniband/bnxt_re0/fw_ver", "1\n");
  RecordingSysfsReader r(mem);
  std::vector<std::string> errors;
  auto devices = IbClass(r, DeviceFilter({"mlx5_[1-9]"}, {}), kClock).read(&errors).value();
  ASSERT_EQ(devices.size(), 1u);
  EXPECT_EQ(devices[0].name, "mlx5_1");
  for (const std::string& p : r.touched()) {
    EXPECT_EQ(p.find("bnxt_re0"), std::string::npos) << p;
    EXPECT_EQ(p.find("mlx5_0"), std::string::npos) << p;
  }
}

// --- netdev discovery --------------------------------------------------------

TEST(IbClassTest, NetdevFromGidTableSkipsEinvalSlots) {
  MemorySysfsReader r = roceHost();
  std::vector<std::string> errors;
  auto devices = IbClass(r, DeviceFilter(), kClock).read(&errors).value();
  EXPECT_TRUE(errors.empty()) << errors.front();  // the EINVAL slot is no error
  EXPECT_EQ(devices[0].ports[0].netdev->value, "ens1f0np0");
  EXPECT_EQ(devices[1].ports[0].netdev->value, "ens1f1np1");
}

TEST(IbClassTest, NetdevFromDeviceNetFallback) {
  MemorySysfsReader r;
  r.addFile("class/infiniband/mlx5_0/ports/1/link_layer", "InfiniBand\n");
  r.addFile("class/infiniband/mlx5_0/device/net/ib0/dev_port", "0\n");
  r.addFile("class/infiniband/mlx5_2/ports/1/link_layer", "Ethernet\n");
  r.addFile("class/infiniband/mlx5_2/ports/2/link_layer", "Ethernet\n");
  r.addFile("class/infiniband/mlx5_2/device/net/eth4/dev_port", "0\n");
  r.addFile("class/infiniband/mlx5_2/device/net/eth5/dev_port", "1\n");
  std::vector<std::string> errors;
  auto devices = IbClass(r, DeviceFilter(), kClock).read(&errors).value();
  EXPECT_TRUE(errors.empty());
  EXPECT_EQ(devices[0].ports[0].netdev->value, "ib0");
  EXPECT_EQ(devices[1].ports[0].netdev->value, "eth4");
  EXPECT_EQ(devices[1].ports[1].netdev->value, "eth5");
}

// --- the real reader ---------------------------------------------------------

TEST(IbClassTest, RealReaderDirectoryWhereFileExpectedIsEisdir) {
  TempTree t;
  t.write("class/infiniband/mlx5_0/ports/1/counters/port_rcv_packets", "541889824\n");
  t.mkdir("class/infiniband/mlx5_0/ports/1/counters/port_rcv_errors");
  SysfsReaderImpl reader(t.root());
  std::vector<std::string> errors;
  auto devices = IbClass(reader, DeviceFilter(), kClock).read(&errors).value();
  ASSERT_EQ(errors.size(), 1u);
  EXPECT_NE(errors[0].find(t.root() + "/class/infiniband/mlx5_0/ports/1/counters/port_rcv_errors"),
            std::string::npos);
  EXPECT_NE(errors[0].find("EISDIR"), std::string::npos);
  EXPECT_EQ(counter(devices[0].ports[0].counters, "port_rcv_packets")->raw, 541889824u);
}

TEST(IbClassTest, MissingRootIsUnavailableNamingThePath) {
  SysfsReaderImpl reader("/nonexistent/rdmagw-sys");
  std::vector<std::string> errors;
  auto devices = IbClass(reader, DeviceFilter(), kClock).read(&errors);
  ASSERT_FALSE(devices.isOk());
  EXPECT_EQ(devices.status().code(), Status::Code::kUnavailable);
  EXPECT_NE(devices.status().message().find("/nonexistent/rdmagw-sys/class/infiniband"),
            std::string::npos);
  EXPECT_NE(devices.status().message().find("ENOENT"), std::string::npos);
}

TEST(SysfsReaderImplTest, ReadsAndListsSorted) {
  TempTree t;
  t.write("b", "2\n");
  t.write("a/x", "1\n");
  SysfsReaderImpl r(t.root() + "/");
  EXPECT_EQ(r.readFile("b").value(), "2\n");
  EXPECT_EQ(r.listDir("").value(), (std::vector<std::string>{"a", "b"}));
  EXPECT_EQ(r.readFile("nope").status().code(), Status::Code::kNotFound);
  EXPECT_EQ(r.displayPath("a/x"), t.root() + "/a/x");
}

// The real reader's one-walk directory read gives what listing and reading
// each file gives: the same names in order, contents and errors.
TEST(SysfsReaderImplTest, ReadDirMatchesListThenRead) {
  TempTree t;
  t.write("c/np_cnp_sent", "2048\n");
  t.write("c/b_empty", "");
  t.write("c/a_long", std::string(9000, '7') + "\n");  // more than one read()
  t.mkdir("c/sub");
  SysfsReaderImpl r(t.root());
  auto one_walk = r.readDir("c");
  auto per_file = r.SysfsReader::readDir("c");  // the default: listDir + readFile
  ASSERT_TRUE(one_walk.isOk());
  ASSERT_TRUE(per_file.isOk());
  ASSERT_EQ(one_walk->size(), 4u);
  ASSERT_EQ(per_file->size(), 4u);
  for (size_t i = 0; i < one_walk->size(); ++i) {
    const SysfsFile& a = one_walk->at(i);
    const SysfsFile& b = per_file->at(i);
    EXPECT_EQ(a.name, b.name);
    ASSERT_EQ(a.content.isOk(), b.content.isOk()) << a.name;
    if (a.content.isOk()) {
      EXPECT_EQ(a.content.value(), b.content.value()) << a.name;
    } else {
      EXPECT_EQ(a.content.status().message(), b.content.status().message());
    }
  }
  EXPECT_EQ(one_walk->at(0).name, "a_long");
  EXPECT_EQ(one_walk->at(0).content->size(), 9001u);
  EXPECT_EQ(one_walk->at(2).content.value(), "2048\n");
  ASSERT_FALSE(one_walk->at(3).content.isOk());  // c/sub
  EXPECT_NE(one_walk->at(3).content.status().message().find(t.root() + "/c/sub"), std::string::npos);
  EXPECT_NE(one_walk->at(3).content.status().message().find("EISDIR"), std::string::npos);
  auto missing = r.readDir("nope");
  ASSERT_FALSE(missing.isOk());
  EXPECT_EQ(missing.status().code(), Status::Code::kNotFound);
  EXPECT_NE(missing.status().message().find(t.root() + "/nope"), std::string::npos);
}

TEST(MemorySysfsReaderTest, DumpLinesAndBadLines) {
  std::vector<std::string> bad;
  MemorySysfsReader r = MemorySysfsReader::fromDump(
      "# comment\n/sys/class/infiniband/d/ports/1/state: 4: ACTIVE\n"
      "/sys/class/infiniband/d/empty:\n/sys/class/infiniband/d/device/net/\n"
      "garbage line\n/etc/passwd: x\n",
      &bad);
  EXPECT_EQ(r.readFile("class/infiniband/d/ports/1/state").value(), "4: ACTIVE\n");
  EXPECT_EQ(r.readFile("class/infiniband/d/empty").value(), "\n");
  EXPECT_TRUE(r.listDir("class/infiniband/d/device/net").value().empty());
  EXPECT_EQ(r.listDir("class/infiniband/d").value(),
            (std::vector<std::string>{"device", "empty", "ports"}));
  ASSERT_EQ(bad.size(), 2u);
  EXPECT_NE(bad[0].find("line 5"), std::string::npos);
  EXPECT_EQ(r.readFile("class/infiniband/d/ports").status().message(),
            "/sys/class/infiniband/d/ports: Is a directory (EISDIR)");
}

}  // namespace
}  // namespace rdmagw::southbound::rdma
