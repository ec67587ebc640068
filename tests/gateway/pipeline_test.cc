// The whole gateway on a simulated tree: collectors fail independently, a
// broken target shows up=0 and keeps nothing stale, the others keep going.

#include "gateway/runtime/pipeline.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <thread>

#include "gateway/demo/demo_config.h"
#include "sim/fabric.h"
#include "sim/tree_writer.h"
#include "tests/support/test_support.h"

namespace rdmagw::gateway {
namespace {

namespace fs = std::filesystem;

class PipelineTest : public ::testing::Test {
 protected:
  void SetUp() override {
    sim::FabricConfig fc;
    fc.hosts = 3;
    fc.devices_per_host = 2;
    fabric_ = std::make_unique<sim::Fabric>(fc);
    for (int i = 0; i < 5; ++i) fabric_->step();
    ASSERT_TRUE(sim::writeTree(*fabric_, dir_.string()).isOk());
  }

  // Waits until every target has been polled at least `polls` times.
  static bool waitForPolls(const Store& store, uint64_t polls) {
    return testing::waitUntil([&] {
      bool all = true;
      for (const TargetStatus& t : store.targets()) all = all && t.health.polls >= polls;
      return all;
    });
  }

  testing::TempDir tmp_{"rdmagw-pipe"};
  fs::path dir_ = tmp_.path();
  std::unique_ptr<sim::Fabric> fabric_;
};

TEST_F(PipelineTest, PollsEveryHostIntoTheStore) {
  auto cfg = demoConfig(dir_.string(), "127.0.0.1:0", std::chrono::milliseconds(100));
  ASSERT_TRUE(cfg.isOk()) << cfg.status().message();
  ASSERT_EQ(cfg->targets.size(), 3u);
  Pipeline p(std::move(cfg).value());
  ASSERT_TRUE(p.start().isOk());
  EXPECT_GT(p.prometheusPort(), 0);
  ASSERT_TRUE(waitForPolls(p.store(), 1));
  for (const TargetStatus& t : p.store().targets()) {
    EXPECT_TRUE(t.health.up) << t.name << ": " << t.health.last_error;
    EXPECT_EQ(t.health.transport, "sysfs");
    EXPECT_GT(t.series, 50u) << t.name;
  }
  const std::string& host = fabric_->hosts().front().name;
  const std::string cnp = "/rdma/devices/device[name=mlx5_0]/ports/port[port-num=1]/state/hw-counters/np-cnp-sent";
  auto s = p.store().get(host, cnp);
  ASSERT_TRUE(s.has_value());
  EXPECT_EQ(std::get<uint64_t>(s->value), fabric_->device(0).port.np_cnp_sent);
  p.stop();
}

TEST_F(PipelineTest, ABrokenTargetIsDownAndExpiredWhileOthersContinue) {
  auto cfg = demoConfig(dir_.string(), "127.0.0.1:0", std::chrono::milliseconds(100));
  ASSERT_TRUE(cfg.isOk());
  const std::string victim = cfg->targets[1].name;
  for (auto& t : cfg.value().targets) t.stale_after = std::chrono::milliseconds(200);
  Pipeline p(std::move(cfg).value());
  ASSERT_TRUE(p.start().isOk());
  ASSERT_TRUE(waitForPolls(p.store(), 1));
  // The host's whole sysfs vanishes (host gone, or a bad mount).
  fs::rename(dir_ / victim / "sys", dir_ / victim / "sys.gone");
  std::this_thread::sleep_for(std::chrono::milliseconds(600));
  ASSERT_TRUE(waitForPolls(p.store(), 5));
  for (const TargetStatus& t : p.store().targets()) {
    if (t.name == victim) {
      EXPECT_FALSE(t.health.up);
      EXPECT_GT(t.health.poll_errors, 0u);
      EXPECT_NE(t.health.last_error.find("infiniband"), std::string::npos) << t.health.last_error;
      EXPECT_EQ(t.series, 0u) << "stale data must be expired";
    } else {
      EXPECT_TRUE(t.health.up) << t.name;
      EXPECT_GT(t.series, 50u);
    }
  }
  // It comes back.
  fs::rename(dir_ / victim / "sys.gone", dir_ / victim / "sys");
  const uint64_t before = p.store().targets()[1].health.polls;
  ASSERT_TRUE(waitForPolls(p.store(), before + 2));
  for (const TargetStatus& t : p.store().targets()) EXPECT_TRUE(t.health.up) << t.name;
  p.stop();
}

TEST_F(PipelineTest, BusyPortIsAClearStartError) {
  auto cfg1 = demoConfig(dir_.string(), "127.0.0.1:0", std::chrono::milliseconds(1000));
  ASSERT_TRUE(cfg1.isOk());
  Pipeline first(std::move(cfg1).value());
  ASSERT_TRUE(first.start().isOk());
  auto cfg2 = demoConfig(dir_.string(), "127.0.0.1:" + std::to_string(first.prometheusPort()),
                         std::chrono::milliseconds(1000));
  ASSERT_TRUE(cfg2.isOk());
  Pipeline second(std::move(cfg2).value());
  Status st = second.start();
  EXPECT_FALSE(st.isOk());
  EXPECT_NE(st.message().find(std::to_string(first.prometheusPort())), std::string::npos) << st.message();
}

// The analytics stage runs inside the pipeline: the hosts' counters of this
// static tree never move, so once two polls are in every port is idle.
TEST_F(PipelineTest, AnalyticsWritesVerdictsIntoTheHostsTargets) {
  auto cfg = demoConfig(dir_.string(), "127.0.0.1:0", std::chrono::milliseconds(100));
  ASSERT_TRUE(cfg.isOk()) << cfg.status().message();
  addSimAnalytics(cfg.value(), *fabric_, std::chrono::milliseconds(100));
  EXPECT_TRUE(cfg->analytics_enabled);
  EXPECT_TRUE(cfg->analytics.links.empty()) << "no switch targets: no link has both ends";
  Pipeline p(std::move(cfg).value());
  ASSERT_TRUE(p.start().isOk());
  const std::string& host = fabric_->hosts().front().name;
  const std::string verdict = "/fabric/dcqcn/devices/device[name=mlx5_0]/ports/port[port-num=1]/state/verdict";
  ASSERT_TRUE(testing::waitUntil([&] { return p.store().get(host, verdict).has_value(); }));
  EXPECT_EQ(std::get<std::string>(p.store().get(host, verdict)->value), "idle");
  p.stop();
}

// The demo learns its links from the leaves' LLDP; the static cabling stays
// available as the fallback for switches that serve none.
TEST_F(PipelineTest, SimAnalyticsLeavesTheCablingToLldpOrWritesItStatically) {
  auto cfg = demoConfig(dir_.string(), "127.0.0.1:0", std::chrono::milliseconds(100));
  ASSERT_TRUE(cfg.isOk()) << cfg.status().message();
  for (const sim::Switch& sw : fabric_->switches()) {
    TargetConfig t;
    t.name = sw.name;
    t.kind = "nexus";
    cfg.value().targets.push_back(t);
  }
  addSimAnalytics(cfg.value(), *fabric_, std::chrono::milliseconds(100));
  EXPECT_TRUE(cfg->analytics.links.empty());
  addSimAnalytics(cfg.value(), *fabric_, std::chrono::milliseconds(100), SimLinks::kStatic);
  ASSERT_EQ(cfg->analytics.links.size(), size_t(fabric_->deviceCount()));  // no ESXi target in this config
  EXPECT_EQ(cfg->analytics.links[0].a.toString(), fabric_->switches()[0].name + ":" + fabric_->switchPortOf(0).name);
  EXPECT_EQ(cfg->analytics.links[0].b.kind, analytics::LinkEnd::Kind::kRdmaPort);
}

}  // namespace
}  // namespace rdmagw::gateway
