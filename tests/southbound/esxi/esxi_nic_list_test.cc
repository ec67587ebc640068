#include "southbound/esxi/esxi_nic_list.h"

#include <gtest/gtest.h>

#include "tests/southbound/esxi/esxi_test_util.h"

namespace rdmagw::southbound::esxi {
namespace {

using namespace rdmagw::testing;  // NOLINT

constexpr TimestampNs kTs = 42;
const char* kList = "SYNTHETIC_esxcli_network_nic_list.txt";

TEST(EsxiNicListTest, SyntheticTableGolden) {
  PollBatch b;
  ASSERT_TRUE(parseEsxiNicList(readEsxiFixture(kList), kTs, b).isOk());
  EXPECT_TRUE(b.errors.empty()) << b.errors.front();
  EXPECT_EQ(b.updates.size(), 25u);  // five rows x driver, link, speed, admin, MTU
  EXPECT_EQ(str(b, nic("vmnic0") + "driver"), "ntg3");
  EXPECT_EQ(str(b, nic("vmnic0") + "link-state"), "Up");
  EXPECT_EQ(u64(b, nic("vmnic0") + "speed"), 1000000000ULL);
  EXPECT_EQ(str(b, nic("vmnic1") + "link-state"), "Down");
  EXPECT_EQ(u64(b, nic("vmnic1") + "speed"), 0u);
  EXPECT_EQ(str(b, nic("vmnic4") + "driver"), "nmlx5_core");
  EXPECT_EQ(u64(b, nic("vmnic4") + "speed"), 100000000000ULL);
  EXPECT_EQ(str(b, nic("vmnic6") + "driver"), "icen");
  // Admin Status and MTU: IF-MIB ifAdminStatus and ifMtu of the vmnic rows.
  EXPECT_EQ(str(b, nic("vmnic1") + "admin-status"), "Up");
  EXPECT_EQ(u64(b, nic("vmnic0") + "mtu"), 1500u);
  EXPECT_EQ(u64(b, nic("vmnic4") + "mtu"), 9000u);
  expectSchemaRows(b);
}

TEST(EsxiNicListTest, NicNamesForDiscovery) {
  EXPECT_EQ(nicNames(readEsxiFixture(kList)),
            (std::vector<std::string>{"vmnic0", "vmnic1", "vmnic4", "vmnic5", "vmnic6"}));
  EXPECT_TRUE(nicNames("Error: Unknown command or namespace network nic lst\n").empty());
  EXPECT_TRUE(nicNames("").empty());
}

TEST(EsxiNicListTest, ColumnsFoundByHeaderNotPosition) {
  // Reordered, an extra column, wider cells, "Speed (Mbps)" header.
  const std::string text =
      "Driver       Name          Extra  Speed (Mbps)  Link Status  Description\n"
      "-----------  ------------  -----  ------------  -----------  ---------------\n"
      "nmlx5_core   vmnic10       x      25000         Up           Mellanox CX-4 Lx\n";
  PollBatch b;
  // Name must be the first column: this table is refused rather than guessed.
  EXPECT_FALSE(parseEsxiNicList(text, kTs, b).isOk());
  const std::string ok =
      "Name          Extra  Speed (Mbps)  Driver       Link Status  Description\n"
      "------------  -----  ------------  -----------  -----------  ---------------\n"
      "vmnic10       x      25000         nmlx5_core   Up           Mellanox CX-4 Lx\n";
  PollBatch c;
  ASSERT_TRUE(parseEsxiNicList(ok, kTs, c).isOk());
  EXPECT_EQ(u64(c, nic("vmnic10") + "speed"), 25000000000ULL);
  EXPECT_EQ(str(c, nic("vmnic10") + "driver"), "nmlx5_core");
  EXPECT_EQ(str(c, nic("vmnic10") + "link-state"), "Up");
}

TEST(EsxiNicListTest, MisalignedRowIsSkippedNotShifted) {
  std::string text = readEsxiFixture(kList);
  // vmnic1's row loses two characters: every later cell would shift.
  size_t at = text.find("vmnic1  0000:01:00.1");
  text.erase(at + 8, 2);
  PollBatch b;
  ASSERT_TRUE(parseEsxiNicList(text, kTs, b).isOk());
  EXPECT_FALSE(str(b, nic("vmnic1") + "driver"));
  EXPECT_FALSE(u64(b, nic("vmnic1") + "speed"));
  EXPECT_EQ(u64(b, nic("vmnic4") + "speed"), 100000000000ULL);
  EXPECT_TRUE(anyError(b, "does not fit the columns"));
}

TEST(EsxiNicListTest, BadSpeedAndTruncation) {
  std::string text = readEsxiFixture(kList);
  size_t at = text.find("1000    Full");
  text.replace(at, 4, "1,00");
  PollBatch b;
  ASSERT_TRUE(parseEsxiNicList(text, kTs, b).isOk());
  EXPECT_FALSE(u64(b, nic("vmnic0") + "speed"));
  EXPECT_EQ(str(b, nic("vmnic0") + "driver"), "ntg3");
  EXPECT_TRUE(anyError(b, "vmnic0 speed"));

  std::string cut = readEsxiFixture(kList);
  cut = cut.substr(0, cut.find("vmnic6") + 30);
  PollBatch c;
  ASSERT_TRUE(parseEsxiNicList(cut, kTs, c).isOk());
  EXPECT_FALSE(str(c, nic("vmnic6") + "driver"));
  EXPECT_EQ(str(c, nic("vmnic5") + "driver"), "nmlx5_core");
  EXPECT_TRUE(anyError(c, "cut off"));

  std::string overflow =
      "Name    Speed\n------  --------------------\nvmnic0  99999999999999999\n";
  PollBatch d;
  EXPECT_TRUE(parseEsxiNicList(overflow, kTs, d).isOk());
  EXPECT_TRUE(d.updates.empty());
  EXPECT_TRUE(anyError(d, "too large"));
}

TEST(EsxiNicListTest, ErrorOutputs) {
  PollBatch b;
  Status st = parseEsxiNicList("Error: Unknown command or namespace network nic lst\n", kTs, b);
  EXPECT_FALSE(st.isOk());
  EXPECT_NE(st.message().find("Unknown command or namespace"), std::string::npos);
  EXPECT_FALSE(parseEsxiNicList("Name  Driver\n----  ------\n", kTs, b).isOk());
  EXPECT_TRUE(b.updates.empty());
}

}  // namespace
}  // namespace rdmagw::southbound::esxi
