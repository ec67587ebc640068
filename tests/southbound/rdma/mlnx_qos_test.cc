// `mlnx_qos -i` text into a host port: the recorded ConnectX-7 production
// host (trust dscp, DSCP 40 -> 5, PFC on 5, strict TSA on 4-7), the
// ConnectX-5 output whose line breaks were lost, and broken input.

#include "southbound/rdma/mlnx_qos_text.h"

#include <gtest/gtest.h>

#include "tests/southbound/roce_test_util.h"

namespace rdmagw::southbound::rdma {
namespace {

using rdmagw::roce::HostPort;
using rdmagw::roce::Trust;
using rdmagw::roce::Tsa;
using testing::roceFixture;

TEST(MlnxQosTest, Feishu3fsConnectX7FieldByField) {
  HostPort p;
  Status s = parseMlnxQos(roceFixture("linux_mlnx_qos_-i_ens4np0__feishu-3fs-troubleshooting.txt"), p);
  ASSERT_TRUE(s.isOk()) << s.message();
  EXPECT_EQ(p.dcbx_mode, "OS controlled");
  EXPECT_EQ(p.trust, Trust::kDscp);
  // The full 64-entry map; RoCE DSCP 40 was remapped to 5, CNP DSCP 48 to 6.
  EXPECT_EQ(p.dscp_priority.size(), 64u);
  EXPECT_EQ(p.dscp_priority.at(40), 5u);
  EXPECT_EQ(p.dscp_priority.at(47), 5u);
  EXPECT_EQ(p.dscp_priority.at(48), 6u);
  EXPECT_EQ(p.dscp_priority.at(39), 4u);
  EXPECT_EQ(p.dscp_priority.at(26), 3u);
  EXPECT_EQ(p.dscp_priority.at(0), 0u);
  EXPECT_EQ(p.dscp_priority.at(63), 7u);
  EXPECT_EQ(p.pfc_enabled, uint8_t(1u << 5));
  // Receive buffers: priority 5 alone in buffer 1.
  EXPECT_EQ(p.buffer_bytes[0], 19872u);
  EXPECT_EQ(p.buffer_bytes[1], 220896u);
  EXPECT_EQ(p.buffer_bytes[2], 0u);
  EXPECT_EQ(p.priority_buffer[5], 1u);
  EXPECT_EQ(p.priority_buffer[4], 0u);
  EXPECT_FALSE(p.total_buffer_bytes);  // max_buffer_size is the capacity, not the total in use
  // ETS 9/1/80/10 on TCs 0-3, strict 4-7; priority N in TC N.
  const uint32_t bw[] = {9, 1, 80, 10};
  for (int tc = 0; tc < 4; ++tc) {
    EXPECT_EQ(p.tc[tc].tsa, Tsa::kEts) << tc;
    EXPECT_EQ(p.tc[tc].bandwidth_percent, bw[tc]) << tc;
  }
  for (int tc = 4; tc < 8; ++tc) {
    EXPECT_EQ(p.tc[tc].tsa, Tsa::kStrict) << tc;
    EXPECT_FALSE(p.tc[tc].bandwidth_percent) << tc;
  }
  for (int prio = 0; prio < 8; ++prio) EXPECT_EQ(p.priority_tc[prio], uint32_t(prio)) << prio;
}

TEST(MlnxQosTest, ZartbotConnectX5CollapsedIsCutAgain) {
  HostPort p;
  Status s = parseMlnxQos(roceFixture("linux_mlnx_qos_-i_ens2f0_--pfc__zartbot-blog.txt"), p);
  ASSERT_TRUE(s.isOk()) << s.message();
  EXPECT_EQ(p.dcbx_mode, "OS controlled");
  EXPECT_EQ(p.trust, Trust::kPcp);
  EXPECT_TRUE(p.dscp_priority.empty());  // PCP trust prints no dscp2prio table
  EXPECT_EQ(p.buffer_bytes[0], 130944u);
  EXPECT_EQ(p.buffer_bytes[1], 130944u);
  EXPECT_EQ(p.buffer_bytes[7], 0u);
  EXPECT_EQ(p.pfc_enabled, uint8_t(1u << 5));
  EXPECT_EQ(p.priority_buffer[5], 1u);
  // 802.1Q's default: priority 0 in TC 1, priority 1 in TC 0; all vendor TSA.
  EXPECT_EQ(p.priority_tc[0], 1u);
  EXPECT_EQ(p.priority_tc[1], 0u);
  EXPECT_EQ(p.priority_tc[5], 5u);
  for (int tc = 0; tc < 8; ++tc) EXPECT_EQ(p.tc[tc].tsa, Tsa::kVendor) << tc;
}

TEST(MlnxQosTest, BadValuesAreNamedTheRestKept) {
  HostPort p;
  Status s = parseMlnxQos("Priority trust state: dscp\n"
                          "dscp2prio mapping:\n"
                          "        prio:9 dscp:07,06,\n"
                          "        prio:3 dscp:26,99,\n"
                          "        prio:5 dscp:40,\n"
                          "PFC configuration:\n"
                          "        priority    0   1   2   3   4   5   6   7\n"
                          "        enabled     0   0   0   2   0   1   0   0\n"
                          "        buffer      0   0   0   1   0   1\n"
                          "tc: 9 ratelimit: unlimited, tsa: ets, bw: 9%\n"
                          "         priority:  0\n"
                          "tc: 3 ratelimit: unlimited, tsa: fair, bw: 300%\n"
                          "         priority:  3\n",
                          p);
  ASSERT_EQ(s.code(), Status::Code::kInvalidArgument);
  for (const char* part : {"prio:9", "99 is out of range 0..63", "PFC enabled: 2 is out of range 0..1",
                           "PFC buffer has 6 values, not 8", "tc line 'tc: 9", "tsa 'fair' unknown",
                           "bw: 300 is out of range 0..100"}) {
    EXPECT_NE(s.message().find(part), std::string::npos) << part << " in " << s.message();
  }
  EXPECT_EQ(p.trust, Trust::kDscp);
  EXPECT_EQ(p.dscp_priority.size(), 1u);
  EXPECT_EQ(p.dscp_priority.at(40), 5u);
  EXPECT_FALSE(p.pfc_enabled);
  EXPECT_FALSE(p.priority_tc[0]);  // its tc line did not parse
  EXPECT_EQ(p.priority_tc[3], 3u);
}

TEST(MlnxQosTest, TruncatedAndGarbage) {
  const std::string full = roceFixture("linux_mlnx_qos_-i_ens4np0__feishu-3fs-troubleshooting.txt");
  HostPort p;
  Status s = parseMlnxQos(full.substr(0, full.find("buffer      0")), p);
  EXPECT_TRUE(s.isOk()) << s.message();  // cut after whole lines: what is there is right
  EXPECT_EQ(p.pfc_enabled, uint8_t(1u << 5));
  EXPECT_FALSE(p.priority_buffer[5]);
  HostPort q;
  s = parseMlnxQos(full.substr(0, full.find("0   1   0   0   \n        buffer")), q);
  EXPECT_EQ(s.code(), Status::Code::kInvalidArgument);
  EXPECT_NE(s.message().find("PFC enabled has 4 values, not 8"), std::string::npos) << s.message();
  for (std::string_view junk : {std::string_view(""), std::string_view("\xff\xfe\x00garbage"),
                                std::string_view("Unable to get port info: No such device")}) {
    HostPort g;
    Status e = parseMlnxQos(junk, g);
    EXPECT_EQ(e.code(), Status::Code::kCorrupt) << junk;
  }
}

}  // namespace
}  // namespace rdmagw::southbound::rdma
