#include "southbound/esxi/esxi_vsish.h"

#include <gtest/gtest.h>

#include "southbound/esxi/esxi_formats.h"
#include "southbound/esxi/esxi_vsish_private.h"
#include "tests/southbound/esxi/esxi_test_util.h"

namespace rdmagw::southbound::esxi {
namespace {

using namespace rdmagw::testing;  // NOLINT

constexpr TimestampNs kTs = 7;
const char* kIntel = "esxi_vsish_-pe_get_pNics_vmnic_stats__intel_ens_disabled.txt";
const char* kNmlx5 = "SYNTHETIC_nmlx5_vsish_pNics_stats.txt";
const char* kPfcTc = "esxi_localcli_networkinternal_nic_privstats_get__intel_pfc_tc.txt";
const char* kVf = "esxi_vsish_-pe_get_net_sriov_vfs_stats__intel_mfd.txt";

TEST(EsxiVsishTest, IntelPeFormGolden) {
  PollBatch b;
  ASSERT_TRUE(parseEsxiVsishStats(readEsxiFixture(kIntel), kTs, b).isOk());
  const std::string c = nic("vmnicX") + "counters/";
  EXPECT_EQ(u64(b, c + "packets-received"), 46037587u);
  EXPECT_EQ(u64(b, c + "packets-sent"), 39956093u);
  EXPECT_EQ(u64(b, c + "bytes-received"), 56926552261ULL);
  EXPECT_EQ(u64(b, c + "bytes-sent"), 49220483692ULL);
  EXPECT_EQ(u64(b, c + "multicast-packets-received"), 3037u);
  EXPECT_EQ(u64(b, c + "broadcast-packets-received"), 42u);
  EXPECT_EQ(u64(b, c + "multicast-packets-sent"), 5052u);
  EXPECT_EQ(u64(b, c + "broadcast-packets-sent"), 125u);
  EXPECT_EQ(u64(b, c + "receive-crc-errors"), 0u);
  EXPECT_EQ(u64(b, c + "transmit-window-errors"), 0u);
  // The hw string: "name: number" lines and per-queue "a=1 b=2" lines kept.
  const std::string p = nic("vmnicX") + "driver-private/";
  EXPECT_EQ(u64(b, p + "packets-assigned-to-an-invalid-queue"), 0u);
  EXPECT_EQ(u64(b, p + "rx-length-errors"), 0u);
  EXPECT_EQ(u64(b, p + "txq0-total-pkts"), 22594593u);
  EXPECT_EQ(u64(b, p + "txq0-total-bytes"), 47914437918ULL);
  EXPECT_EQ(u64(b, p + "rxq8-total-pkts"), 46036574u);
  EXPECT_EQ(u64(b, p + "rxq0-csum-err"), 0u);
  EXPECT_TRUE(b.errors.empty()) << b.errors.front();
  // 23 generic rows, 2 single stats, 1 txq line x 6, 9 rxq lines x 5.
  EXPECT_EQ(b.updates.size(), 23u + 2u + 6u + 45u);
  expectSchemaRows(b);
}

TEST(EsxiVsishTest, Nmlx5SyntheticPauseBlock) {
  PollBatch b;
  ASSERT_TRUE(parseEsxiVsishStats(readEsxiFixture(kNmlx5), kTs, b).isOk());
  EXPECT_TRUE(b.errors.empty()) << b.errors.front();
  const std::string n = nic("vmnic4");
  EXPECT_EQ(u64(b, n + "counters/packets-received"), 918273645u);
  EXPECT_EQ(u64(b, n + "counters/receive-packets-dropped"), 17u);
  EXPECT_EQ(u64(b, n + "counters/receive-crc-errors"), 2u);
  EXPECT_EQ(u64(b, n + "pause-counters/rx-pause-ctrl-phy"), 1520u);
  EXPECT_EQ(u64(b, n + "pause-counters/tx-pause-ctrl-phy"), 1266552u);
  EXPECT_EQ(u64(b, n + "pause-counters/rx-global-pause"), 0u);
  EXPECT_EQ(u64(b, n + "pause-counters/tx-global-pause-duration"), 0u);
  EXPECT_EQ(u64(b, n + "pause-counters/rx-global-pause-transition"), 0u);
  EXPECT_EQ(u64(b, n + "pause-counters/tx-pause-storm-warning-events"), 1u);
  EXPECT_EQ(u64(b, n + "pause-counters/tx-pause-storm-error-events"), 0u);
  EXPECT_EQ(u64(b, prio("vmnic4", 3) + "rx-pause"), 1520u);
  EXPECT_EQ(u64(b, prio("vmnic4", 3) + "tx-pause"), 1266552u);
  EXPECT_EQ(u64(b, prio("vmnic4", 3) + "rx-pause-duration"), 34100u);
  EXPECT_EQ(u64(b, prio("vmnic4", 3) + "tx-pause-duration"), 555665182u);
  EXPECT_EQ(u64(b, prio("vmnic4", 3) + "rx-pause-transition"), 640u);
  EXPECT_EQ(u64(b, prio("vmnic4", 0) + "rx-pause"), 0u);
  EXPECT_FALSE(u64(b, prio("vmnic4", 1) + "rx-pause"));
  EXPECT_EQ(u64(b, n + "driver-private/rx-out-of-buffer"), 3u);
  EXPECT_EQ(u64(b, n + "driver-private/rxq0-csum-err"), 0u);
  expectSchemaRows(b);
}

TEST(EsxiVsishTest, PauseNamesInBothCases) {
  EXPECT_EQ(esxiPausePath("vmnic1", "rxPauseCtrlPhy"), nic("vmnic1") + "pause-counters/rx-pause-ctrl-phy");
  EXPECT_EQ(esxiPausePath("vmnic1", "rx_pause_ctrl_phy"), nic("vmnic1") + "pause-counters/rx-pause-ctrl-phy");
  EXPECT_EQ(esxiPausePath("vmnic1", "txPrio7PauseDuration"), prio("vmnic1", 7) + "tx-pause-duration");
  EXPECT_EQ(esxiPausePath("vmnic1", "rx_prio2_pause_transition"), prio("vmnic1", 2) + "rx-pause-transition");
  EXPECT_EQ(esxiPausePath("vmnic1", "rx_prio8_pause"), "");  // no priority 8
  EXPECT_EQ(esxiPausePath("vmnic1", "tx_prio3_pause_transition"), "");  // no schema row
  EXPECT_EQ(esxiPausePath("vmnic1", "rx_prio3_bytes"), "");
}

TEST(EsxiVsishTest, PlainFormWithPrivateBlock) {
  const std::string text =
      "# vsish -e cat /net/pNics/vmnic5/stats\n"
      "packet stats {\n"
      "   -Physical NIC Generic Stats-:\n"
      "   rxpkt:100\n"
      "   txpkt:200\n"
      "   rxbytes:6400\n"
      "   col:0\n"
      "   -Driver Specific Stats-:\n"
      "   rxPauseCtrlPhy: 5\n"
      "   rx_prio3_pause: 4\n"
      "   Port Counters:\n"
      "   rx_crc_errors_phy: 1\n"
      "\n"
      "   fwState=2\n"
      "   link is up at 100G\n"
      "}\n";
  PollBatch b;
  ASSERT_TRUE(parseEsxiVsishStats(text, kTs, b).isOk());
  EXPECT_EQ(u64(b, nic("vmnic5") + "counters/packets-received"), 100u);
  EXPECT_EQ(u64(b, nic("vmnic5") + "counters/bytes-received"), 6400u);
  EXPECT_EQ(u64(b, nic("vmnic5") + "pause-counters/rx-pause-ctrl-phy"), 5u);
  EXPECT_EQ(u64(b, prio("vmnic5", 3) + "rx-pause"), 4u);
  EXPECT_EQ(u64(b, nic("vmnic5") + "driver-private/port-counters-rx-crc-errors-phy"), 1u);
  EXPECT_EQ(u64(b, nic("vmnic5") + "driver-private/fw-state"), 2u);
  EXPECT_EQ(b.updates.size(), 7u);
  ASSERT_EQ(b.errors.size(), 1u);
  EXPECT_NE(b.errors[0].find("skipped 1 line(s)"), std::string::npos) << b.errors[0];
  EXPECT_NE(b.errors[0].find("link is up"), std::string::npos);
  expectSchemaRows(b);
}

TEST(EsxiVsishTest, PlainHwStringForm) {
  const std::string text =
      "rxpkt:1\ntxpkt:2\nhw:Packets assigned to an invalid queue: 0\nrxq0: totalPkts=3 csumErr=0\n";
  PollBatch b;
  ASSERT_TRUE(parseEsxiVsishStatsFor("vmnic0", text, kTs, b).isOk());
  EXPECT_EQ(u64(b, nic("vmnic0") + "counters/packets-sent"), 2u);
  EXPECT_EQ(u64(b, nic("vmnic0") + "driver-private/packets-assigned-to-an-invalid-queue"), 0u);
  EXPECT_EQ(u64(b, nic("vmnic0") + "driver-private/rxq0-total-pkts"), 3u);
  EXPECT_TRUE(b.errors.empty());
}

TEST(EsxiVsishTest, IntelPfcTrafficClassesStayDriverPrivate) {
  PollBatch b;
  EsxiPrivateStats priv("vmnic3", kTs, b);
  priv.addBlock(readEsxiFixture(kPfcTc));
  priv.finish("privstats");
  const std::string p = nic("vmnic3") + "driver-private/";
  EXPECT_EQ(u64(b, p + "lfc-rx-xon"), 0u);
  EXPECT_EQ(u64(b, p + "lfc-tx-xoff"), 0u);
  EXPECT_EQ(u64(b, p + "pfc-tc-0-rx-xoff"), 0u);
  EXPECT_EQ(u64(b, p + "pfc-tc-7-xon2-xoff"), 0u);
  EXPECT_EQ(u64(b, p + "rxq31-csum-err"), 0u);
  // TC n is not priority n: nothing lands on the per-priority rows.
  for (const Update& u : b.updates) EXPECT_EQ(u.path.find("/priorities/"), std::string::npos);
  EXPECT_EQ(b.updates.size(), 4u * 5u + 4u + 8u * 5u);
  // The two '#' source lines are not stats: skipped and counted.
  ASSERT_EQ(b.errors.size(), 1u);
  EXPECT_NE(b.errors[0].find("skipped 2 line(s)"), std::string::npos) << b.errors[0];
}

TEST(EsxiVsishTest, VfStatsAreNotPnicStats) {
  PollBatch b;
  Status st = parseEsxiVsishStats(readEsxiFixture(kVf), kTs, b);
  EXPECT_FALSE(st.isOk());
  EXPECT_TRUE(b.updates.empty());  // rxUnicastPkts is not packets-received
}

TEST(EsxiVsishTest, BrokenPeSyntaxKeepsOnlyCompleteMembers) {
  const std::string text =
      "{\n"
      "   \"rxpkt\" : 10,\n"
      "   \"txpkt\" : 1,234,\n"
      "   \"rxbytes\" : 30,\n"
      "}\n";
  PollBatch b;
  ASSERT_TRUE(parseEsxiVsishStatsFor("vmnic1", text, kTs, b).isOk());
  EXPECT_EQ(u64(b, nic("vmnic1") + "counters/packets-received"), 10u);
  EXPECT_FALSE(u64(b, nic("vmnic1") + "counters/packets-sent"));  // never 1
  EXPECT_FALSE(u64(b, nic("vmnic1") + "counters/bytes-received"));
  EXPECT_TRUE(anyError(b, "-pe syntax"));
}

TEST(EsxiVsishTest, TruncatedPeKeepsWhatClosed) {
  std::string text = readEsxiFixture(kNmlx5);
  text = text.substr(0, text.find("\"txbytes\" : 1059") + 16);
  PollBatch b;
  ASSERT_TRUE(parseEsxiVsishStats(text, kTs, b).isOk());
  EXPECT_EQ(u64(b, nic("vmnic4") + "counters/bytes-received"), 1175390265600ULL);
  EXPECT_FALSE(u64(b, nic("vmnic4") + "counters/bytes-sent"));
  EXPECT_TRUE(anyError(b, "-pe syntax"));

  // Cut inside the hw string: the string never closed, so none of it is used.
  std::string in_hw = readEsxiFixture(kNmlx5);
  in_hw = in_hw.substr(0, in_hw.find("rx_prio3_pause: 15"));
  PollBatch c;
  ASSERT_TRUE(parseEsxiVsishStats(in_hw, kTs, c).isOk());
  EXPECT_FALSE(u64(c, nic("vmnic4") + "pause-counters/rx-pause-ctrl-phy"));
  EXPECT_EQ(u64(c, nic("vmnic4") + "counters/transmit-window-errors"), 0u);
  EXPECT_TRUE(anyError(c, "unterminated string"));
}

TEST(EsxiVsishTest, NumbersOverflowAndNegative) {
  const std::string text =
      "{\n \"rxpkt\" : 18446744073709551616,\n \"txpkt\" : -1,\n \"rxbytes\" : 18446744073709551615,\n"
      " \"txbytes\" : 1.5e3,\n \"hw\" : \"a: 99999999999999999999\nb: 7\n\",\n}\n";
  PollBatch b;
  ASSERT_TRUE(parseEsxiVsishStatsFor("vmnic1", text, kTs, b).isOk());
  EXPECT_EQ(b.updates.size(), 2u);
  EXPECT_EQ(u64(b, nic("vmnic1") + "counters/bytes-received"), UINT64_MAX);
  EXPECT_EQ(u64(b, nic("vmnic1") + "driver-private/b"), 7u);
  EXPECT_TRUE(anyError(b, "beyond 64 bits"));
}

TEST(EsxiVsishTest, ErrorsAndWrongNic) {
  PollBatch b;
  Status st = parseEsxiVsishStats("Error: Unknown command or namespace\n", kTs, b);
  EXPECT_FALSE(st.isOk());
  EXPECT_NE(st.message().find("Unknown command"), std::string::npos);
  st = parseEsxiVsishStatsFor("vmnic9",
                              "VSISHPath_Form():Extraneous '/vmnic9' in path.\n"
                              "VSISHCmdGetInt():mal-formed path\nError: mal-formed path\n",
                              kTs, b);
  EXPECT_FALSE(st.isOk());
  st = parseEsxiVsishStatsFor("vmnic3", readEsxiFixture(kNmlx5), kTs, b);
  EXPECT_EQ(st.code(), Status::Code::kInvalidArgument);  // the text names vmnic4
  EXPECT_TRUE(b.updates.empty());
  EXPECT_TRUE(b.errors.empty());
}

TEST(EsxiFormatsTest, NamedFormats) {
  std::vector<std::string> names;
  for (const southbound::ParserFormat& f : esxiParserFormats()) {
    names.emplace_back(f.name);
    EXPECT_FALSE(f.help.empty());
    ASSERT_NE(f.parse, nullptr);
  }
  EXPECT_EQ(names,
            (std::vector<std::string>{"esxi-nic-list", "esxi-nic-stats", "esxi-vsish-stats", "esxi-nic-dcb-status"}));
  PollBatch b;
  EXPECT_TRUE(esxiParserFormats()[2].parse(readEsxiFixture(kNmlx5), kTs, b).isOk());
  EXPECT_GT(b.updates.size(), 40u);
  // The DCB status alone: its vmnic from the "Nic Name:" line.
  PollBatch dcb;
  ASSERT_TRUE(esxiParserFormats()[3]
                  .parse(readEsxiFixture("SYNTHETIC_esxcli_network_nic_dcb_status_get.txt"), kTs, dcb)
                  .isOk());
  bool pfc = false;
  for (const Update& u : dcb.updates) {
    if (u.path == "/hypervisor/nics/nic[name=vmnic4]/state/pfc-enabled-priorities") {
      pfc = true;
      EXPECT_EQ(std::get<uint64_t>(u.value), 8u);  // priority 3
    }
  }
  EXPECT_TRUE(pfc);
}

}  // namespace
}  // namespace rdmagw::southbound::esxi
