#include "southbound/gpu/nvidia_smi_source.h"

#include <gtest/gtest.h>
#include <stdlib.h>

#include <string>
#include <vector>

#include "southbound/rdma/local_tool.h"
#include "tests/support/test_support.h"

namespace rdmagw::southbound::gpu {
namespace {

const std::string kFakeNvidiaSmi = std::string(RDMAGW_SOURCE_DIR) + "/tests/southbound/gpu/fake_nvidia_smi.sh";

// The gateway's own process runner, through a shell as an SSH session would.
Result<std::string> runLocally(const std::string& command) {
  return rdma::runLocalTool({"/bin/sh", "-c", command}, "nvidia-smi");
}

constexpr char kTwoGpus[] =
    "0, GPU-11111111-2222-3333-4444-555555555555, 00000000:3B:00.0, 59, 100, 11, 19818, 81559, 631.95, 700.00, 0, 0, "
    "3, 1, [N/A], [N/A], [N/A], 0, 0, No, No, 5, 5, 16, 16, Disabled, NVIDIA H100 80GB HBM3\n"
    "1, GPU-66666666-7777-8888-9999-000000000000, 00000000:8D:00.0, 33, [N/A], [N/A], 59, 81559, 71.50, 700.00, "
    "0, 0, 0, 0, [N/A], [N/A], [N/A], [N/A], [N/A], [N/A], [N/A], 5, 5, 16, 16, Enabled, NVIDIA H100 80GB HBM3\n";

class NvidiaSmiSourceTest : public ::testing::Test {
 protected:
  void SetUp() override {
    ASSERT_FALSE(dir_.path().empty());
    ::setenv("FAKE_NVIDIA_SMI_OUTPUT", dir_.file("out.csv").c_str(), 1);
    ::unsetenv("FAKE_NVIDIA_SMI_EXIT");
  }
  void TearDown() override {
    ::unsetenv("FAKE_NVIDIA_SMI_OUTPUT");
    ::unsetenv("FAKE_NVIDIA_SMI_EXIT");
  }
  void prints(const std::string& csv) { ASSERT_TRUE(testing::writeFile(dir_.file("out.csv"), csv)); }

  testing::TempDir dir_{"nvidia-smi-source"};
};

TEST_F(NvidiaSmiSourceTest, ReadsTheFakeToolsGpusThroughTheLocalRunner) {
  prints(kTwoGpus);
  NvidiaSmiSource source(runLocally, kFakeNvidiaSmi);
  const auto polled = source.poll();
  ASSERT_TRUE(polled.isOk()) << polled.status().message();
  ASSERT_EQ(polled->size(), 2u);
  EXPECT_EQ((*polled)[0].uuid, "GPU-11111111-2222-3333-4444-555555555555");
  EXPECT_EQ((*polled)[0].power_draw_mw, 631950u);
  EXPECT_EQ((*polled)[1].pci_bus_id, "00000000:8D:00.0");
  EXPECT_EQ((*polled)[1].mig_enabled, true);
  EXPECT_FALSE((*polled)[1].utilization_gpu_pct.has_value());
  EXPECT_TRUE(source.lineErrors().empty());
}

TEST_F(NvidiaSmiSourceTest, SendsTheQueryCommandToTheRunner) {
  std::vector<std::string> seen;
  NvidiaSmiSource source(
      [&seen](const std::string& command) -> Result<std::string> {
        seen.push_back(command);
        return std::string(kTwoGpus);
      },
      "/usr/bin/nvidia-smi");
  ASSERT_TRUE(source.poll().isOk());
  ASSERT_EQ(seen.size(), 1u);
  EXPECT_EQ(seen[0], source.command());
  EXPECT_TRUE(seen[0].starts_with("/usr/bin/nvidia-smi --query-gpu=index,")) << seen[0];
}

TEST_F(NvidiaSmiSourceTest, ToolFailingWithoutDriverIsTheRunnersError) {
  prints(kTwoGpus);
  ::setenv("FAKE_NVIDIA_SMI_EXIT", "9", 1);
  NvidiaSmiSource source(runLocally, kFakeNvidiaSmi);
  const auto polled = source.poll();
  ASSERT_FALSE(polled.isOk());
  EXPECT_EQ(polled.status().code(), Status::Code::kNotFound) << polled.status().message();
}

TEST_F(NvidiaSmiSourceTest, MissingToolIsTheRunnersError) {
  NvidiaSmiSource source(runLocally, dir_.file("no-such-nvidia-smi"));
  EXPECT_FALSE(source.poll().isOk());
}

TEST_F(NvidiaSmiSourceTest, UnreadableLineIsReportedAndTheOtherGpuKept) {
  prints(std::string("Unable to determine the device handle for GPU0000:5E:00.0: Unknown Error\n") + kTwoGpus);
  NvidiaSmiSource source(runLocally, kFakeNvidiaSmi);
  const auto polled = source.poll();
  ASSERT_TRUE(polled.isOk()) << polled.status().message();
  EXPECT_EQ(polled->size(), 2u);
  ASSERT_EQ(source.lineErrors().size(), 1u);
  EXPECT_TRUE(source.lineErrors()[0].starts_with("line 1: ")) << source.lineErrors()[0];
  prints(kTwoGpus);
  ASSERT_TRUE(source.poll().isOk());
  EXPECT_TRUE(source.lineErrors().empty()) << "errors are the last poll's";
}

TEST_F(NvidiaSmiSourceTest, NothingReadableIsCorrupt) {
  prints("No devices were found? garbage\n");
  NvidiaSmiSource source(runLocally, kFakeNvidiaSmi);
  const auto polled = source.poll();
  ASSERT_FALSE(polled.isOk());
  EXPECT_EQ(polled.status().code(), Status::Code::kCorrupt);
  EXPECT_NE(polled.status().message().find("line 1"), std::string::npos) << polled.status().message();
}

TEST_F(NvidiaSmiSourceTest, NoGpuIsAnEmptyPoll) {
  prints("");
  NvidiaSmiSource source(runLocally, kFakeNvidiaSmi);
  const auto polled = source.poll();
  ASSERT_TRUE(polled.isOk()) << polled.status().message();
  EXPECT_TRUE(polled->empty());
}

}  // namespace
}  // namespace rdmagw::southbound::gpu
