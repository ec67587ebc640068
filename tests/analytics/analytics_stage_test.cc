// The stage on its thread, against the wall clock: only that it runs, writes
// and stops; what it writes is analytics_engine_test's business.

#include "analytics/analytics_stage.h"

#include <gtest/gtest.h>

#include <optional>
#include <string_view>

#include "models/self_metrics.h"
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
  const bool wrote = testing::waitUntil(
      [&] { return store.get("leaf01", "/fabric/interfaces/interface[name=Ethernet1/2]/link/state/peer-target").has_value(); },
      testing::kEventWait);
  EXPECT_TRUE(wrote);
  EXPECT_TRUE(testing::waitUntil([&] { return stage.runs() >= 2; }));
  stage.stop();
  const uint64_t runs = stage.runs();
  stage.stop();  // twice is fine
  EXPECT_EQ(stage.runs(), runs);
}

// The stage's cost as self-metrics: absent before its first run, then the
// last run's wall time, its RoCE check pass's within it, and the run count;
// gone with the stage.
TEST(AnalyticsStageTest, ReportsItsLastRunAsSelfMetrics) {
  const auto find = [](std::string_view id) -> std::optional<double> {
    for (const SelfMetricSample& s : SelfMetrics::instance().collect()) {
      if (s.id == id) return s.value;
    }
    return std::nullopt;
  };
  Store store;
  TargetHealth h;
  h.up = true;
  h.kind = "rdma-host";
  store.setHealth("host02", h);
  AnalyticsConfig config = testing::SmallFabric::config();
  config.period = std::chrono::milliseconds(100);
  {
    AnalyticsStage stage(store, config);
    EXPECT_FALSE(find("analytics_run_duration").has_value());
    stage.start();
    ASSERT_TRUE(testing::waitUntil([&] { return stage.runs() >= 2; }));
    const std::optional<double> run = find("analytics_run_duration");
    const std::optional<double> roce = find("analytics_roce_check_duration");
    ASSERT_TRUE(run.has_value());
    ASSERT_TRUE(roce.has_value());
    EXPECT_GT(*run, 0);
    EXPECT_GT(*roce, 0);
    EXPECT_LE(*roce, *run);
    EXPECT_GE(find("analytics_runs").value_or(0), 2);
    stage.stop();
  }
  EXPECT_FALSE(find("analytics_runs").has_value());
}

}  // namespace
}  // namespace rdmagw::analytics
