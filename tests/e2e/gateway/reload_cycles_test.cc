// Adding and removing targets frees everything they held: 200 cycles of
// five targets (sysfs hosts, an ESXi host over SSH, the Nexus leaf over
// gNMI) leave the gateway with the threads, targets and self-metrics it had
// before. The sanitizer suite (scripts/sanitize.sh address) runs this under
// LeakSanitizer, which fails the run on any leak.

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <map>
#include <string>

#include "models/self_metrics.h"
#include "tests/gateway/reload_bed.h"

namespace rdmagw::testing {
using namespace rdmagw::gateway;  // the helpers speak the vocabulary of the code they test
namespace {

// "name xN" of every thread of the process, for a failure message.
std::string threadNames() {
  std::map<std::string, int> names;
  for (const auto& task : std::filesystem::directory_iterator("/proc/self/task")) {
    std::ifstream comm(task.path() / "comm");
    std::string name;
    std::getline(comm, name);
    ++names[name];
  }
  std::string out;
  for (const auto& [name, n] : names) out += name + " x" + std::to_string(n) + ", ";
  return out;
}

long procStatus(const std::string& key) {
  std::ifstream in("/proc/self/status");
  for (std::string line; std::getline(in, line);) {
    if (line.rfind(key + ":", 0) == 0) return std::stol(line.substr(key.size() + 1));
  }
  return -1;
}

TEST(ReloadCyclesTest, TwoHundredAddRemoveCyclesLeaveNothingBehind) {
  BedOptions opts;
  opts.hosts = 4;
  opts.esxi_hosts = 2;
  opts.watch_files = false;  // reloads are asked for directly, one per step
  ReloadBed bed(opts);
  const std::string peers = bed.startPeers();
  if (peers.find("needs root") != std::string::npos) GTEST_SKIP() << peers;
  ASSERT_EQ(peers, "");
  bed.writeTargets("base.yaml", bed.hostYaml(1) + bed.esxiYaml(1));
  ASSERT_EQ(bed.startGateway(), "");
  ASSERT_TRUE(bed.waitUp({"host01", "esx01"}));
  const std::string cycled = bed.hostYaml(2) + bed.hostYaml(3) + bed.hostYaml(4) + bed.esxiYaml(2) + bed.leafYaml();

  // One cycle first: pools that grow once (poll workers, gRPC's) are not leaks.
  auto cycle = [&](bool wait_up) {
    bed.writeTargets("cycled.yaml", cycled);
    ReloadResult add = bed.reloader().reload("test: add");
    ASSERT_TRUE(add.ok) << add.summary();
    ASSERT_EQ(add.added, 5u);
    if (wait_up) {
      ASSERT_TRUE(bed.waitUp({"host02", "host03", "host04", "esx02", "leaf01"}));
    }
    bed.removeTargets("cycled.yaml");
    ReloadResult remove = bed.reloader().reload("test: remove");
    ASSERT_TRUE(remove.ok) << remove.summary();
    ASSERT_EQ(remove.removed, 5u);
  };
  cycle(true);
  const long threads_before = procStatus("Threads");
  const std::string names_before = threadNames();
  const size_t metrics_before = SelfMetrics::instance().collect().size();
  const long rss_before = procStatus("VmRSS");
  for (int i = 1; i <= 200; ++i) {
    // Every 50th cycle the targets really connect before they go; the
    // others go while still connecting (the harder case for a clean stop).
    cycle(i % 50 == 0);
    if (HasFatalFailure()) return;
  }
  const long rss_after = procStatus("VmRSS");
  std::printf("RSS after the first cycle %ld kB, after 200 more %ld kB\n", rss_before, rss_after);
  EXPECT_EQ(bed.running(), (std::vector<std::string>{"esx01", "host01"}));
  EXPECT_EQ(bed.pipeline().store().targets().size(), 2u);
  EXPECT_EQ(SelfMetrics::instance().collect().size(), metrics_before);
  // Threads end with their targets (gRPC's own pools grow and shrink on their own, within a few).
  EXPECT_TRUE(testing::waitUntil([&] { return procStatus("Threads") <= threads_before + 8; }))
      << procStatus("Threads") << " threads: " << threadNames() << "\n" << threads_before << " before: " << names_before;
  EXPECT_TRUE(bed.status("host01").health.up);
  EXPECT_EQ(bed.status("host01").counter_resets, 0u);
}

}  // namespace
}  // namespace rdmagw::testing
