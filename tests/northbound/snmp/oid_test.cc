// OID text form and the SNMP order the snapshot relies on.

#include "northbound/snmp/oid.h"

#include <gtest/gtest.h>

namespace rdmagw::northbound::snmp {
namespace {

TEST(OidTest, ParsesAndPrints) {
  Result<Oid> oid = parseOid(".1.3.6.1.2.1.31.1.1.1.6");
  ASSERT_TRUE(oid.isOk());
  EXPECT_EQ(oidToString(*oid), "1.3.6.1.2.1.31.1.1.1.6");
  EXPECT_EQ(parseOid("1.3.4294967295")->back(), 4294967295u);
}

TEST(OidTest, RejectsMalformed) {
  for (const char* bad : {"", ".", "1..3", "1.3.", "1.x.3", "1.3.4294967296"}) {
    EXPECT_FALSE(parseOid(bad).isOk()) << bad;
  }
}

TEST(OidTest, PrefixSortsFirstAndStringIndexIsLengthPrefixed) {
  Oid table{1, 3, 6, 1, 2, 1, 2, 2};
  Oid column{1, 3, 6, 1, 2, 1, 2, 2, 1, 10};
  EXPECT_LT(table, column);
  EXPECT_TRUE(oidHasPrefix(column, table));
  EXPECT_FALSE(oidHasPrefix(table, column));
  Oid index;
  appendStringIndex(&index, "sw1");
  EXPECT_EQ(oidToString(index), "3.115.119.49");
}

}  // namespace
}  // namespace rdmagw::northbound::snmp
