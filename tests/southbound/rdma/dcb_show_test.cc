// iproute2 `dcb ets|pfc|buffer|app show` into a host port: the recorded
// text of iproute2's commit messages (mlxsw port) and man pages, the JSON
// form (-j) with iproute2's member names, and broken input.

#include "southbound/rdma/dcb_show.h"

#include <gtest/gtest.h>

#include "tests/southbound/roce_test_util.h"

namespace rdmagw::southbound::rdma {
namespace {

using rdmagw::roce::HostPort;
using rdmagw::roce::Trust;
using rdmagw::roce::Tsa;
using testing::roceFixture;
using testing::withoutHashLines;

TEST(DcbTextTest, MlxswEtsFieldByField) {
  HostPort p;
  Status s = parseDcbText(roceFixture("linux_dcb_ets_show_dev__iproute2-commit-mlxsw.txt"), p);
  ASSERT_TRUE(s.isOk()) << s.message();
  // tc-bw 4:100, tc-tsa 4:ets and the rest strict, prio-tc 0:1 1:3 2:5 3:0 ...
  for (int tc = 0; tc < 8; ++tc) {
    EXPECT_EQ(p.tc[tc].tsa, tc == 4 ? Tsa::kEts : Tsa::kStrict) << tc;
    EXPECT_EQ(p.tc[tc].bandwidth_percent, tc == 4 ? 100u : 0u) << tc;
  }
  const uint32_t prio_tc[] = {1, 3, 5, 0, 0, 0, 0, 0};
  for (int prio = 0; prio < 8; ++prio) EXPECT_EQ(p.priority_tc[prio], prio_tc[prio]) << prio;
}

TEST(DcbTextTest, MlxswPfcBufferAndAppFieldByField) {
  HostPort p;
  ASSERT_TRUE(parseDcbText(roceFixture("linux_dcb_pfc_show_dev__iproute2-commit-mlxsw.txt"), p).isOk());
  EXPECT_EQ(p.pfc_enabled, uint8_t((1u << 1) | (1u << 7)));  // pg-pfc 1:on 7:on (the pre-5.11 key)
  ASSERT_TRUE(parseDcbText(roceFixture("linux_dcb_buffer_show_dev__iproute2-commit-mlxsw.txt"), p).isOk());
  const uint32_t prio_buffer[] = {0, 0, 0, 3, 0, 0, 6, 0};
  const uint64_t size[] = {10000, 0, 0, 70000, 0, 0, 10000, 0};
  for (int i = 0; i < 8; ++i) {
    EXPECT_EQ(p.priority_buffer[i], prio_buffer[i]) << i;
    EXPECT_EQ(p.buffer_bytes[i], size[i]) << i;
  }
  EXPECT_EQ(p.total_buffer_bytes, 221072u);
  // Three shows as rules were added and replaced: the last one is the state.
  ASSERT_TRUE(parseDcbText(roceFixture("linux_dcb_app_show_dev__iproute2-commit-mlxsw.txt"), p).isOk());
  EXPECT_EQ(p.trust, Trust::kDscp);
  EXPECT_EQ(p.dscp_priority, (std::map<uint32_t, uint32_t>{{0, 0}, {24, 5}, {48, 6}}));
}

TEST(DcbTextTest, TwoRulesForOneDscpTheLaterWins) {
  // The middle show of the mlxsw session: CS3:4 was added after CS3:3, and
  // the NIC classifies by the rule set last.
  HostPort p;
  ASSERT_TRUE(parseDcbText("dscp-prio 0:0 CS3:3 CS3:4 CS6:6\n", p).isOk());
  EXPECT_EQ(p.dscp_priority.at(24), 4u);
  HostPort j;
  ASSERT_TRUE(parseDcbJson("app", R"({"dscp_prio":[[24,3],[24,4]]})", j).isOk());
  EXPECT_EQ(j.dscp_priority.at(24), 4u);
}

TEST(DcbTextTest, ManPageExamplesKeepTheLastShowOfEach) {
  HostPort p;
  Status s = parseDcbText(roceFixture("linux_dcb_show_man-page-examples__iproute2.txt"), p);
  ASSERT_TRUE(s.isOk()) << s.message();
  for (int i = 0; i < 8; ++i) EXPECT_EQ(p.priority_tc[i], uint32_t(i)) << i;
  EXPECT_EQ(p.tc[0].tsa, Tsa::kEts);
  EXPECT_EQ(p.tc[3].tsa, Tsa::kStrict);
  EXPECT_EQ(p.tc[2].bandwidth_percent, 34u);
  EXPECT_EQ(p.pfc_enabled, uint8_t(0xC0));  // prio-pfc 6:on 7:on
  // Sizes in iproute2's units: 10Kb = 10 * 1024 bytes, 1Mb = 1024 * 1024.
  EXPECT_EQ(p.buffer_bytes[0], 10240u);
  EXPECT_EQ(p.buffer_bytes[6], 1048576u);
  EXPECT_EQ(p.total_buffer_bytes, 1222u * 1024);
  EXPECT_EQ(p.priority_buffer[6], 6u);
  // The last dscp-prio line: `dscp-prio 0:0 24:4 48:6` (-N, numbers). The
  // page's flush example then shows "(nothing)": dcb prints no line at all
  // for an empty table, which a text parse cannot tell from no show.
  EXPECT_EQ(p.dscp_priority, (std::map<uint32_t, uint32_t>{{0, 0}, {24, 4}, {48, 6}}));
}

TEST(DcbTextTest, BadValuesAndGarbage) {
  HostPort p;
  Status s = parseDcbText("prio-tc 0:0 1:1 2:2 3:9 4:4 5:5 6:6 7:7\n"
                          "tc-tsa 0:ets 1:fair 2:ets 3:ets 4:ets 5:ets 6:ets 7:ets\n"
                          "prio-pfc 0:off 1:off 2:off 3:maybe 4:off 5:off 6:off 7:off\n"
                          "tc-bw 0:0 1:0\n"
                          "dscp-prio 26:3 CS9:6 64:1\n",
                          p);
  ASSERT_EQ(s.code(), Status::Code::kInvalidArgument);
  for (const char* part : {"prio-tc 3: 9 is out of range 0..7", "tc-tsa 1: 'fair' is not a TSA",
                           "'maybe' is not on/off", "tc-bw does not have all 8 entries", "'CS9:6' is not DSCP:PRIORITY",
                           "'64:1'"}) {
    EXPECT_NE(s.message().find(part), std::string::npos) << part << " in " << s.message();
  }
  EXPECT_FALSE(p.priority_tc[0]);  // the line is all or nothing
  EXPECT_EQ(p.tc[0].tsa, Tsa::kEts);
  EXPECT_FALSE(p.pfc_enabled);
  EXPECT_EQ(p.dscp_priority, (std::map<uint32_t, uint32_t>{{26, 3}}));
  for (std::string_view junk : {std::string_view(""), std::string_view("Attribute read: Operation not supported\n"),
                                std::string_view("\x7f\x45\x4c\x46\x02")}) {
    HostPort g;
    EXPECT_EQ(parseDcbText(junk, g).code(), Status::Code::kCorrupt) << junk;
  }
}

TEST(DcbJsonTest, SyntheticRoceHostFieldByField) {
  HostPort p;
  Status s = parseDcbJson("ets", withoutHashLines(roceFixture("SYNTHETIC_dcb_-j_ets_show__iproute2-keys.json")), p);
  ASSERT_TRUE(s.isOk()) << s.message();
  const uint32_t bw[] = {10, 10, 10, 60, 10, 0, 0, 0};
  for (int i = 0; i < 8; ++i) {
    EXPECT_EQ(p.priority_tc[i], uint32_t(i)) << i;
    EXPECT_EQ(p.tc[i].bandwidth_percent, bw[i]) << i;
    EXPECT_EQ(p.tc[i].tsa, i < 5 ? Tsa::kEts : Tsa::kStrict) << i;
  }
  s = parseDcbJson("pfc", withoutHashLines(roceFixture("SYNTHETIC_dcb_-j_pfc_show__iproute2-keys.json")), p);
  ASSERT_TRUE(s.isOk()) << s.message();
  EXPECT_EQ(p.pfc_enabled, uint8_t(1u << 3));
  s = parseDcbJson("buffer", withoutHashLines(roceFixture("SYNTHETIC_dcb_-j_buffer_show__iproute2-keys.json")), p);
  ASSERT_TRUE(s.isOk()) << s.message();
  EXPECT_EQ(p.priority_buffer[3], 1u);
  EXPECT_EQ(p.priority_buffer[0], 0u);
  EXPECT_EQ(p.buffer_bytes[1], 130944u);
  EXPECT_EQ(p.total_buffer_bytes, 261888u);
  s = parseDcbJson("app", withoutHashLines(roceFixture("SYNTHETIC_dcb_-j_app_show__iproute2-keys.json")), p);
  ASSERT_TRUE(s.isOk()) << s.message();
  EXPECT_EQ(p.trust, Trust::kDscp);
  EXPECT_EQ(p.dscp_priority, (std::map<uint32_t, uint32_t>{{0, 0}, {26, 3}, {48, 6}}));
}

TEST(DcbJsonTest, AppRulesByNameAndNoRulesMeanPcp) {
  HostPort p;
  // Older iproute2 (and the simulator) name the DSCP.
  ASSERT_TRUE(parseDcbJson("app", R"({"dscp_prio":[["AF31",3],["CS6",6]]})", p).isOk());
  EXPECT_EQ(p.dscp_priority, (std::map<uint32_t, uint32_t>{{26, 3}, {48, 6}}));
  ASSERT_TRUE(parseDcbJson("app", "{}", p).isOk());
  EXPECT_EQ(p.trust, Trust::kPcp);
  EXPECT_TRUE(p.dscp_priority.empty());
}

TEST(DcbJsonTest, DamagedAndOutOfRangeJsonAreClearErrors) {
  HostPort p;
  Status s = parseDcbJson("ets", R"({"prio_tc":[0,1,2,3,4,5,6,8],"tc_bw":[0,0,0,101,0,0,0,0],"tc_tsa":["ets","x",3,"ets","ets","ets","ets","ets"]})", p);
  ASSERT_EQ(s.code(), Status::Code::kInvalidArgument);
  for (const char* part : {"prio_tc[7]: 8 is out of range 0..7", "tc_bw[3]: 101 is out of range 0..100",
                           "tc_tsa[1] is not", "tc_tsa[2] is not"}) {
    EXPECT_NE(s.message().find(part), std::string::npos) << part << " in " << s.message();
  }
  EXPECT_FALSE(p.priority_tc[0]);
  EXPECT_EQ(p.tc[0].tsa, Tsa::kEts);

  s = parseDcbJson("buffer", R"({"prio_buffer":[0,0,0],"buffer_size":{"0":1,"9":2},"total_size":"big"})", p);
  ASSERT_EQ(s.code(), Status::Code::kInvalidArgument);
  EXPECT_NE(s.message().find("prio_buffer has 3 entries, not 8"), std::string::npos) << s.message();
  EXPECT_NE(s.message().find("buffer_size key '9' is not 0..7"), std::string::npos) << s.message();
  EXPECT_NE(s.message().find("total_size is not a number"), std::string::npos) << s.message();

  s = parseDcbJson("app", R"({"dscp_prio":[[26,3],["XX",1],[48,9],[1]]})", p);
  ASSERT_EQ(s.code(), Status::Code::kInvalidArgument);
  EXPECT_EQ(p.dscp_priority, (std::map<uint32_t, uint32_t>{{26, 3}}));

  for (std::string_view bad : {std::string_view(R"({"prio_tc":[0,1,2)"), std::string_view("Attribute read"),
                               std::string_view("[]"), std::string_view(R"({"willing":true})")}) {
    HostPort g;
    Status e = parseDcbJson("ets", bad, g);
    EXPECT_EQ(e.code(), Status::Code::kCorrupt) << bad;
    EXPECT_NE(e.message().find("dcb ets JSON"), std::string::npos) << e.message();
  }
  HostPort g;
  EXPECT_EQ(parseDcbJson("pfc", R"({"prio_pfc":[true,false]})", g).code(), Status::Code::kInvalidArgument);
  EXPECT_FALSE(g.pfc_enabled);
  EXPECT_EQ(parseDcbJson("maxrate", "{}", g).code(), Status::Code::kInvalidArgument);
}

}  // namespace
}  // namespace rdmagw::southbound::rdma
