// `esxcli network nic dcb status get` into a host port: the reconstructed
// layout the ESXi collector and the simulator share, and broken input.

#include "southbound/esxi/esxi_dcb_config.h"

#include <gtest/gtest.h>

#include "tests/southbound/roce_test_util.h"

namespace rdmagw::southbound::esxi {
namespace {

using rdmagw::roce::HostPort;
using rdmagw::roce::Tsa;

TEST(EsxiDcbConfigTest, ReconstructedStatusFieldByField) {
  HostPort p;
  Status s = parseEsxiDcbConfig(testing::fixture("esxi/SYNTHETIC_esxcli_network_nic_dcb_status_get.txt"), p);
  ASSERT_TRUE(s.isOk()) << s.message();
  EXPECT_EQ(p.name, "vmnic4");
  EXPECT_EQ(p.dcbx_mode, "IEEE");
  EXPECT_EQ(p.pfc_enabled, uint8_t(1u << 3));
  const uint32_t bw[] = {13, 13, 13, 13, 12, 12, 12, 12};
  const uint32_t prio_tc[] = {1, 0, 2, 3, 4, 5, 6, 7};
  for (int i = 0; i < 8; ++i) {
    EXPECT_EQ(p.tc[i].bandwidth_percent, bw[i]) << i;
    EXPECT_EQ(p.tc[i].tsa, Tsa::kEts) << i;  // IEEE code 2
    EXPECT_EQ(p.priority_tc[i], prio_tc[i]) << i;
  }
  EXPECT_FALSE(p.trust);  // ESXi does not report one
}

TEST(EsxiDcbConfigTest, PriorityAssignmentIsIndexedByPriority) {
  HostPort p;
  ASSERT_TRUE(parseEsxiDcbConfig("   PFC Enabled: true\n   PFC Configuration: 0 0 0 0 0 1 0 0\n"
                                 "   Priority Assignment Per TC: 0 0 0 0 1 1 2 2\n",
                                 p)
                  .isOk());
  EXPECT_EQ(p.priority_tc[0], 0u);
  EXPECT_EQ(p.priority_tc[5], 1u);
  EXPECT_EQ(p.priority_tc[7], 2u);
}

TEST(EsxiDcbConfigTest, PfcDisabledCeeAndBadValues) {
  HostPort p;
  ASSERT_TRUE(parseEsxiDcbConfig("   Nic Name: vmnic2\n   Mode: CEE Mode\n   PFC Enabled: false\n"
                                 "   PFC Configuration: 0 0 0 1 0 0 0 0\n",
                                 p)
                  .isOk());
  EXPECT_EQ(p.dcbx_mode, "CEE");
  EXPECT_EQ(p.pfc_enabled, 0u);  // PFC off honours no pause at all

  HostPort q;
  Status s = parseEsxiDcbConfig("   PFC Enabled: true\n   PFC Configuration: 0 0 0 1 0 0 0\n"
                                "   TX Bandwidth Per TC: 13 13 13 13 12 12 12 120\n"
                                "   TSA Assignment Table Per TC: 2 2 2 2 2 2 2 7\n"
                                "   Priority Assignment Per TC: 1 0 2 3 4 5 6 x\n",
                                q);
  ASSERT_EQ(s.code(), Status::Code::kInvalidArgument);
  for (const char* part : {"PFC Configuration has 7 values, not 8", "120 is out of range 0..100",
                           "TSA code 7 is not 0, 1, 2 or 255", "'x' is not a number"}) {
    EXPECT_NE(s.message().find(part), std::string::npos) << part << " in " << s.message();
  }
  EXPECT_FALSE(q.pfc_enabled);
  EXPECT_FALSE(q.tc[0].bandwidth_percent);
  EXPECT_EQ(q.tc[0].tsa, Tsa::kEts);
  EXPECT_EQ(q.tc[7].tsa, std::nullopt);
}

TEST(EsxiDcbConfigTest, ErrorsAndGarbage) {
  HostPort p;
  EXPECT_EQ(parseEsxiDcbConfig("Error: Unknown command or namespace network nic dcb status get\n", p).code(),
            Status::Code::kNotFound);
  EXPECT_EQ(parseEsxiDcbConfig("", p).code(), Status::Code::kCorrupt);
  EXPECT_EQ(parseEsxiDcbConfig("   PFC Enabled: maybe\n", p).code(), Status::Code::kInvalidArgument);
  EXPECT_EQ(parseEsxiDcbConfig("\x01\x02\x03:\x04", p).code(), Status::Code::kCorrupt);
}

}  // namespace
}  // namespace rdmagw::southbound::esxi
