#include "southbound/esxi/esxi_nic_stats.h"

#include <gtest/gtest.h>

#include <map>

#include "southbound/ssh/profiles/esxi_profile.h"
#include "tests/southbound/esxi/esxi_test_util.h"

namespace rdmagw::southbound::esxi {

using ssh::parseEsxiBundle;
namespace {

using namespace rdmagw::testing;  // NOLINT

constexpr TimestampNs kTs = 1700000000000000000;
const char* kKb = "esxi_esxcli_network_nic_stats_get_vmnic2__broadcom_kb341594.txt";

TEST(EsxiNicStatsTest, BroadcomKbGolden) {
  PollBatch b;
  ASSERT_TRUE(parseEsxiNicStats(readEsxiFixture(kKb), kTs, b).isOk());
  EXPECT_TRUE(b.errors.empty()) << b.errors.front();
  const std::string c = nic("vmnic2") + "counters/";
  EXPECT_EQ(b.updates.size(), 23u);
  EXPECT_EQ(u64(b, c + "packets-received"), 701280499176ULL);
  EXPECT_EQ(u64(b, c + "packets-sent"), 687061948450ULL);
  EXPECT_EQ(u64(b, c + "bytes-received"), 664124780523852ULL);
  EXPECT_EQ(u64(b, c + "bytes-sent"), 676938646792793ULL);
  EXPECT_EQ(u64(b, c + "receive-packets-dropped"), 2452783244ULL);
  EXPECT_EQ(u64(b, c + "transmit-packets-dropped"), 0u);
  EXPECT_EQ(u64(b, c + "multicast-packets-received"), 976222150ULL);
  EXPECT_EQ(u64(b, c + "broadcast-packets-received"), 0u);
  EXPECT_EQ(u64(b, c + "receive-crc-errors"), 0u);
  EXPECT_EQ(u64(b, c + "receive-fifo-errors"), 0u);
  EXPECT_EQ(u64(b, c + "transmit-window-errors"), 0u);
  EXPECT_EQ(u64(b, c + "transmit-heartbeat-errors"), 0u);
  for (const Update& u : b.updates) EXPECT_EQ(u.timestamp_ns, kTs);
  expectSchemaRows(b);
}

TEST(EsxiNicStatsTest, NamedVariantChecksTheHeader) {
  PollBatch b;
  ASSERT_TRUE(parseEsxiNicStatsFor("vmnic2", readEsxiFixture(kKb), kTs, b).isOk());
  EXPECT_EQ(b.updates.size(), 23u);
  PollBatch wrong;
  Status st = parseEsxiNicStatsFor("vmnic3", readEsxiFixture(kKb), kTs, wrong);
  EXPECT_EQ(st.code(), Status::Code::kInvalidArgument);
  EXPECT_TRUE(wrong.updates.empty());
  // Without a header the caller's name is used.
  PollBatch bare;
  ASSERT_TRUE(parseEsxiNicStatsFor("vmnic7", "   Packets received: 5\n", kTs, bare).isOk());
  EXPECT_EQ(u64(bare, nic("vmnic7") + "counters/packets-received"), 5u);
}

TEST(EsxiNicStatsTest, ReorderedExtraAndCaseChangedLines) {
  const std::string text =
      "NIC statistics for vmnic0\n"
      "   Bytes sent: 20\n"
      "   Some new counter in 9.0: 77\n"
      "   packets RECEIVED: 10\n"
      "   Packets sent: 11\n";
  PollBatch b;
  ASSERT_TRUE(parseEsxiNicStats(text, kTs, b).isOk());
  EXPECT_TRUE(b.errors.empty());
  EXPECT_EQ(b.updates.size(), 3u);
  EXPECT_EQ(u64(b, nic("vmnic0") + "counters/packets-received"), 10u);
  EXPECT_EQ(u64(b, nic("vmnic0") + "counters/bytes-sent"), 20u);
}

TEST(EsxiNicStatsTest, BadNumbersAreErrorLinesNotValues) {
  const std::string text =
      "NIC statistics for vmnic0\n"
      "   Packets received: 1,234\n"
      "   Packets sent: -4\n"
      "   Bytes received: 99999999999999999999999\n"
      "   Bytes sent: 12.5\n"
      "   Receive packets dropped: 3\n"
      "   Receive packets dropped: 4\n"
      "garbage without colon\n";
  PollBatch b;
  ASSERT_TRUE(parseEsxiNicStats(text, kTs, b).isOk());
  ASSERT_EQ(b.updates.size(), 1u);
  EXPECT_EQ(u64(b, nic("vmnic0") + "counters/receive-packets-dropped"), 3u);
  ASSERT_EQ(b.errors.size(), 1u);
  EXPECT_NE(b.errors[0].find("6 line(s) not used"), std::string::npos) << b.errors[0];
  EXPECT_NE(b.errors[0].find("separators"), std::string::npos);
  EXPECT_NE(b.errors[0].find("beyond 64 bits"), std::string::npos);
}

TEST(EsxiNicStatsTest, TruncatedOutputDropsTheCutLine) {
  std::string text = readEsxiFixture(kKb);
  text = text.substr(0, text.find("Bytes sent: 6769") + 16);  // cut mid-number
  PollBatch b;
  ASSERT_TRUE(parseEsxiNicStats(text, kTs, b).isOk());
  EXPECT_EQ(b.updates.size(), 3u);
  EXPECT_FALSE(u64(b, nic("vmnic2") + "counters/bytes-sent"));
  EXPECT_TRUE(anyError(b, "cut off"));
}

TEST(EsxiNicStatsTest, ErrorOutputsFailClearly) {
  PollBatch b;
  Status st = parseEsxiNicStats("Error: Unknown command or namespace network nic statz\n", kTs, b);
  EXPECT_FALSE(st.isOk());
  EXPECT_NE(st.message().find("Unknown command or namespace"), std::string::npos);
  // A vmnic that does not exist: esxcli answers with an error, no header.
  st = parseEsxiNicStatsFor("vmnic9", "Error: Unable to find NIC vmnic9\n", kTs, b);
  EXPECT_FALSE(st.isOk());
  EXPECT_NE(st.message().find("Unable to find NIC vmnic9"), std::string::npos);
  st = parseEsxiNicStats("", kTs, b);
  EXPECT_FALSE(st.isOk());
  st = parseEsxiNicStats("NIC statistics for vmnic0\n", kTs, b);
  EXPECT_FALSE(st.isOk());
  st = parseEsxiNicStats("NIC statistics for vm/nic\n   Packets sent: 1\n", kTs, b);
  EXPECT_EQ(st.code(), Status::Code::kInvalidArgument);
  EXPECT_TRUE(b.updates.empty());
}

// esxcli and vsish are read moments apart and both give the generic
// counters: one poll must write each leaf once, from vsish, or the earlier
// esxcli reading lands after the later vsish one and looks like a reset.
TEST(EsxiNicStatsTest, TheBundleTakesAGenericCounterFromVsishAloneAndFromEsxcliWithoutVsish) {
  const std::string list = readEsxiFixture("SYNTHETIC_esxcli_network_nic_list.txt");
  // The recorded esxcli output, as if for the vmnic the vsish fixture names.
  std::string esxcli = readEsxiFixture(kKb);
  for (size_t at; (at = esxcli.find("vmnic2")) != std::string::npos;) esxcli.replace(at, 6, "vmnic4");
  const std::string stats = "@@rdmagw nic-stats vmnic4\n" + esxcli;
  const std::string c = nic("vmnic4") + "counters/";

  PollBatch both;
  ASSERT_TRUE(parseEsxiBundle(list + stats + "@@rdmagw vsish vmnic4\n" +
                                  readEsxiFixture("SYNTHETIC_nmlx5_vsish_pNics_stats.txt"),
                              kTs, both)
                  .isOk());
  std::map<std::string, int> writes;
  for (const Update& u : both.updates) ++writes[u.path];
  for (const auto& [path, n] : writes) EXPECT_EQ(n, 1) << path << " written more than once in one poll";
  EXPECT_EQ(u64(both, c + "packets-received"), 918273645u) << "vsish's reading, not esxcli's";
  EXPECT_EQ(u64(both, c + "bytes-sent"), 1059026584320u);

  PollBatch no_vsish;
  ASSERT_TRUE(parseEsxiBundle(list + stats + "@@rdmagw vsish vmnic4\nvsish: not found\n", kTs, no_vsish).isOk());
  EXPECT_EQ(u64(no_vsish, c + "packets-received"), 701280499176ULL) << "esxcli fills in without vsish";
  EXPECT_EQ(u64(no_vsish, c + "bytes-sent"), 676938646792793ULL);
  EXPECT_FALSE(no_vsish.errors.empty()) << "the failed vsish section is still reported";
}

}  // namespace
}  // namespace rdmagw::southbound::esxi
