// Stable ifIndex assignments: per context, never reused, kept in a file
// that survives a bad line.

#include "northbound/snmp/if_index_registry.h"

#include <gtest/gtest.h>

#include "tests/support/test_support.h"

namespace rdmagw::northbound::snmp {
namespace {

TEST(IfIndexRegistryTest, PerContextAndPersistent) {
  testsupport::TempDir dir("rdmagw-ifindex");
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
  testsupport::TempDir dir("rdmagw-ifindex");
  const std::string file = dir.file("ifindex.tsv");
  ASSERT_TRUE(testsupport::writeFile(file, "# header\nsw1\teth1\t7\nsw1\tbroken\nsw1\teth2\tzero\n"));
  IfIndexRegistry reg(file);
  Status st = reg.load();
  EXPECT_FALSE(st.isOk());
  EXPECT_NE(st.message().find("lines 3, 4"), std::string::npos) << st.message();
  EXPECT_EQ(reg.indexOf("sw1", "eth1"), 7u);
  EXPECT_EQ(reg.indexOf("sw1", "eth3"), 8u);
}

}  // namespace
}  // namespace rdmagw::northbound::snmp
