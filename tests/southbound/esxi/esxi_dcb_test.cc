// esxcli network nic dcb status get: the vmnic's PFC priorities and DCBX
// mode, for the fabric's DCB consistency check.

#include "southbound/esxi/esxi_dcb.h"

#include <gtest/gtest.h>

#include "southbound/ssh/profiles/esxi_profile.h"
#include "tests/southbound/esxi/esxi_test_util.h"

namespace rdmagw::southbound::esxi {

using ssh::esxiBundleCommand;
using ssh::parseEsxiBundle;
namespace {

using namespace rdmagw::testing;  // NOLINT

TEST(EsxiDcbTest, IeeeModeWithPfcOnPriorityThree) {
  PollBatch b;
  ASSERT_TRUE(parseEsxiDcbStatusFor("vmnic4", readEsxiFixture("SYNTHETIC_esxcli_network_nic_dcb_status_get.txt"), 1, b).isOk());
  EXPECT_EQ(u64(b, nic("vmnic4") + "pfc-enabled-priorities"), 0x08u);
  EXPECT_EQ(str(b, nic("vmnic4") + "dcbx-mode"), "IEEE");
  EXPECT_EQ(b.updates.size(), 2u);
  expectSchemaRows(b);
}

TEST(EsxiDcbTest, CeeModeWithPfcDisabledHonoursNoPause) {
  PollBatch b;
  ASSERT_TRUE(parseEsxiDcbStatusFor("vmnic5",
                                    "   Nic Name: vmnic5\n   Mode: CEE Mode\n   Enabled: true\n"
                                    "   PFC Enabled: false\n   PFC Configuration: 0 0 0 0 0 0 0 0\n",
                                    1, b)
                  .isOk());
  EXPECT_EQ(u64(b, nic("vmnic5") + "pfc-enabled-priorities"), 0u);
  EXPECT_EQ(str(b, nic("vmnic5") + "dcbx-mode"), "CEE");
}

TEST(EsxiDcbTest, BrokenOrForeignOutputIsAClearError) {
  PollBatch b;
  Status bad = parseEsxiDcbStatusFor("vmnic4", "   Mode: IEEE Mode\n   PFC Enabled: true\n   PFC Configuration: 0 0 1\n", 1, b);
  EXPECT_EQ(bad.code(), Status::Code::kCorrupt);
  EXPECT_NE(bad.message().find("not 8 flags"), std::string::npos) << bad.message();
  EXPECT_EQ(str(b, nic("vmnic4") + "dcbx-mode"), "IEEE") << "what parsed stays";
  PollBatch other;
  EXPECT_EQ(parseEsxiDcbStatusFor("vmnic4", "   Nic Name: vmnic7\n   PFC Enabled: true\n", 1, other).code(),
            Status::Code::kInvalidArgument);
  PollBatch none;
  EXPECT_EQ(parseEsxiDcbStatusFor("vmnic4", "Error: Unable to get DCB status: Not supported\n", 1, none).code(),
            Status::Code::kNotFound);
  EXPECT_TRUE(none.updates.empty());
}

TEST(EsxiDcbTest, TheBundleReadsTheDcbSectionAndStaysQuietWithoutDcb) {
  const std::string list = readEsxiFixture("SYNTHETIC_esxcli_network_nic_list.txt");
  PollBatch b;
  ASSERT_TRUE(parseEsxiBundle(list + "@@rdmagw dcb vmnic4\n" +
                                  readEsxiFixture("SYNTHETIC_esxcli_network_nic_dcb_status_get.txt") +
                                  "@@rdmagw dcb vmnic5\nError: Unable to get DCB status: Not supported\n"
                                  "@@rdmagw dcb vmnic6\n   PFC Enabled: maybe\n",
                              1, b)
                  .isOk());
  EXPECT_EQ(u64(b, nic("vmnic4") + "pfc-enabled-priorities"), 0x08u);
  EXPECT_FALSE(u64(b, nic("vmnic5") + "pfc-enabled-priorities"));
  ASSERT_EQ(b.errors.size(), 1u) << "vmnic5 without DCB is quiet; vmnic6's garbage is not";
  EXPECT_NE(b.errors[0].find("vmnic6 dcb: esxcli nic dcb: PFC Enabled is 'maybe'"), std::string::npos) << b.errors[0];
  EXPECT_NE(esxiBundleCommand().find("esxcli network nic dcb status get -n \"$n\""), std::string::npos);
}

// The vmnic as a host NIC port for the RoCE check: its PFC priorities and
// ETS table under /interfaces, nothing ESXi does not report.
TEST(EsxiDcbTest, TheBundleWritesTheVmnicsEtsTableAsAHostPort) {
  const std::string list = readEsxiFixture("SYNTHETIC_esxcli_network_nic_list.txt");
  PollBatch b;
  ASSERT_TRUE(parseEsxiBundle(list + "@@rdmagw dcb vmnic4\n" +
                                  readEsxiFixture("SYNTHETIC_esxcli_network_nic_dcb_status_get.txt") +
                                  "@@rdmagw dcb vmnic5\nError: Unable to get DCB status: Not supported\n",
                              1, b)
                  .isOk());
  EXPECT_TRUE(b.errors.empty()) << b.errors.front();
  const std::string e = "/interfaces/interface[name=vmnic4]/ethernet";
  EXPECT_EQ(u64(b, e + "/pfc/state/enabled-priorities"), 0x08u);
  // "Priority Assignment Per TC: 1 0 2 3 4 5 6 7": priority 0 -> TC 1, 1 -> 0.
  EXPECT_EQ(u64(b, e + "/dcb/priorities/priority[id=0]/state/traffic-class"), 1u);
  EXPECT_EQ(u64(b, e + "/dcb/priorities/priority[id=1]/state/traffic-class"), 0u);
  EXPECT_EQ(u64(b, e + "/dcb/priorities/priority[id=3]/state/traffic-class"), 3u);
  EXPECT_EQ(str(b, e + "/dcb/traffic-classes/traffic-class[id=3]/state/tsa"), "ets");
  EXPECT_EQ(u64(b, e + "/dcb/traffic-classes/traffic-class[id=3]/state/bandwidth-percent"), 13u);
  EXPECT_EQ(u64(b, e + "/dcb/traffic-classes/traffic-class[id=7]/state/bandwidth-percent"), 12u);
  EXPECT_FALSE(str(b, e + "/dcb/state/trust")) << "ESXi reports no trust mode";
  for (const Update& u : b.updates) {
    EXPECT_FALSE(u.path.starts_with("/interfaces/interface[name=vmnic5]")) << "no DCB: nothing, quietly: " << u.path;
  }
  expectSchemaRows(b);

  // A bad ETS value: that error line, the rest written.
  std::string broken = readEsxiFixture("SYNTHETIC_esxcli_network_nic_dcb_status_get.txt");
  broken.replace(broken.find("2 2 2 2 2 2 2 2"), 15, "2 2 2 9 2 2 2 2");
  PollBatch c;
  ASSERT_TRUE(parseEsxiBundle(list + "@@rdmagw dcb vmnic4\n" + broken, 1, c).isOk());
  ASSERT_EQ(c.errors.size(), 1u);
  EXPECT_NE(c.errors[0].find("vmnic4 dcb: esxcli nic dcb: TSA Assignment Table Per TC: TSA code 9"), std::string::npos)
      << c.errors[0];
  EXPECT_FALSE(str(c, e + "/dcb/traffic-classes/traffic-class[id=3]/state/tsa"));
  EXPECT_EQ(str(c, e + "/dcb/traffic-classes/traffic-class[id=2]/state/tsa"), "ets");
  EXPECT_EQ(u64(c, e + "/dcb/traffic-classes/traffic-class[id=3]/state/bandwidth-percent"), 13u);
}

}  // namespace
}  // namespace rdmagw::southbound::esxi
