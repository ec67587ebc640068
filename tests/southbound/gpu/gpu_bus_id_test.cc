#include "southbound/gpu/gpu_bus_id.h"

#include <gtest/gtest.h>

namespace rdmagw::southbound::gpu {
namespace {

TEST(GpuBusIdTest, SysfsFormBecomesNvmlForm) {
  EXPECT_EQ(nvmlBusIdFromSysfs("0000:3b:00.0"), "00000000:3B:00.0");
  EXPECT_EQ(nvmlBusIdFromSysfs("0000:8d:1f.7"), "00000000:8D:1F.7");
}

TEST(GpuBusIdTest, NvmlFormBecomesSysfsForm) {
  EXPECT_EQ(sysfsBusIdFromNvml("00000000:3B:00.0"), "0000:3b:00.0");
  EXPECT_EQ(sysfsBusIdFromNvml("00000001:C1:00.1"), "0001:c1:00.1");
}

TEST(GpuBusIdTest, RoundTripKeepsTheAddress) {
  for (const char* sysfs : {"0000:00:09.0", "0000:ff:1f.7", "abcd:12:03.4"}) {
    const auto nvml = nvmlBusIdFromSysfs(sysfs);
    ASSERT_TRUE(nvml.has_value()) << sysfs;
    EXPECT_EQ(sysfsBusIdFromNvml(*nvml), sysfs);
  }
}

TEST(GpuBusIdTest, VmdDomainPastFourDigitsKeepsAllDigits) {
  EXPECT_EQ(sysfsBusIdFromNvml("00010000:01:00.0"), "10000:01:00.0");
  EXPECT_EQ(nvmlBusIdFromSysfs("10000:01:00.0"), "00010000:01:00.0");
}

TEST(GpuBusIdTest, ParsesFields) {
  const auto a = parsePciAddress("00000002:3B:1E.5");
  ASSERT_TRUE(a.has_value());
  EXPECT_EQ(a->domain, 2u);
  EXPECT_EQ(a->bus, 0x3bu);
  EXPECT_EQ(a->device, 0x1eu);
  EXPECT_EQ(a->function, 5u);
}

TEST(GpuBusIdTest, RejectsWhatIsNoAddress) {
  for (const char* bad : {"", "[N/A]", "MIG-00000000-0000-0000-0000-000000000000", "0000:3b:00", "0000:3b:20.0",
                          "0000:3b:00.8", "0000:3b:00.0 ", "000000000:3b:00.0", "0000:3b:00.0.1", "0000:3bb:00.0"}) {
    EXPECT_FALSE(parsePciAddress(bad).has_value()) << "\"" << bad << "\"";
  }
}

}  // namespace
}  // namespace rdmagw::southbound::gpu
