// `show class-map type qos`: whether the switch classifies RoCE by DSCP or
// CoS, for the fabric's DCB consistency check (trust mode).

#include <gtest/gtest.h>

#include "tests/southbound/nxos/nxos_test_util.h"

namespace rdmagw::testing {
using namespace rdmagw::southbound::nxos;  // the helpers speak the vocabulary of the code they test
namespace {

std::string matchLeaf(const std::string& cls) { return "/qos/type-qos/classes/class[name=" + cls + "]/state/match"; }

TEST(NxosClassMapQosTest, RoceTemplateGolden) {
  Parsed p = parse("nxos-class-map-qos", readFixture("SYNTHETIC_nxos_show_class-map_type_qos__reconstructed.txt"));
  ASSERT_TRUE(p.status.isOk()) << p.status.toString();
  EXPECT_TRUE(p.batch.errors.empty()) << p.batch.errors.front();
  EXPECT_EQ(strAt(p.batch, matchLeaf("RDMA")), "dscp");
  EXPECT_EQ(strAt(p.batch, matchLeaf("CNP")), "dscp");
  // precedence, `match any` and no match at all say nothing about trust.
  EXPECT_EQ(p.batch.updates.size(), 2u);
}

TEST(NxosClassMapQosTest, CosClassesAndOtherTypesOfShowClassMap) {
  // `show class-map` (all types): only the type-qos blocks count; the
  // queuing class's qos-group match is not a classification.
  Parsed p = parse("nxos-class-map-qos",
                   "  Type qos class-maps\n  ====\n"
                   "    class-map type qos match-all RDMA\n      match cos 3\n"
                   "    class-map type qos match-any MIXED\n      match cos 5\n      match dscp 40\n"
                   "  Type queuing class-maps\n  ====\n"
                   "    class-map type queuing match-any c-out-q3\n      match qos-group 3\n"
                   "    class-map type queuing match-any c-out-q4\n      match cos 4\n");
  ASSERT_TRUE(p.status.isOk()) << p.status.toString();
  EXPECT_EQ(strAt(p.batch, matchLeaf("RDMA")), "cos");
  EXPECT_EQ(strAt(p.batch, matchLeaf("MIXED")), "dscp");
  EXPECT_EQ(p.batch.updates.size(), 2u);
}

TEST(NxosClassMapQosTest, BrokenLinesAreErrorsAndTheOtherClassesStay) {
  Parsed p = parse("nxos-class-map-qos",
                   "    class-map type qos match-all RDMA\n      match dscp\n"
                   "    class-map type qos match-all CNP\n      match dscp 48\n");
  ASSERT_TRUE(p.status.isOk()) << p.status.toString();
  ASSERT_EQ(p.batch.errors.size(), 1u);
  EXPECT_NE(p.batch.errors[0].find("nxos-class-map-qos: line 2: match dscp without a value"), std::string::npos)
      << p.batch.errors[0];
  EXPECT_FALSE(strAt(p.batch, matchLeaf("RDMA")));
  EXPECT_EQ(strAt(p.batch, matchLeaf("CNP")), "dscp");
}

TEST(NxosClassMapQosTest, DeviceErrorAndNoClassificationAreClearFailures) {
  Parsed banner = parse("nxos-class-map-qos", "% Invalid command at '^' marker.\n");
  EXPECT_FALSE(banner.status.isOk());
  EXPECT_NE(banner.status.message().find("device error"), std::string::npos) << banner.status.toString();
  Parsed none = parse("nxos-class-map-qos", "  Type qos class-maps\n    class-map type qos match-any class-default\n"
                                            "      match any\n");
  EXPECT_FALSE(none.status.isOk());
  EXPECT_NE(none.status.message().find("'match dscp' or 'match cos' line"), std::string::npos)
      << none.status.toString();
}

}  // namespace
}  // namespace rdmagw::testing
