// The demo runner: tick 0 is on disk when start() returns, ticks follow on a
// period, stop() is prompt and idempotent, readers never see partial files.

#include "sim/sim_runner.h"

#include <gtest/gtest.h>
#include <stdlib.h>

#include <atomic>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <thread>

namespace rdmagw::sim {
namespace {

namespace fs = std::filesystem;
using namespace std::chrono_literals;

std::string slurp(const fs::path& p) {
  std::ifstream in(p, std::ios::binary);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

class SimRunnerTest : public ::testing::Test {
 protected:
  void SetUp() override {
    std::string tmpl = (fs::temp_directory_path() / "rdmagw-runner-XXXXXX").string();
    ASSERT_NE(mkdtemp(tmpl.data()), nullptr);
    dir_ = tmpl;
  }
  void TearDown() override { fs::remove_all(dir_); }

  // Generous: file creation is slow on small shared VMs.
  bool waitForTick(const SimRunner& r, int tick) {
    for (int i = 0; i < 3000 && r.writtenTick() < tick; ++i) std::this_thread::sleep_for(10ms);
    return r.writtenTick() >= tick;
  }

  fs::path dir_;
};

TEST_F(SimRunnerTest, WritesTickZeroBeforeStartReturnsThenKeepsTicking) {
  SimRunner runner(FabricConfig{}, dir_.string(), 20ms);
  EXPECT_EQ(runner.writtenTick(), -1);
  ASSERT_TRUE(runner.start().isOk());
  const fs::path data = dir_ / "host01/sys/class/infiniband/mlx5_1/ports/1/counters/port_rcv_data";
  EXPECT_GE(runner.writtenTick(), 0);
  EXPECT_TRUE(fs::exists(data));
  EXPECT_TRUE(fs::exists(dir_ / "host04/ethtool/ens1f1np1.txt"));
  ASSERT_TRUE(waitForTick(runner, 3));
  runner.stop();
  const int stopped_at = runner.writtenTick();
  EXPECT_NE(slurp(data), "0\n");
  std::this_thread::sleep_for(60ms);
  EXPECT_EQ(runner.writtenTick(), stopped_at) << "ticked after stop()";
  runner.stop();  // idempotent
}

TEST_F(SimRunnerTest, WritesLeafAndEsxiCliEveryTickWellUnderThePeriod) {
  // The demo shape: 4 hosts x 2 devices, one leaf, two ESXi hosts.
  SimRunner runner(FabricConfig{}, dir_.string(), 100ms);
  runner.setShellBinary(RDMAGW_SIM_SHELL_PATH);
  ASSERT_TRUE(runner.start().isOk());
  const fs::path pfc = dir_ / "leaf01/cli/show_interface_priority_flow_control";
  ASSERT_TRUE(fs::exists(pfc));
  EXPECT_EQ(slurp(dir_ / "leaf01/os"), "nxos\n");
  EXPECT_EQ(slurp(dir_ / "esx02/os"), "esxi\n");
  EXPECT_TRUE(fs::exists(dir_ / "esx01/cli/vsish_e_cat_net_pnics_vmnic1_stats"));
  EXPECT_EQ(fs::read_symlink(dir_ / "esx01/bin/esxcli"), fs::path(RDMAGW_SIM_SHELL_PATH));
  EXPECT_EQ(fs::read_symlink(dir_ / "esx02/bin/vsish"), fs::path(RDMAGW_SIM_SHELL_PATH));
  // Switches and ESXi hosts stay out of the demo's RDMA host pattern.
  EXPECT_FALSE(fs::exists(dir_ / "leaf01/sys"));
  EXPECT_FALSE(fs::exists(dir_ / "esx01/sys"));
  const std::string first = slurp(pfc);
  ASSERT_TRUE(waitForTick(runner, 4));
  runner.stop();
  EXPECT_NE(slurp(pfc), first);
  // The tick cost is a figure, not a pass/fail bound (tests never assert
  // wall-clock time): printed here for the log.
  std::printf("sim tick (step + write, 4 hosts + 1 leaf + 2 ESXi): %lld us\n",
              static_cast<long long>(runner.lastTickCost().count()));
}

TEST_F(SimRunnerTest, StartRejectsBadConfigAndDoubleStart) {
  FabricConfig bad;
  bad.hosts = 0;
  SimRunner r1(bad, dir_.string(), 20ms);
  EXPECT_EQ(r1.start().code(), Status::Code::kInvalidArgument);
  SimRunner r2(FabricConfig{}, dir_.string(), 0ms);
  EXPECT_FALSE(r2.start().isOk());
  SimRunner r3(FabricConfig{}, dir_.string(), 50ms);
  ASSERT_TRUE(r3.start().isOk());
  EXPECT_FALSE(r3.start().isOk());
}

TEST_F(SimRunnerTest, UnwritableDirFailsStart) {
  std::ofstream(dir_ / "file") << "x";
  SimRunner r(FabricConfig{}, (dir_ / "file").string(), 20ms);
  EXPECT_EQ(r.start().code(), Status::Code::kIoError);
}

TEST_F(SimRunnerTest, ReadersNeverSeeHalfAFile) {
  FabricConfig small;
  small.hosts = 2;
  small.devices_per_host = 1;
  SimRunner runner(small, dir_.string(), 1ms);
  ASSERT_TRUE(runner.start().isOk());
  const fs::path counter =
      dir_ / "host02/sys/class/infiniband/mlx5_0/ports/1/counters/port_xmit_data";
  const fs::path ethtool = dir_ / "host02/ethtool/ens1f0np0.txt";
  const std::string first = slurp(counter);
  int reads = 0;
  // Read while at least a few ticks are rewritten underneath (or give up).
  const auto deadline = std::chrono::steady_clock::now() + 30s;
  while (runner.writtenTick() < 5 && std::chrono::steady_clock::now() < deadline) {
    const std::string v = slurp(counter);
    ASSERT_FALSE(v.empty());
    ASSERT_EQ(v.back(), '\n');
    ASSERT_EQ(v.find_first_not_of("0123456789\n"), std::string::npos) << v;
    const std::string e = slurp(ethtool);
    ASSERT_EQ(e.rfind("NIC statistics:\n", 0), 0u);
    ASSERT_NE(e.find("tx_pause_storm_error_events: "), std::string::npos);
    ASSERT_EQ(e.back(), '\n');
    ++reads;
  }
  runner.stop();
  EXPECT_NE(slurp(counter), first) << "the counter never changed under the reader";
  EXPECT_GT(reads, 10);
  EXPECT_GE(runner.writtenTick(), 5);
}

TEST_F(SimRunnerTest, AScenarioSwitchedWhileRunningReachesTheFilesAndSwitchesBack) {
  FabricConfig calm;
  calm.calm = true;
  SimRunner runner(calm, dir_.string(), 20ms);
  ASSERT_TRUE(runner.start().isOk());
  const fs::path hw = dir_ / "host01/sys/class/infiniband/mlx5_0/ports/1/hw_counters";
  auto count = [&](const char* name) { return std::stoull(slurp(hw / name)); };
  ASSERT_TRUE(waitForTick(runner, 2));
  EXPECT_EQ(count("np_ecn_marked_roce_packets"), 0u) << "a calm fabric marks nothing";
  runner.setScenario({ScenarioKind::kNpOff, 0});  // host01:mlx5_0 receives an incast, NP off
  bool marked = false;
  for (int i = 0; i < 3000 && !marked; ++i) {
    std::this_thread::sleep_for(10ms);
    marked = count("np_ecn_marked_roce_packets") > 0;
  }
  ASSERT_TRUE(marked) << "the scenario never reached the files";
  EXPECT_EQ(count("np_cnp_sent"), 0u);
  runner.setScenario({});
  // Once off and drained, the marks stop growing: two equal readings five ticks apart.
  bool still = false;
  for (int i = 0; i < 200 && !still; ++i) {
    const int t = runner.writtenTick();
    const uint64_t before = count("np_ecn_marked_roce_packets");
    ASSERT_TRUE(waitForTick(runner, t + 5));
    still = count("np_ecn_marked_roce_packets") == before;
  }
  EXPECT_TRUE(still);
  runner.stop();
}

}  // namespace
}  // namespace rdmagw::sim
