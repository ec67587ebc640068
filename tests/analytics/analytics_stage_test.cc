// The stage on its thread, against the wall clock: only that it runs, writes
// and stops; what it writes is analytics_engine_test's business.

#include "analytics/analytics_stage.h"

#include <gtest/gtest.h>

#include "tests/analytics/small_fabric.h"
#include "tests/support/test_support.h"

namespace rdmagw::analytics {
namespace {

TEST(AnalyticsStageTest, RunsOnItsPeriodWritesLinksAndStops) {
  Store store;
  TargetHealth h;
  h.up = true;
  h.kind = "nexus";
  store.setHealth("leaf01", h);
  h.kind = "rdma-host";
  store.setHealth("host02", h);
  h.kind = "esxi";
  store.setHealth("esx01", h);
  AnalyticsConfig config = testing::SmallFabric::config();
  config.period = std::chrono::milliseconds(100);
  AnalyticsStage stage(store, config);
  stage.start();
  const bool wrote = testsupport::waitUntil(
      [&] { return store.get("leaf01", "/fabric/interfaces/interface[name=Ethernet1/2]/link/state/peer-target").has_value(); },
      testsupport::kEventWait);
  EXPECT_TRUE(wrote);
  EXPECT_TRUE(testsupport::waitUntil([&] { return stage.runs() >= 2; }));
  stage.stop();
  const uint64_t runs = stage.runs();
  stage.stop();  // twice is fine
  EXPECT_EQ(stage.runs(), runs);
}

}  // namespace
}  // namespace rdmagw::analytics
