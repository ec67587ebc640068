// The derived families reach /metrics with the raw families' label style:
// target first, then the same keys the raw counters of that port carry, then
// the target's configured labels. The exposition knows nothing of analytics.

#include <gtest/gtest.h>

#include <unistd.h>

#include <algorithm>

#include "northbound/prometheus/exposition.h"
#include "tests/analytics/small_fabric.h"
#include "tests/support/test_support.h"

namespace rdmagw::analytics {
namespace {

using testing::SmallFabric;

bool hasLine(const std::string& text, const std::string& line) {
  return text.find("\n" + line + "\n") != std::string::npos;
}

bool hasPrefix(const std::string& text, const std::string& prefix) {
  return text.find("\n" + prefix) != std::string::npos;
}

TEST(FabricExpositionTest, DerivedFamiliesCarryTheRawLabels) {
  SmallFabric f;
  f.ticks(6, [&] {
    f.bump("host01", SmallFabric::hw("np-ecn-marked-roce-packets"), 1000);
    f.bump("host01", SmallFabric::pfc("ens1f0np0", 3, "out-pause-frames"), 10);
    f.bump("leaf01", SmallFabric::pfc("Ethernet1/1", 3, "in-pause-frames"), 10);
  });
  const std::string text = northbound::prometheus::ExpositionWriter().build(f.store());

  // Raw and derived series of the same RDMA port: same label set and order.
  const std::string port = "{target=\"host01\",device=\"mlx5_0\",port=\"1\",rack=\"r1\"}";
  EXPECT_TRUE(hasPrefix(text, "rdmagw_rdma_port_np_ecn_marked_roce_packets_total" + port + " ")) << text;
  EXPECT_TRUE(hasLine(text, "rdmagw_fabric_dcqcn_verdict_code" + port + " 2")) << text;
  EXPECT_TRUE(hasLine(text, "rdmagw_fabric_dcqcn_ecn_marked_packets_per_second" + port + " 1000"));
  EXPECT_TRUE(hasLine(text,
      "rdmagw_fabric_dcqcn_verdict_info{target=\"host01\",device=\"mlx5_0\",port=\"1\",verdict=\"marks-no-cnp\",rack=\"r1\"} 1"));

  // Raw and derived series of the same interface and priority.
  const std::string prio = "{target=\"host01\",interface=\"ens1f0np0\",priority=\"3\",rack=\"r1\"}";
  EXPECT_TRUE(hasPrefix(text, "rdmagw_interface_pfc_out_pause_frames_total" + prio + " "));
  EXPECT_TRUE(hasLine(text, "rdmagw_fabric_pause_tree_state_code" + prio + " 2"));
  EXPECT_TRUE(hasLine(text, "rdmagw_fabric_pfc_pause_balance_code" + prio + " 1"));
  EXPECT_TRUE(hasLine(text, "rdmagw_fabric_pause_tree_state_code{target=\"leaf01\",interface=\"Ethernet1/1\",priority=\"3\"} 1"));
  EXPECT_TRUE(hasLine(text,
      "rdmagw_fabric_link_peer_target_info{target=\"leaf01\",interface=\"Ethernet1/1\",peer_target=\"host01\"} 1"));

  for (const char* family : {"rdmagw_fabric_dcqcn_verdict_code", "rdmagw_fabric_pfc_paused_ratio",
                             "rdmagw_fabric_pfc_lossless_drop_alarm", "rdmagw_fabric_pause_tree_size_ports"}) {
    EXPECT_TRUE(hasLine(text, std::string("# TYPE ") + family + " gauge")) << family;
  }
}

// The naming and format checks Prometheus maintainers apply to exporters,
// on an exposition holding every derived family this fabric produces.
TEST(FabricExpositionTest, PromtoolFindsNothingToLint) {
  constexpr const char* kPromtool = "/usr/bin/promtool";
  if (access(kPromtool, X_OK) != 0) GTEST_SKIP() << kPromtool << " not installed";
  SmallFabric f;
  f.ticks(6, [&] {
    f.bump("host01", SmallFabric::pfc("ens1f0np0", 3, "in-pause-duration"), 1000);
    f.bump("host01", SmallFabric::pfc("ens1f0np0", 3, "out-pause-frames"), 10);
  });
  testing::TempDir tmp("rdmagw-fabric-prom");
  const std::string file = tmp.file("metrics.txt");
  ASSERT_TRUE(testing::writeFile(file, northbound::prometheus::ExpositionWriter().build(f.store())));
  const testing::CommandResult r = testing::runCommand(std::string(kPromtool) + " check metrics < " + file);
  EXPECT_EQ(r.exit_code, 0) << r.output;
  EXPECT_EQ(r.output, "");
}

}  // namespace
}  // namespace rdmagw::analytics
