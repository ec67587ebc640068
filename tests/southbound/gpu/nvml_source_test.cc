#include "southbound/gpu/nvml_source.h"

#include <gtest/gtest.h>
#include <stdlib.h>

#include <string>
#include <vector>

#include "tests/support/test_support.h"

namespace rdmagw::southbound::gpu {
namespace {

// Two fully reported GPUs as the fake NVML answers them (gpu.2 is added by
// the tests that need a third).
constexpr char kTwoGpus[] =
    "count=2\n"
    "gpu.0.index=0\n"
    "gpu.0.uuid=GPU-11111111-2222-3333-4444-555555555555\n"
    "gpu.0.name=NVIDIA H100 80GB HBM3\n"
    "gpu.0.bus_id=00000000:3B:00.0\n"
    "gpu.0.bus_id_legacy=0000:3B:00.0\n"
    "gpu.0.temperature=59\n"
    "gpu.0.util_gpu=100\n"
    "gpu.0.util_memory=11\n"
    "gpu.0.memory_total=85520809984\n"
    "gpu.0.memory_used=20780679168\n"
    "gpu.0.power=631950\n"
    "gpu.0.power_limit=700000\n"
    "gpu.0.pcie_tx_kib=1200\n"
    "gpu.0.pcie_rx_kib=34000\n"
    "gpu.0.ecc.corrected.volatile=3\n"
    "gpu.0.ecc.uncorrected.volatile=1\n"
    "gpu.0.ecc.corrected.aggregate=17\n"
    "gpu.0.ecc.uncorrected.aggregate=2\n"
    "gpu.0.retired_sbe=4\n"
    "gpu.0.retired_dbe=0\n"
    "gpu.0.retired_pending=1\n"
    "gpu.0.remapped_correctable=7\n"
    "gpu.0.remapped_uncorrectable=1\n"
    "gpu.0.remapped_pending=1\n"
    "gpu.0.remapped_failure=0\n"
    "gpu.0.link_gen=4\n"
    "gpu.0.link_gen_max=5\n"
    "gpu.0.link_width=8\n"
    "gpu.0.link_width_max=16\n"
    "gpu.0.mig=0\n"
    "gpu.1.index=1\n"
    "gpu.1.uuid=GPU-66666666-7777-8888-9999-000000000000\n"
    "gpu.1.name=NVIDIA A100-SXM4-80GB\n"
    "gpu.1.bus_id=00000000:8D:00.0\n"
    "gpu.1.bus_id_legacy=0000:8D:00.0\n"
    "gpu.1.temperature=33\n"
    "gpu.1.memory_total=85899345920\n"
    "gpu.1.memory_used=0\n"
    "gpu.1.mig=1\n";

class NvmlSourceTest : public ::testing::Test {
 protected:
  void SetUp() override {
    ASSERT_FALSE(dir_.path().empty());
    ::setenv("FAKE_NVML_CONFIG", dir_.file("nvml.conf").c_str(), 1);
  }
  void TearDown() override { ::unsetenv("FAKE_NVML_CONFIG"); }

  // The fake's answers, and a log of the calls it receives.
  void configure(const std::string& config) {
    ASSERT_TRUE(testing::writeFile(dir_.file("nvml.conf"), config + "log=" + log() + "\n"));
  }
  std::string log() const { return dir_.file("calls.log"); }
  int calls(const std::string& name) const {
    const std::string text = testing::readFile(log());
    int n = 0;
    for (size_t at = text.find(name + "\n"); at != std::string::npos; at = text.find(name + "\n", at + 1)) {
      if (at == 0 || text[at - 1] == '\n') ++n;
    }
    return n;
  }

