// A configuration row the device no longer has leaves the store: each
// reader says which tables it read whole, and applying its batch deletes
// the rows a second reading does not give (a DSCP rule removed, a class gone
// from ETS to strict, a queue no longer strict). A table not read deletes
// nothing.
#include <gtest/gtest.h>

#include <string>

#include "models/roce_leaves.h"
#include "models/store.h"
#include "southbound/nxos/nxos_ipqos_leaves.h"
#include "southbound/rdma/dcb_show.h"
#include "southbound/rdma/mlnx_qos_text.h"
#include "tests/southbound/roce_test_util.h"

namespace rdmagw::southbound {
namespace {

using rdmagw::roce::HostPort;

const std::string kEth = "/interfaces/interface[name=ens1f0np0]/ethernet/dcb";
const std::string kRule26 = kEth + "/dscp-priorities/dscp-priority[dscp=26]/state/priority";
const std::string kRule24 = kEth + "/dscp-priorities/dscp-priority[dscp=24]/state/priority";
const std::string kTc3Bw = kEth + "/traffic-classes/traffic-class[id=3]/state/bandwidth-percent";
const std::string kTc3Tsa = kEth + "/traffic-classes/traffic-class[id=3]/state/tsa";

// One reading of the host through `dcb -j` documents, applied as a poll.
void applyDcb(Store& store, const std::string& app, const std::string& ets) {
  HostPort port;
  port.name = "ens1f0np0";
  if (!app.empty()) ASSERT_TRUE(rdma::parseDcbJson("app", app, port).isOk());
  if (!ets.empty()) ASSERT_TRUE(rdma::parseDcbJson("ets", ets, port).isOk());
  PollBatch b;
  rdmagw::roce::appendHostPortLeaves(port, 1, b);
  const Store::ApplyResult r = store.apply("host01", b);
  ASSERT_EQ(r.rejected, 0u) << r.first_error;
}

std::string stringAt(const Store& store, const std::string& path) {
  auto s = store.get("host01", path);
  return s && std::holds_alternative<std::string>(s->value) ? std::get<std::string>(s->value) : "";
}

TEST(RoceConfigReplaceTest, DcbRuleRemovedLeavesNoStaleRow) {
  Store store;
  applyDcb(store, R"({"dscp_prio":[[24,3],[26,3]]})",
           R"({"tc_bw":[10,10,10,60,10,0,0,0],"tc_tsa":["ets","ets","ets","ets","ets","strict","strict","strict"],)"
           R"("prio_tc":[0,1,2,3,4,5,6,7]})");
  ASSERT_TRUE(store.get("host01", kRule24).has_value());
  ASSERT_TRUE(store.get("host01", kTc3Bw).has_value());

  applyDcb(store, R"({"dscp_prio":[[26,3]]})",
           R"({"tc_bw":[0,0,0,0,0,0,0,0],"tc_tsa":["strict","strict","strict","strict","strict","strict","strict","strict"],)"
           R"("prio_tc":[0,1,2,3,4,5,6,7]})");
  EXPECT_FALSE(store.get("host01", kRule24).has_value()) << "the rule was deleted on the host";
  EXPECT_TRUE(store.get("host01", kRule26).has_value());
  // `dcb` prints a share for every class, strict ones too (0).
  ASSERT_TRUE(store.get("host01", kTc3Bw).has_value());
  EXPECT_EQ(std::get<uint64_t>(store.get("host01", kTc3Bw)->value), 0u);
  EXPECT_EQ(stringAt(store, kTc3Tsa), "strict");

  // A reading without the APP table (the object failed) keeps its rows.
  applyDcb(store, "", R"({"tc_tsa":["ets","ets","ets","ets","ets","ets","ets","ets"],"prio_tc":[0,1,2,3,4,5,6,7]})");
  EXPECT_TRUE(store.get("host01", kRule26).has_value());
}

// mlnx_qos prints no share for a strict class: its old share must go.
TEST(RoceConfigReplaceTest, MlnxQosTrustingPcpAndStrictLeavesNoStaleRows) {
  Store store;
  for (const char* text : {"Priority trust state: dscp\ndscp2prio mapping:\n        prio:3 dscp:24,26,\n"
                           "tc: 3 ratelimit: unlimited, tsa: ets, bw: 60%\n         priority:  3\n",
                           "Priority trust state: pcp\ntc: 3 ratelimit: unlimited, tsa: strict\n         priority:  3\n"}) {
    HostPort port;
    port.name = "ens1f0np0";
    ASSERT_TRUE(rdma::parseMlnxQos(text, port).isOk());
    PollBatch b;
    rdmagw::roce::appendHostPortLeaves(port, 1, b);
    store.apply("host01", b);
    if (std::string_view(text).find("dscp2prio") != std::string_view::npos) {
      ASSERT_TRUE(store.get("host01", kRule24).has_value());
      ASSERT_TRUE(store.get("host01", kTc3Bw).has_value());
    }
  }
  EXPECT_FALSE(store.get("host01", kRule24).has_value());
  EXPECT_FALSE(store.get("host01", kRule26).has_value());
  EXPECT_FALSE(store.get("host01", kTc3Bw).has_value());
  EXPECT_EQ(stringAt(store, kTc3Tsa), "strict");
}

TEST(RoceConfigReplaceTest, SwitchQueueNoLongerStrictLosesItsPriorityLevel) {
  const std::string level = "/qos/qos-groups/qos-group[id=6]/state/priority-level";
  const std::string bw = "/qos/qos-groups/qos-group[id=6]/state/bandwidth-percent";
  std::string text = testing::roceFixture("nxos_running-config_qos_snippet__zartbot-blog.txt");
  Store store;
  PollBatch first;
  ASSERT_TRUE(nxos::parseNxosIpqosLeaves(text, 1, first).isOk());
  store.apply("leaf01", first);
  ASSERT_TRUE(store.get("leaf01", level).has_value());

  const size_t at = text.find("priority level 2");
  ASSERT_NE(at, std::string::npos);
  text.replace(at, std::string("priority level 2").size(), "bandwidth remaining percent 5");
  PollBatch second;
  ASSERT_TRUE(nxos::parseNxosIpqosLeaves(text, 2, second).isOk());
  store.apply("leaf01", second);
  EXPECT_FALSE(store.get("leaf01", level).has_value());
  ASSERT_TRUE(store.get("leaf01", bw).has_value());
  EXPECT_EQ(std::get<uint64_t>(store.get("leaf01", bw)->value), 5u);

  // A device error (nothing read) deletes nothing.
  PollBatch failed;
  EXPECT_FALSE(nxos::parseNxosIpqosLeaves("% Invalid command at '^' marker.\n", 3, failed).isOk());
  store.apply("leaf01", failed);
  EXPECT_TRUE(store.get("leaf01", bw).has_value());
}

}  // namespace
}  // namespace rdmagw::southbound
