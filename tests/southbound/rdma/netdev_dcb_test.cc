// A netdev's DCB configuration (southbound/rdma/netdev_dcb.h): `dcb -j pfc
// show` JSON, the mlx5 DCQCN knobs and the MTU, read by the collector.

#include "southbound/rdma/netdev_dcb.h"

#include <gtest/gtest.h>

#include <filesystem>

#include "southbound/rdma/ethtool_text.h"
#include "southbound/rdma/memory_sysfs_reader.h"
#include "southbound/rdma/parsers.h"
#include "tests/southbound/rdma/rdma_test_util.h"

namespace rdmagw::southbound::rdma {
namespace {

using rdmagw::testing::TempTree;
using rdmagw::testing::anyErrorContains;
using rdmagw::testing::strAt;
using rdmagw::testing::u64At;

constexpr TimestampNs kTs = 1700000000000000000;
const std::string kIf = "/interfaces/interface[name=ens1f0np0]";

// What iproute2 6.x prints for `dcb -j pfc show dev ens6` with prio-pfc 3:on.
constexpr std::string_view kPfc3 =
    R"({"pfc_cap":8,"macsec_bypass":false,"delay":0,"prio_pfc":[false,false,false,true,false,false,false,false]})";

// `dcb -j app show dev ens6` with `dscp-prio AF31:3 CS6:6`: iproute2's
// dcb/dcb_app.c prints each dscp-prio rule as a [key, priority] pair under
// "dscp_prio" (key a DSCP name, or a number with -N). Reconstructed from its
// print code (no recorded output found); no rules at all print {}.
constexpr std::string_view kAppDscp = R"({"dscp_prio":[["AF31",3],["CS6",6]]})";

TEST(DcbAppJsonTest, DscpRulesMeanDscpTrustElsePcp) {
  Result<std::string> dscp = parseDcbAppTrust(kAppDscp);
  ASSERT_TRUE(dscp.isOk()) << dscp.status().toString();
  EXPECT_EQ(*dscp, "dscp");
  for (std::string_view pcp : {std::string_view("{}"), std::string_view(R"({"dscp_prio":[]})"),
                               std::string_view(R"({"default_prio":[3],"ethtype_prio":[["0x8915",3]]})")}) {
    Result<std::string> r = parseDcbAppTrust(pcp);
    ASSERT_TRUE(r.isOk()) << pcp;
    EXPECT_EQ(*r, "pcp") << pcp;
  }
}

TEST(DcbAppJsonTest, BrokenInputIsAClearError) {
  for (std::string_view bad : {std::string_view(R"({"dscp_prio":[["AF31",3)"), std::string_view(R"({"dscp_prio":3})"),
                               std::string_view("[]"), std::string_view("Attribute read")}) {
    Result<std::string> r = parseDcbAppTrust(bad);
    ASSERT_FALSE(r.isOk()) << bad;
    EXPECT_NE(r.status().message().find("dcb app JSON"), std::string::npos) << r.status().message();
  }
}

TEST(DcbAppJsonTest, ParseFormatNamesTheNetdev) {
  const ParserFormat* f = nullptr;
  for (const ParserFormat& p : rdmaParserFormats()) {
    if (p.name == "dcb-app-json") f = &p;
  }
  ASSERT_NE(f, nullptr);
  PollBatch b;
  ASSERT_TRUE(f->parse("# dcb -j app show dev ens1f0np0\n" + std::string(kAppDscp), kTs, b).isOk());
  EXPECT_EQ(strAt(b, kIf + "/ethernet/dcb/state/trust"), "dscp");
  PollBatch broken;
  EXPECT_FALSE(f->parse("{", kTs, broken).isOk());
}

TEST(DcbPfcJsonTest, ArrayAndObjectForms) {
  Result<uint64_t> a = parseDcbPfcJson(kPfc3);
  ASSERT_TRUE(a.isOk()) << a.status().toString();
  EXPECT_EQ(*a, 0x08u);
  Result<uint64_t> o = parseDcbPfcJson(
      R"({"prio_pfc":{"0":false,"1":false,"2":false,"3":true,"4":true,"5":false,"6":false,"7":false}})");
  ASSERT_TRUE(o.isOk());
  EXPECT_EQ(*o, 0x18u);
  Result<uint64_t> none = parseDcbPfcJson(R"({"prio_pfc":[false,false,false,false,false,false,false,false]})");
  ASSERT_TRUE(none.isOk());
  EXPECT_EQ(*none, 0u);
}

TEST(DcbPfcJsonTest, BrokenInputIsAClearError) {
  for (std::string_view bad : {std::string_view(R"({"prio_pfc":[false,true)"), std::string_view(R"({"pfc_cap":8})"),
                               std::string_view(R"({"prio_pfc":[false,true,"on",false,false,false,false,false]})"),
                               std::string_view(R"({"prio_pfc":[true,true,true]})"), std::string_view("Attribute read")}) {
    Result<uint64_t> r = parseDcbPfcJson(bad);
    ASSERT_FALSE(r.isOk()) << bad;
    EXPECT_NE(r.status().message().find("dcb pfc JSON"), std::string::npos) << r.status().message();
  }
}

TEST(DcbPfcJsonTest, ParseFormatNamesTheNetdev) {
  const ParserFormat* f = nullptr;
  for (const ParserFormat& p : rdmaParserFormats()) {
    if (p.name == "dcb-pfc-json") f = &p;
  }
  ASSERT_NE(f, nullptr);
  PollBatch b;
  ASSERT_TRUE(f->parse("# dcb -j pfc show dev ens1f0np0\n" + std::string(kPfc3), kTs, b).isOk());
  EXPECT_EQ(u64At(b, kIf + "/ethernet/pfc/state/enabled-priorities"), 0x08u);
  PollBatch broken;
  EXPECT_FALSE(f->parse("{", kTs, broken).isOk());
}

void writeKnobs(MemorySysfsReader& r, const std::string& point, uint64_t bits) {
  for (int p = 0; p < 8; ++p) {
    r.addFile("class/net/ens1f0np0/ecn/" + point + "/enable/" + std::to_string(p), (bits >> p) & 1 ? "1\n" : "0\n");
  }
}

TEST(NetdevDcbTest, MtuKnobsAndPfc) {
  TempTree t;
  t.write("ethtool/ens1f0np0.dcb-pfc.json", std::string(kPfc3));
  t.write("ethtool/ens1f0np0.dcb-app.json", std::string(kAppDscp));
  EthtoolText source(t.path("ethtool"));
  MemorySysfsReader r;
  r.addFile("class/net/ens1f0np0/mtu", "9000\n");
  writeKnobs(r, "roce_np", 0xff);
  writeKnobs(r, "roce_rp", 0xf7);
  PollBatch b;
  appendNetdevDcb(r, &source, "ens1f0np0", kTs, b);
  EXPECT_TRUE(b.errors.empty()) << b.errors.front();
  EXPECT_EQ(u64At(b, kIf + "/state/mtu"), 9000u);
  EXPECT_EQ(u64At(b, kIf + "/ethernet/dcqcn/state/np-enabled-priorities"), 0xffu);
  EXPECT_EQ(u64At(b, kIf + "/ethernet/dcqcn/state/rp-enabled-priorities"), 0xf7u);
  EXPECT_EQ(u64At(b, kIf + "/ethernet/pfc/state/enabled-priorities"), 0x08u);
  EXPECT_EQ(strAt(b, kIf + "/ethernet/dcb/state/trust"), "dscp");
}

TEST(NetdevDcbTest, WhatIsNotThereIsLeftOutQuietly) {
  // Not mlx5 (no ecn/), no dcb output: only the MTU, no error.
  TempTree t;
  EthtoolText source(t.path("ethtool"));
  MemorySysfsReader r;
  r.addFile("class/net/ens1f0np0/mtu", "1500\n");
  PollBatch b;
  appendNetdevDcb(r, &source, "ens1f0np0", kTs, b);
  EXPECT_TRUE(b.errors.empty()) << b.errors.front();
  ASSERT_EQ(b.updates.size(), 1u);
  EXPECT_EQ(u64At(b, kIf + "/state/mtu"), 1500u);
}

TEST(NetdevDcbTest, BrokenValuesAreErrorLinesAndTheRestStays) {
  TempTree t;
  t.write("ethtool/ens1f0np0.dcb-pfc.json", "{\"prio_pfc\":[tru");
  t.write("ethtool/ens1f0np0.dcb-app.json", "{\"dscp_prio\":");
  EthtoolText source(t.path("ethtool"));
  MemorySysfsReader r;
  r.addFile("class/net/ens1f0np0/mtu", "jumbo\n");
  writeKnobs(r, "roce_np", 0xff);
  r.failRead("class/net/ens1f0np0/ecn/roce_np/enable/5", Status::ioError("EIO"));
  writeKnobs(r, "roce_rp", 0x08);
  PollBatch b;
  appendNetdevDcb(r, &source, "ens1f0np0", kTs, b);
  EXPECT_TRUE(anyErrorContains(b, "/sys/class/net/ens1f0np0/mtu: not a number: 'jumbo'"));
  EXPECT_TRUE(anyErrorContains(b, "roce_np/enable/5"));
  EXPECT_TRUE(anyErrorContains(b, "ens1f0np0: dcb pfc JSON"));
  EXPECT_TRUE(anyErrorContains(b, "ens1f0np0: dcb app JSON"));
  EXPECT_FALSE(strAt(b, kIf + "/ethernet/dcb/state/trust"));
  EXPECT_FALSE(u64At(b, kIf + "/state/mtu"));
  EXPECT_FALSE(u64At(b, kIf + "/ethernet/dcqcn/state/np-enabled-priorities"));
  EXPECT_EQ(u64At(b, kIf + "/ethernet/dcqcn/state/rp-enabled-priorities"), 0x08u);
}

// `dcb -j ets|buffer|app show` as iproute2 prints them (member names from
// its dcb/*.c; tests/fixtures/roce-config/SYNTHETIC_dcb_-j_*_show__iproute2-keys.json).
constexpr std::string_view kEts =
    R"({"willing":false,"ets_cap":8,"cbs":false,"tc_bw":[10,10,10,60,10,0,0,0],"pg_bw":[0,0,0,0,0,0,0,0],)"
    R"("tc_tsa":["ets","ets","ets","ets","ets","strict","strict","strict"],"prio_tc":[0,1,2,3,4,5,6,7]})";
constexpr std::string_view kBuffer =
    R"({"prio_buffer":[0,0,0,1,0,0,0,0],"buffer_size":[130944,130944,0,0,0,0,0,0],"total_size":261888})";
constexpr std::string_view kAppMap = R"({"dscp_prio":[[0,0],[26,3],[48,6]]})";

// A RoCE netdev with every configuration source: dcb ets/buffer/app and the
// mlx5 CNP knobs.
void writeRoceConfig(TempTree& t, MemorySysfsReader& r) {
  t.write("ethtool/ens1f0np0.dcb-pfc.json", std::string(kPfc3));
  t.write("ethtool/ens1f0np0.dcb-app.json", std::string(kAppMap));
  t.write("ethtool/ens1f0np0.dcb-ets.json", std::string(kEts));
  t.write("ethtool/ens1f0np0.dcb-buffer.json", std::string(kBuffer));
  r.addFile("class/net/ens1f0np0/mtu", "9000\n");
  writeKnobs(r, "roce_np", 0x08);
  writeKnobs(r, "roce_rp", 0x08);
  r.addFile("class/net/ens1f0np0/ecn/roce_np/cnp_dscp", "48\n");
  r.addFile("class/net/ens1f0np0/ecn/roce_np/cnp_802p_prio", "6\n");
}

TEST(NetdevDcbTest, RoceConfigurationEtsBuffersDscpMapAndCnpKnobs) {
  TempTree t;
  MemorySysfsReader r;
  writeRoceConfig(t, r);
  EthtoolText source(t.path("ethtool"));
  PollBatch b;
  appendNetdevDcb(r, &source, "ens1f0np0", kTs, b);
  EXPECT_TRUE(b.errors.empty()) << b.errors.front();
  const std::string e = kIf + "/ethernet";
  EXPECT_EQ(u64At(b, e + "/dcqcn/state/cnp-dscp"), 48u);
  EXPECT_EQ(u64At(b, e + "/dcqcn/state/cnp-802p-priority"), 6u);
  EXPECT_EQ(u64At(b, e + "/dcb/dscp-priorities/dscp-priority[dscp=0]/state/priority"), 0u);
  EXPECT_EQ(u64At(b, e + "/dcb/dscp-priorities/dscp-priority[dscp=26]/state/priority"), 3u);
  EXPECT_EQ(u64At(b, e + "/dcb/dscp-priorities/dscp-priority[dscp=48]/state/priority"), 6u);
  EXPECT_FALSE(u64At(b, e + "/dcb/dscp-priorities/dscp-priority[dscp=40]/state/priority"));
  for (uint64_t p = 0; p < 8; ++p) {
    const std::string prio = e + "/dcb/priorities/priority[id=" + std::to_string(p) + "]/state/";
    EXPECT_EQ(u64At(b, prio + "traffic-class"), p);
    // Priority 3 lands in buffer 1, the others in buffer 0: both 130944 bytes.
    EXPECT_EQ(u64At(b, prio + "receive-buffer-bytes"), 130944u) << p;
  }
  const std::string tc = e + "/dcb/traffic-classes/traffic-class";
  EXPECT_EQ(strAt(b, tc + "[id=3]/state/tsa"), "ets");
  EXPECT_EQ(u64At(b, tc + "[id=3]/state/bandwidth-percent"), 60u);
  EXPECT_EQ(strAt(b, tc + "[id=7]/state/tsa"), "strict");
  EXPECT_EQ(u64At(b, tc + "[id=7]/state/bandwidth-percent"), 0u);
  // The consistency leaves are still there, once each.
  EXPECT_EQ(strAt(b, e + "/dcb/state/trust"), "dscp");
  size_t trust = 0;
  for (const Update& u : b.updates) trust += u.path == e + "/dcb/state/trust";
  EXPECT_EQ(trust, 1u);
}

TEST(NetdevDcbTest, RoceConfigurationBrokenPiecesAreErrorLinesTheRestStays) {
  TempTree t;
  MemorySysfsReader r;
  writeRoceConfig(t, r);
  t.write("ethtool/ens1f0np0.dcb-ets.json", R"({"tc_bw":[10,10,10,60,10,0,0,0],"prio_tc":[0,1,2,3,4,5,6,9]})");
  t.write("ethtool/ens1f0np0.dcb-buffer.json", "{\"prio_buffer\":[0,0");
  r.addFile("class/net/ens1f0np0/ecn/roce_np/cnp_dscp", "64\n");
  r.failRead("class/net/ens1f0np0/ecn/roce_np/cnp_802p_prio", Status::ioError("EIO"));
  EthtoolText source(t.path("ethtool"));
  PollBatch b;
  appendNetdevDcb(r, &source, "ens1f0np0", kTs, b);
  const std::string e = kIf + "/ethernet";
  EXPECT_TRUE(anyErrorContains(b, "cnp_dscp: 64 is not a DSCP"));
  EXPECT_TRUE(anyErrorContains(b, "roce_np/cnp_802p_prio"));
  EXPECT_TRUE(anyErrorContains(b, "ens1f0np0: dcb ets JSON"));
  EXPECT_TRUE(anyErrorContains(b, "ens1f0np0: dcb buffer JSON"));
  EXPECT_FALSE(u64At(b, e + "/dcqcn/state/cnp-dscp"));
  EXPECT_FALSE(u64At(b, e + "/dcqcn/state/cnp-802p-priority"));
  // prio_tc has a bad entry: no priority's TC; tc_bw parsed and stays.
  EXPECT_FALSE(u64At(b, e + "/dcb/priorities/priority[id=0]/state/traffic-class"));
  EXPECT_EQ(u64At(b, e + "/dcb/traffic-classes/traffic-class[id=3]/state/bandwidth-percent"), 60u);
  EXPECT_FALSE(u64At(b, e + "/dcb/priorities/priority[id=3]/state/receive-buffer-bytes"));
  EXPECT_EQ(u64At(b, e + "/dcb/dscp-priorities/dscp-priority[dscp=26]/state/priority"), 3u);
  EXPECT_EQ(u64At(b, e + "/pfc/state/enabled-priorities"), 0x08u);
}

TEST(NetdevDcbTest, PcpTrustHasNoDscpMap) {
  TempTree t;
  MemorySysfsReader r;
  writeRoceConfig(t, r);
  t.write("ethtool/ens1f0np0.dcb-app.json", "{}");
  EthtoolText source(t.path("ethtool"));
  PollBatch b;
  appendNetdevDcb(r, &source, "ens1f0np0", kTs, b);
  EXPECT_TRUE(b.errors.empty()) << b.errors.front();
  EXPECT_EQ(strAt(b, kIf + "/ethernet/dcb/state/trust"), "pcp");
  for (const Update& u : b.updates) EXPECT_EQ(u.path.find("dscp-priorities"), std::string::npos) << u.path;
}

TEST(NetdevDcbTest, LinkStateAndSpeedForIfMib) {
  MemorySysfsReader r;
  r.addFile("class/net/ens1f0np0/mtu", "9000\n");
  r.addFile("class/net/ens1f0np0/operstate", "up\n");
  r.addFile("class/net/ens1f0np0/flags", "0x1003\n");
  r.addFile("class/net/ens1f0np0/speed", "100000\n");
  PollBatch b;
  appendNetdevDcb(r, nullptr, "ens1f0np0", kTs, b);
  EXPECT_TRUE(b.errors.empty()) << b.errors.front();
  EXPECT_EQ(strAt(b, kIf + "/state/oper-status"), "UP");
  EXPECT_EQ(strAt(b, kIf + "/state/admin-status"), "UP");
  EXPECT_EQ(u64At(b, kIf + "/state/speed"), 100'000'000'000u);
  EXPECT_EQ(strAt(b, kIf + "/ethernet/state/port-speed"), "SPEED_100GB");
}

TEST(NetdevDcbTest, ADownLinkHasNoSpeed) {
  // The kernel says -1 (or fails the read with EINVAL) while the link is
  // down: no speed, and that is no error.
  for (bool einval : {false, true}) {
    MemorySysfsReader r;
    r.addFile("class/net/ens1f0np0/operstate", "lowerlayerdown\n");
    r.addFile("class/net/ens1f0np0/flags", "0x1002\n");
    if (einval) {
      r.failRead("class/net/ens1f0np0/speed", Status::ioError("EINVAL"));
    } else {
      r.addFile("class/net/ens1f0np0/speed", "-1\n");
    }
    PollBatch b;
    appendNetdevDcb(r, nullptr, "ens1f0np0", kTs, b);
    EXPECT_TRUE(b.errors.empty()) << b.errors.front();
    EXPECT_EQ(strAt(b, kIf + "/state/oper-status"), "LOWER_LAYER_DOWN");
    EXPECT_EQ(strAt(b, kIf + "/state/admin-status"), "DOWN");
    EXPECT_FALSE(u64At(b, kIf + "/state/speed"));
    EXPECT_FALSE(strAt(b, kIf + "/ethernet/state/port-speed"));
  }
  // A rate OpenConfig has no identity for: the number, and SPEED_UNKNOWN.
  MemorySysfsReader r;
  r.addFile("class/net/ib0/speed", "56000\n");
  r.addFile("class/net/ib0/flags", "garbage\n");
  PollBatch b;
  appendNetdevDcb(r, nullptr, "ib0", kTs, b);
  EXPECT_EQ(u64At(b, "/interfaces/interface[name=ib0]/state/speed"), 56'000'000'000u);
  EXPECT_EQ(strAt(b, "/interfaces/interface[name=ib0]/ethernet/state/port-speed"), "SPEED_UNKNOWN");
  EXPECT_TRUE(anyErrorContains(b, "flags: not a hex number"));
}

TEST(NetdevDcbTest, RealDcbOnANetdevWithoutDcbnlIsNotFound) {
  // Loopback has no DCBNL: iproute2's dcb fails (or is missing): unknown, quietly.
  for (const char* object : {"pfc", "app"}) {
    Result<std::string> r = runDcbShow(object, "lo");
    ASSERT_FALSE(r.isOk());
    EXPECT_EQ(r.status().code(), Status::Code::kNotFound) << r.status().toString();
  }
}

// ----- mlnx_qos where dcb shows nothing -----

std::string roceFixture(const std::string& name) {
  return testing::readFile(std::string(RDMAGW_SOURCE_DIR) + "/tests/fixtures/roce-config/" + name);
}

const ParserFormat* format(const std::string& name) {
  for (const ParserFormat& p : rdmaParserFormats()) {
    if (p.name == name) return &p;
  }
  return nullptr;
}

TEST(MlnxQosTest, ParseFormatReadsTheRecordedConnectX7) {
  const ParserFormat* f = format("mlnx-qos");
  ASSERT_NE(f, nullptr);
  PollBatch b;
  ASSERT_TRUE(f->parse(roceFixture("linux_mlnx_qos_-i_ens4np0__feishu-3fs-troubleshooting.txt"), kTs, b).isOk());
  EXPECT_TRUE(b.errors.empty()) << b.errors.front();
  const std::string e = "/interfaces/interface[name=ens4np0]/ethernet";  // from the prompt line
  EXPECT_EQ(strAt(b, e + "/dcb/state/trust"), "dscp");
  EXPECT_EQ(u64At(b, e + "/pfc/state/enabled-priorities"), 0x20u);
  EXPECT_EQ(u64At(b, e + "/dcb/dscp-priorities/dscp-priority[dscp=40]/state/priority"), 5u);
  EXPECT_EQ(u64At(b, e + "/dcb/dscp-priorities/dscp-priority[dscp=48]/state/priority"), 6u);
  EXPECT_EQ(u64At(b, e + "/dcb/priorities/priority[id=5]/state/traffic-class"), 5u);
  EXPECT_EQ(u64At(b, e + "/dcb/priorities/priority[id=5]/state/receive-buffer-bytes"), 220896u);
  EXPECT_EQ(u64At(b, e + "/dcb/priorities/priority[id=0]/state/receive-buffer-bytes"), 19872u);
  EXPECT_EQ(strAt(b, e + "/dcb/traffic-classes/traffic-class[id=5]/state/tsa"), "strict");
  EXPECT_FALSE(u64At(b, e + "/dcb/traffic-classes/traffic-class[id=5]/state/bandwidth-percent"));
  EXPECT_EQ(u64At(b, e + "/dcb/traffic-classes/traffic-class[id=2]/state/bandwidth-percent"), 80u);

  // Line breaks lost, the netdev named by a '# Command:' line.
  PollBatch z;
  ASSERT_TRUE(f->parse(roceFixture("linux_mlnx_qos_-i_ens2f0_--pfc__zartbot-blog.txt"), kTs, z).isOk());
  EXPECT_EQ(strAt(z, "/interfaces/interface[name=ens2f0]/ethernet/dcb/state/trust"), "pcp");
  EXPECT_EQ(u64At(z, "/interfaces/interface[name=ens2f0]/ethernet/pfc/state/enabled-priorities"), 0x20u);
}

TEST(MlnxQosTest, ParseFormatBadInputIsAClearError) {
  const ParserFormat* f = format("mlnx-qos");
  ASSERT_NE(f, nullptr);
  PollBatch junk;
  const Status st = f->parse("{\"prio_pfc\":[true]}", kTs, junk);
  EXPECT_EQ(st.code(), Status::Code::kCorrupt) << st.toString();
  EXPECT_TRUE(junk.updates.empty());
  // A bad value is an error line; what parsed stays.
  PollBatch bad;
  ASSERT_TRUE(f->parse("# mlnx_qos -i eth2\nPriority trust state: dscp\nPFC configuration:\n"
                       "        enabled     0   0   0   9   0   0   0   0\n",
                       kTs, bad)
                  .isOk());
  EXPECT_EQ(strAt(bad, "/interfaces/interface[name=eth2]/ethernet/dcb/state/trust"), "dscp");
  EXPECT_FALSE(u64At(bad, "/interfaces/interface[name=eth2]/ethernet/pfc/state/enabled-priorities"));
  EXPECT_TRUE(anyErrorContains(bad, "eth2: mlnx_qos"));
}

TEST(MlnxQosTest, CollectorReadsMlnxQosOnlyWhereDcbHasNothing) {
  const std::string text = roceFixture("linux_mlnx_qos_-i_ens4np0__feishu-3fs-troubleshooting.txt");
  TempTree t;
  t.write("ethtool/ens1f0np0.mlnx_qos.txt", text);
  MemorySysfsReader r;
  r.addFile("class/net/ens1f0np0/mtu", "9000\n");
  EthtoolText source(t.path("ethtool"));
  PollBatch b;
  appendNetdevDcb(r, &source, "ens1f0np0", kTs, b);
  EXPECT_TRUE(b.errors.empty()) << b.errors.front();
  EXPECT_EQ(strAt(b, kIf + "/ethernet/dcb/state/trust"), "dscp");
  EXPECT_EQ(u64At(b, kIf + "/ethernet/pfc/state/enabled-priorities"), 0x20u);
  EXPECT_EQ(u64At(b, kIf + "/ethernet/dcb/dscp-priorities/dscp-priority[dscp=40]/state/priority"), 5u);

  // One dcb object answers: dcb alone, nothing of mlnx_qos (its PFC on 5).
  t.write("ethtool/ens1f0np0.dcb-pfc.json", std::string(kPfc3));
  PollBatch d;
  appendNetdevDcb(r, &source, "ens1f0np0", kTs, d);
  EXPECT_EQ(u64At(d, kIf + "/ethernet/pfc/state/enabled-priorities"), 0x08u);
  EXPECT_FALSE(strAt(d, kIf + "/ethernet/dcb/state/trust"));
  EXPECT_FALSE(u64At(d, kIf + "/ethernet/dcb/dscp-priorities/dscp-priority[dscp=40]/state/priority"));

  // Output that is not mlnx_qos's: an error line naming the netdev, no leaf.
  std::filesystem::remove(t.path("ethtool/ens1f0np0.dcb-pfc.json"));
  t.write("ethtool/ens1f0np0.mlnx_qos.txt", "Traceback (most recent call last):\n  File \"/usr/bin/mlnx_qos\"\n");
  PollBatch e;
  appendNetdevDcb(r, &source, "ens1f0np0", kTs, e);
  EXPECT_TRUE(anyErrorContains(e, "ens1f0np0: mlnx_qos")) << (e.errors.empty() ? "" : e.errors.front());
  EXPECT_FALSE(strAt(e, kIf + "/ethernet/dcb/state/trust"));
}

TEST(MlnxQosTest, RealMlnxQosMissingOrFailingIsNotFound) {
  // No mlx5 netdev here: mlnx_qos is not installed, or fails for loopback.
  Result<std::string> r = runMlnxQos("lo");
  ASSERT_FALSE(r.isOk());
  EXPECT_EQ(r.status().code(), Status::Code::kNotFound) << r.status().toString();
}

}  // namespace
}  // namespace rdmagw::southbound::rdma
