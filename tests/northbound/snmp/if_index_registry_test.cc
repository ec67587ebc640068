// Stable ifIndex assignments: per context, never reused, kept in a file
// that survives a bad line.

#include "northbound/snmp/if_index_registry.h"

#include <gtest/gtest.h>

#include "tests/support/test_support.h"

namespace rdmagw::northbound::snmp {
namespace {

TEST(IfIndexRegistryTest, PerContextAndPersistent) {
  testing::TempDir dir("rdmagw-ifindex");
  const std::string file = dir.file("ifindex.tsv");
  {
    IfIndexRegistry reg(file);
    ASSERT_TRUE(reg.load().isOk());  // no file yet: empty
    EXPECT_EQ(reg.indexOf("sw1", "Ethernet1/1"), 1u);
    EXPECT_EQ(reg.indexOf("sw1", "Ethernet1/2"), 2u);
    EXPECT_EQ(reg.indexOf("sw2", "Ethernet1/2"), 1u);  // contexts number on their own
    EXPECT_EQ(reg.indexOf("sw1", "Ethernet1/1"), 1u);
    ASSERT_TRUE(reg.saveIfChanged().isOk());
  }
  IfIndexRegistry again(file);
  ASSERT_TRUE(again.load().isOk());
  EXPECT_EQ(again.indexOf("sw1", "Ethernet1/2"), 2u);
  EXPECT_EQ(again.indexOf("sw1", "Ethernet1/3"), 3u);  // next after the highest, never a reused one
}

TEST(IfIndexRegistryTest, MalformedLinesAreSkippedAndReported) {
  testing::TempDir dir("rdmagw-ifindex");
  const std::string file = dir.file("ifindex.tsv");
  ASSERT_TRUE(testing::writeFile(file, "# header\nsw1\teth1\t7\nsw1\tbroken\nsw1\teth2\tzero\n"));
  IfIndexRegistry reg(file);
  Status st = reg.load();
  EXPECT_FALSE(st.isOk());
  EXPECT_NE(st.message().find("lines 3, 4"), std::string::npos) << st.message();
  EXPECT_EQ(reg.indexOf("sw1", "eth1"), 7u);
  EXPECT_EQ(reg.indexOf("sw1", "eth3"), 8u);
}

// Input kept in fuzz/regressions/snmp_oid/: two names given one number in the file
// were both served with it (two ifTable rows, one ifIndex).
TEST(IfIndexRegistryTest, ANumberHeldByAnotherNameIsSkippedAndReported) {
  testing::TempDir dir("rdmagw-ifindex");
  const std::string file = dir.file("ifindex.tsv");
  ASSERT_TRUE(testing::writeFile(file, "sw1\teth1\t5\nsw1\teth2\t5\nsw2\teth2\t5\nsw1\teth1\t5\n"));
  IfIndexRegistry reg(file);
  Status st = reg.load();
  EXPECT_FALSE(st.isOk());
  // Line 4 repeats line 1's pair: fine.
  EXPECT_TRUE(st.message().ends_with("conflicting lines 2")) << st.message();
  EXPECT_EQ(reg.indexOf("sw1", "eth1"), 5u);
  EXPECT_EQ(reg.indexOf("sw1", "eth2"), 6u);
  EXPECT_EQ(reg.indexOf("sw2", "eth2"), 5u);  // another context numbers on its own
}

// A file holding the top InterfaceIndex: new names still get free numbers
// in range, never one in use and never 0 (the counter used to wrap past 2^31-1).
TEST(IfIndexRegistryTest, NewNamesAfterTheTopNumberTakeFreeOnes) {
  testing::TempDir dir("rdmagw-ifindex");
  const std::string file = dir.file("ifindex.tsv");
  ASSERT_TRUE(testing::writeFile(file, "sw1\teth1\t1\nsw1\teth9\t2147483647\n"));
  IfIndexRegistry reg(file);
  ASSERT_TRUE(reg.load().isOk());
  EXPECT_EQ(reg.indexOf("sw1", "eth2"), 2u);
  EXPECT_EQ(reg.indexOf("sw1", "eth3"), 3u);
  EXPECT_EQ(reg.indexOf("sw1", "eth9"), 2147483647u);
  EXPECT_EQ(reg.indexOf("sw1", "eth2"), 2u);
}

}  // namespace
}  // namespace rdmagw::northbound::snmp
