#include "southbound/rdma/ethtool_text.h"

#include <gtest/gtest.h>

#include "tests/southbound/rdma/rdma_test_util.h"

namespace rdmagw::southbound::rdma {
namespace {

using rdmagw::testing::readFixture;
using rdmagw::testing::TempTree;

std::optional<uint64_t> stat(const EthtoolStats& s, const std::string& name) {
  for (const auto& [n, v] : s) {
    if (n == name) return v;
  }
  return std::nullopt;
}

TEST(EthtoolTextTest, EthqMlx5FixtureGolden) {
  EthtoolTextParse p = parseEthtoolText(readFixture("ethtool_S_mlx5_core_cx4lx_ethq.txt"));
  EXPECT_EQ(p.skipped_lines, 0u);
  EXPECT_EQ(p.stats.size(), 751u);     // every line but the source comment
  EXPECT_FALSE(p.netdev.has_value());  // the prose source line names no netdev
  EXPECT_EQ(p.stats.front().first, "rx_packets");
  EXPECT_EQ(stat(p.stats, "rx_bytes"), 2195783498134ULL);
  EXPECT_EQ(stat(p.stats, "tx_bytes"), 2655285206479ULL);
  EXPECT_EQ(stat(p.stats, "rx_packets"), 845320277ULL);
  EXPECT_EQ(stat(p.stats, "tx_packets"), 896117891ULL);
  EXPECT_EQ(stat(p.stats, "rx_prio0_bytes"), 2202570777997ULL);
  EXPECT_EQ(stat(p.stats, "rx_discards_phy"), 0u);
  EXPECT_EQ(stat(p.stats, "module_bad_shorted"), 0u);  // last line
}

TEST(EthtoolTextTest, PauseBlogFixtureGoldenAndNetdevFromCommandLine) {
  EthtoolTextParse p =
      parseEthtoolText(readFixture("LINUX_PROXY_mlx5_ethtool_S_pause_counters__cx4lx_blog.txt"));
  EXPECT_EQ(p.skipped_lines, 0u);
  EXPECT_EQ(p.netdev, "eth03");
  EXPECT_EQ(p.stats.size(), 17u);
  EXPECT_EQ(stat(p.stats, "tx_pause_ctrl_phy"), 1266552u);
  EXPECT_EQ(stat(p.stats, "tx_global_pause"), 1266552u);
  EXPECT_EQ(stat(p.stats, "tx_global_pause_duration"), 555665182u);
  EXPECT_EQ(stat(p.stats, "tx_pci_signal_integrity"), 3u);
}

TEST(EthtoolTextTest, HeaderIndentationAndJunkLines) {
  EthtoolTextParse p = parseEthtoolText(
      "NIC statistics:\n"
      "     rx_packets: 10\n"
      "\tname with spaces: 3\n"
      "     this line is junk\n"
      "     rx_bytes: -5\n"
      "     tx_bytes: 99999999999999999999999\n"
      "     : 4\n"
      "     tx_priority_0_xon.nic: 7\r\n"
      "     rx_prio3_pause: 12  \n");
  EXPECT_EQ(p.skipped_lines, 4u);
  ASSERT_EQ(p.skipped.size(), 4u);
  EXPECT_EQ(p.skipped[0], "line 4: this line is junk");
  EXPECT_EQ(p.stats.size(), 4u);
  EXPECT_EQ(stat(p.stats, "rx_packets"), 10u);
  EXPECT_EQ(stat(p.stats, "name with spaces"), 3u);
  EXPECT_EQ(stat(p.stats, "tx_priority_0_xon.nic"), 7u);
  EXPECT_EQ(stat(p.stats, "rx_prio3_pause"), 12u);
  EXPECT_FALSE(stat(p.stats, "rx_bytes").has_value());
}

TEST(EthtoolTextTest, NetdevOnlyFromACommandLine) {
  EXPECT_EQ(parseEthtoolText("$ sudo ethtool -S ens1f0np0\nrx_bytes: 1\n").netdev, "ens1f0np0");
  EXPECT_EQ(parseEthtoolText("# ethtool --statistics eth2 | grep x\n").netdev, "eth2");
  EXPECT_FALSE(parseEthtoolText("# notes on ethtool -S output\nrx_bytes: 1\n").netdev.has_value());
}

TEST(EthtoolTextTest, SourceReadsNetdevFileAndReportsSkippedLines) {
  TempTree t;
  t.write("ens1f0np0.txt", "NIC statistics:\n     rx_prio3_pause: 42\n     junk\n");
  EthtoolText src(t.root());
  Result<EthtoolStats> s = src.stats("ens1f0np0");
  ASSERT_TRUE(s.isOk());
  EXPECT_EQ(stat(s.value(), "rx_prio3_pause"), 42u);
  std::vector<std::string> w = src.takeWarnings();
  ASSERT_EQ(w.size(), 1u);
  EXPECT_NE(w[0].find("ens1f0np0.txt: skipped 1 line(s)"), std::string::npos);
  EXPECT_TRUE(src.takeWarnings().empty());  // drained

  Result<EthtoolStats> missing = src.stats("ens9");
  ASSERT_FALSE(missing.isOk());
  EXPECT_EQ(missing.status().code(), Status::Code::kNotFound);
  EXPECT_NE(missing.status().message().find(t.root() + "/ens9.txt"), std::string::npos);
  EXPECT_FALSE(src.stats("../etc/passwd").isOk());
}

}  // namespace
}  // namespace rdmagw::southbound::rdma
