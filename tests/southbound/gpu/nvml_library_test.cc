#include "southbound/gpu/nvml_library.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <set>
#include <sstream>
#include <string>

#include "tests/support/test_support.h"

namespace rdmagw::southbound::gpu {
namespace {

bool has(const std::vector<std::string>& names, const std::string& name) {
  return std::find(names.begin(), names.end(), name) != names.end();
}

TEST(NvmlLibraryTest, EveryNameTheLoaderAsksForIsExportedByDriver590) {
  std::istringstream in(testing::readFile(std::string(RDMAGW_SOURCE_DIR) +
                                          "/tests/fixtures/gpu/libnvidia-ml_590.48.01_exported-nvml-symbols.txt"));
  std::set<std::string> exported;
  std::string line;
  while (std::getline(in, line)) {
    if (line.starts_with("nvml")) exported.insert(line);
  }
  ASSERT_GT(exported.size(), 300u) << "the export list was not read";
  const std::vector<std::string> names = NvmlLibrary::symbolNames();
  EXPECT_GE(names.size(), 24u);
  for (const std::string& name : names) EXPECT_TRUE(exported.count(name)) << name << " is not exported by driver 590";
}

TEST(NvmlLibraryTest, MissingLibraryIsNotFoundWithTheLoadersReason) {
  const auto lib = NvmlLibrary::open("/nonexistent-dir/libnvidia-ml.so.1");
  ASSERT_FALSE(lib.isOk());
  EXPECT_EQ(lib.status().code(), Status::Code::kNotFound);
  EXPECT_NE(lib.status().message().find("/nonexistent-dir/libnvidia-ml.so.1"), std::string::npos);
  EXPECT_NE(lib.status().message().find("No such file"), std::string::npos) << lib.status().message();
}

TEST(NvmlLibraryTest, LibraryWithoutNvmlIsCorruptNamingTheFunction) {
  const auto lib = NvmlLibrary::open("libm.so.6");
  ASSERT_FALSE(lib.isOk());
  EXPECT_EQ(lib.status().code(), Status::Code::kCorrupt);
  EXPECT_NE(lib.status().message().find("nvmlInit_v2"), std::string::npos) << lib.status().message();
}

TEST(NvmlLibraryTest, BindsTheNewestNames) {
  const auto lib = NvmlLibrary::open(FAKE_NVML_LIBRARY);
  ASSERT_TRUE(lib.isOk()) << lib.status().message();
  const std::vector<std::string>& bound = (*lib)->boundSymbols();
  for (const char* name : {"nvmlInit_v2", "nvmlDeviceGetCount_v2", "nvmlDeviceGetHandleByIndex_v2",
                           "nvmlDeviceGetPciInfo_v3", "nvmlDeviceGetMigMode"}) {
    EXPECT_TRUE(has(bound, name)) << name;
  }
  EXPECT_FALSE(has(bound, "nvmlInit"));
  EXPECT_FALSE(has(bound, "nvmlDeviceGetPciInfo"));
  EXPECT_NE((*lib)->functions().mig_mode, nullptr);
}

TEST(NvmlLibraryTest, FallsBackToUnversionedNames) {
  const auto lib = NvmlLibrary::open(FAKE_NVML_UNVERSIONED_LIBRARY);
  ASSERT_TRUE(lib.isOk()) << lib.status().message();
  const std::vector<std::string>& bound = (*lib)->boundSymbols();
  for (const char* name : {"nvmlInit", "nvmlDeviceGetCount", "nvmlDeviceGetHandleByIndex", "nvmlDeviceGetPciInfo"}) {
    EXPECT_TRUE(has(bound, name)) << name;
  }
  EXPECT_FALSE(has(bound, "nvmlInit_v2"));
  EXPECT_FALSE(has(bound, "nvmlDeviceGetPciInfo_v3"));
}

TEST(NvmlLibraryTest, ErrorTextCarriesTheLibrarysWordsAndTheCode) {
  const auto lib = NvmlLibrary::open(FAKE_NVML_LIBRARY);
  ASSERT_TRUE(lib.isOk()) << lib.status().message();
  EXPECT_EQ((*lib)->errorText(nvml::kDriverNotLoaded), "Driver Not Loaded (9)");
  EXPECT_EQ((*lib)->errorText(nvml::kGpuIsLost), "GPU is lost (15)");
}

}  // namespace
}  // namespace rdmagw::southbound::gpu