  testing::TempDir dir_{"nvml-source"};
};

TEST_F(NvmlSourceTest, ReadsEveryFieldOfEachGpu) {
  configure(kTwoGpus);
  NvmlSource source(FAKE_NVML_LIBRARY);
  const auto polled = source.poll();
  ASSERT_TRUE(polled.isOk()) << polled.status().message();
  EXPECT_EQ(source.stateCode(), NvmlState::kReady);
  ASSERT_EQ(polled->size(), 2u);
  const GpuSample& g = (*polled)[0];
  EXPECT_EQ(g.index, 0u);
  EXPECT_EQ(g.uuid, "GPU-11111111-2222-3333-4444-555555555555");
  EXPECT_EQ(g.model_name, "NVIDIA H100 80GB HBM3");
  EXPECT_EQ(g.pci_bus_id, "00000000:3B:00.0");
  EXPECT_EQ(g.temperature_c, 59);
  EXPECT_EQ(g.utilization_gpu_pct, 100u);
  EXPECT_EQ(g.utilization_memory_pct, 11u);
  EXPECT_EQ(g.memory_total_bytes, 85520809984u);
  EXPECT_EQ(g.memory_used_bytes, 20780679168u);
  EXPECT_EQ(g.power_draw_mw, 631950u);
  EXPECT_EQ(g.power_limit_mw, 700000u);
  EXPECT_EQ(g.pcie_tx_bytes_per_s, 1200u * 1024);
  EXPECT_EQ(g.pcie_rx_bytes_per_s, 34000u * 1024);
  EXPECT_EQ(g.ecc.volatile_corrected, 3u);
  EXPECT_EQ(g.ecc.volatile_uncorrected, 1u);
  EXPECT_EQ(g.ecc.aggregate_corrected, 17u);
  EXPECT_EQ(g.ecc.aggregate_uncorrected, 2u);
  EXPECT_EQ(g.retired_pages.single_bit, 4u);
  EXPECT_EQ(g.retired_pages.double_bit, 0u);
  EXPECT_EQ(g.retired_pages.pending, true);
  EXPECT_EQ(g.remapped_rows.correctable, 7u);
  EXPECT_EQ(g.remapped_rows.uncorrectable, 1u);
  EXPECT_EQ(g.remapped_rows.pending, true);
  EXPECT_EQ(g.remapped_rows.failure, false);
  EXPECT_EQ(g.pcie_link.gen_current, 4u);
  EXPECT_EQ(g.pcie_link.gen_max, 5u);
  EXPECT_EQ(g.pcie_link.width_current, 8u);
  EXPECT_EQ(g.pcie_link.width_max, 16u);
  EXPECT_EQ(g.mig_enabled, false);
  EXPECT_FALSE(g.read_error.has_value());
  EXPECT_EQ(calls("nvmlInit_v2"), 1) << testing::readFile(log());
  EXPECT_EQ(calls("nvmlDeviceGetPciInfo_v3"), 2);
}

TEST_F(NvmlSourceTest, NotSupportedIsAbsentNotZero) {
  configure(kTwoGpus);
  NvmlSource source(FAKE_NVML_LIBRARY);
  const auto polled = source.poll();
  ASSERT_TRUE(polled.isOk()) << polled.status().message();
  ASSERT_EQ(polled->size(), 2u);
  const GpuSample& g = (*polled)[1];
  EXPECT_EQ(g.temperature_c, 33);
  EXPECT_EQ(g.memory_used_bytes, 0u);
  EXPECT_EQ(g.mig_enabled, true);
  EXPECT_FALSE(g.utilization_gpu_pct.has_value());
  EXPECT_FALSE(g.power_draw_mw.has_value());
  EXPECT_FALSE(g.pcie_tx_bytes_per_s.has_value());
  EXPECT_FALSE(g.ecc.volatile_corrected.has_value());
  EXPECT_FALSE(g.retired_pages.single_bit.has_value());
  EXPECT_FALSE(g.retired_pages.pending.has_value());
  EXPECT_FALSE(g.remapped_rows.correctable.has_value());
  EXPECT_FALSE(g.pcie_link.gen_current.has_value());
  EXPECT_FALSE(g.read_error.has_value());
}

TEST_F(NvmlSourceTest, FieldDeniedToThisUserIsAbsentAndTheRestIsRead) {
  configure(std::string(kTwoGpus) + "gpu.0.power=!4\ngpu.0.ecc.corrected.aggregate=!4\n");
  NvmlSource source(FAKE_NVML_LIBRARY);
  const auto polled = source.poll();
  ASSERT_TRUE(polled.isOk()) << polled.status().message();
  const GpuSample& g = (*polled)[0];
  EXPECT_FALSE(g.power_draw_mw.has_value());
  EXPECT_FALSE(g.ecc.aggregate_corrected.has_value());
  EXPECT_EQ(g.power_limit_mw, 700000u);
  EXPECT_EQ(g.ecc.aggregate_uncorrected, 2u);
  EXPECT_FALSE(g.read_error.has_value());
}

TEST_F(NvmlSourceTest, LostGpuIsMarkedAndTheOthersAreRead) {
  configure(std::string(kTwoGpus) + "count=4\ngpu.2.lost=15\ngpu.3.handle=!15\ngpu.2.uuid=GPU-2\ngpu.3.uuid=GPU-3\n");
  NvmlSource source(FAKE_NVML_LIBRARY);
  const auto polled = source.poll();
  ASSERT_TRUE(polled.isOk()) << polled.status().message();
  ASSERT_EQ(polled->size(), 4u);
  EXPECT_EQ((*polled)[0].uuid, "GPU-11111111-2222-3333-4444-555555555555");
  EXPECT_EQ((*polled)[1].uuid, "GPU-66666666-7777-8888-9999-000000000000");
  for (const unsigned lost : {2u, 3u}) {
    const GpuSample& g = (*polled)[lost];
    EXPECT_EQ(g.index, lost);
    ASSERT_TRUE(g.read_error.has_value()) << lost;
    EXPECT_NE(g.read_error->find("GPU is lost (15)"), std::string::npos) << *g.read_error;
    EXPECT_FALSE(g.uuid.has_value());
  }
  EXPECT_FALSE((*polled)[0].read_error.has_value());
  EXPECT_EQ(source.stateCode(), NvmlState::kReady);
}

TEST_F(NvmlSourceTest, MissingLibraryIsAStateNotACrash) {
  NvmlSource source("/nonexistent-dir/libnvidia-ml.so.1");
  const auto polled = source.poll();
  ASSERT_FALSE(polled.isOk());
  EXPECT_EQ(polled.status().code(), Status::Code::kUnavailable);
  EXPECT_EQ(source.stateCode(), NvmlState::kLibraryMissing);
  EXPECT_TRUE(source.state().starts_with("library missing: ")) << source.state();
  EXPECT_NE(source.state().find("No such file"), std::string::npos) << source.state();
}

TEST_F(NvmlSourceTest, LibraryWithoutNvmlIsAState) {
  NvmlSource source("libm.so.6");
  EXPECT_FALSE(source.poll().isOk());
  EXPECT_EQ(source.stateCode(), NvmlState::kNotNvml);
  EXPECT_NE(source.state().find("nvmlInit_v2"), std::string::npos) << source.state();
}

struct InitFailure {
  int code;
  const char* text;
  const char* hint;
};

class NvmlInitFailureTest : public NvmlSourceTest, public ::testing::WithParamInterface<InitFailure> {};

TEST_P(NvmlInitFailureTest, InitFailureIsAStateAndAlaterPollRecovers) {
  configure(std::string(kTwoGpus) + "init_error=" + std::to_string(GetParam().code) + "\n");
  NvmlSource source(FAKE_NVML_LIBRARY);
  const auto failed = source.poll();
  ASSERT_FALSE(failed.isOk());
  EXPECT_EQ(source.stateCode(), NvmlState::kInitFailed);
  EXPECT_NE(source.state().find(GetParam().text), std::string::npos) << source.state();
  EXPECT_NE(source.state().find(GetParam().hint), std::string::npos) << source.state();
  EXPECT_EQ(failed.status().message(), source.state());
  EXPECT_EQ(calls("nvmlShutdown"), 0) << "shut down what never started";

  configure(kTwoGpus);  // the module is loaded, the permission granted
  const auto recovered = source.poll();
  ASSERT_TRUE(recovered.isOk()) << recovered.status().message();
  EXPECT_EQ(recovered->size(), 2u);
  EXPECT_EQ(source.stateCode(), NvmlState::kReady);
}

INSTANTIATE_TEST_SUITE_P(Codes, NvmlInitFailureTest,
                         ::testing::Values(InitFailure{9, "Driver Not Loaded (9)", "kernel module is not loaded"},
                                           InitFailure{4, "Insufficient Permissions (4)", "/dev/nvidiactl"},
                                           InitFailure{18, "version mismatch.", "different driver versions"}));

TEST_F(NvmlSourceTest, ShutsDownOnceOnCloseAndAgainAfterReopen) {
  configure(kTwoGpus);
  {
    NvmlSource source(FAKE_NVML_LIBRARY);
    ASSERT_TRUE(source.poll().isOk());
    ASSERT_TRUE(source.poll().isOk());
    EXPECT_EQ(calls("nvmlInit_v2"), 1) << "initialised once, polled twice";
    source.close();
    EXPECT_EQ(calls("nvmlShutdown"), 1);
    EXPECT_EQ(source.stateCode(), NvmlState::kClosed);
    source.close();
    EXPECT_EQ(calls("nvmlShutdown"), 1);
    ASSERT_TRUE(source.poll().isOk());
    EXPECT_EQ(calls("nvmlInit_v2"), 2);
  }
  EXPECT_EQ(calls("nvmlShutdown"), 2) << "the destructor shuts down";
}

TEST_F(NvmlSourceTest, DriverGoneAtCountRestartsAtTheNextPoll) {
  configure(kTwoGpus);
  NvmlSource source(FAKE_NVML_LIBRARY);
  ASSERT_TRUE(source.poll().isOk());
  configure(std::string(kTwoGpus) + "count_error=9\n");
  const auto failed = source.poll();
  ASSERT_FALSE(failed.isOk());
  EXPECT_NE(failed.status().message().find("Driver Not Loaded (9)"), std::string::npos);
  EXPECT_EQ(source.stateCode(), NvmlState::kClosed);
  EXPECT_NE(source.state().find("Driver Not Loaded"), std::string::npos) << source.state();
  EXPECT_EQ(calls("nvmlShutdown"), 1);
  configure(kTwoGpus);
  ASSERT_TRUE(source.poll().isOk());
  EXPECT_EQ(calls("nvmlInit_v2"), 2);
}

TEST_F(NvmlSourceTest, OldDriverWithUnversionedNamesReadsTheSameGpus) {
  configure(kTwoGpus);
  NvmlSource source(FAKE_NVML_UNVERSIONED_LIBRARY);
  const auto polled = source.poll();
  ASSERT_TRUE(polled.isOk()) << polled.status().message();
  EXPECT_EQ(source.state(), "ready (unversioned symbols)");
  ASSERT_EQ(polled->size(), 2u);
  // The first nvmlPciInfo_t layout: only the legacy 4-digit-domain spelling.
  EXPECT_EQ((*polled)[0].pci_bus_id, "00000000:3B:00.0");
  EXPECT_EQ((*polled)[1].pci_bus_id, "00000000:8D:00.0");
  EXPECT_EQ((*polled)[0].temperature_c, 59);
  EXPECT_EQ(calls("nvmlInit"), 1);
  EXPECT_EQ(calls("nvmlInit_v2"), 0);
  EXPECT_EQ(calls("nvmlDeviceGetPciInfo"), 2);
  EXPECT_EQ(calls("nvmlDeviceGetHandleByIndex"), 2);
}

TEST_F(NvmlSourceTest, ReadyStateNamesTheVersionedSymbolsInUse) {
  configure(kTwoGpus);
  NvmlSource source(FAKE_NVML_LIBRARY);
  ASSERT_TRUE(source.poll().isOk());
  EXPECT_NE(source.state().find("nvmlInit_v2"), std::string::npos) << source.state();
  EXPECT_NE(source.state().find("nvmlDeviceGetPciInfo_v3"), std::string::npos) << source.state();
}

}  // namespace
}  // namespace rdmagw::southbound::gpu
