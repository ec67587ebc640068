#include "models/ethernet_speed.h"

#include <gtest/gtest.h>

namespace rdmagw {
namespace {

TEST(EthernetSpeedTest, IdentityToBitsPerSecond) {
  EXPECT_EQ(ethernetSpeedBps("SPEED_100GB"), 100'000'000'000ull);
  EXPECT_EQ(ethernetSpeedBps("SPEED_2500MB"), 2'500'000'000ull);
  EXPECT_EQ(ethernetSpeedBps("SPEED_10MB"), 10'000'000ull);
  EXPECT_EQ(ethernetSpeedBps("SPEED_1600GB"), 1'600'000'000'000ull);
  // With the module prefix, as JSON_IETF and some targets send it.
  EXPECT_EQ(ethernetSpeedBps("openconfig-if-ethernet:SPEED_25GB"), 25'000'000'000ull);
  EXPECT_EQ(ethernetSpeedBps("oc-eth:SPEED_400GB"), 400'000'000'000ull);
  EXPECT_FALSE(ethernetSpeedBps("SPEED_UNKNOWN").has_value());
  EXPECT_FALSE(ethernetSpeedBps("SPEED_3GB").has_value());
  EXPECT_FALSE(ethernetSpeedBps("").has_value());
}

TEST(EthernetSpeedTest, BitsPerSecondToIdentity) {
  EXPECT_EQ(ethernetSpeedIdentity(100'000'000'000ull), "SPEED_100GB");
  EXPECT_EQ(ethernetSpeedIdentity(1'000'000'000ull), "SPEED_1GB");
  EXPECT_EQ(ethernetSpeedIdentity(56'000'000'000ull), "SPEED_UNKNOWN");
  EXPECT_EQ(ethernetSpeedIdentity(0), "SPEED_UNKNOWN");
}

TEST(EthernetSpeedTest, EveryIdentityRoundTrips) {
  for (std::string_view id : {"SPEED_10MB", "SPEED_100MB", "SPEED_1GB", "SPEED_2500MB", "SPEED_5GB",
                              "SPEED_10GB", "SPEED_25GB", "SPEED_40GB", "SPEED_50GB", "SPEED_100GB",
                              "SPEED_200GB", "SPEED_400GB", "SPEED_600GB", "SPEED_800GB", "SPEED_1600GB"}) {
    SCOPED_TRACE(std::string(id));
    std::optional<uint64_t> bps = ethernetSpeedBps(id);
    ASSERT_TRUE(bps.has_value());
    EXPECT_EQ(ethernetSpeedIdentity(*bps), id);
    EXPECT_TRUE(isEthernetSpeedIdentity(id));
  }
  EXPECT_TRUE(isEthernetSpeedIdentity("openconfig-if-ethernet:SPEED_UNKNOWN"));
  EXPECT_FALSE(isEthernetSpeedIdentity("100G"));
}

TEST(EthernetSpeedTest, ParsesDeviceText) {
  EXPECT_EQ(parseSpeedText("100 Gb/s"), 100'000'000'000ull);
  EXPECT_EQ(parseSpeedText("25Gb/s"), 25'000'000'000ull);
  EXPECT_EQ(parseSpeedText("1000 Mb/s"), 1'000'000'000ull);
  EXPECT_EQ(parseSpeedText("2.5 Gb/s"), 2'500'000'000ull);
  EXPECT_EQ(parseSpeedText("40 Gb/s, media type is 40G"), 40'000'000'000ull);
  EXPECT_FALSE(parseSpeedText("auto-speed").has_value());
  EXPECT_FALSE(parseSpeedText("100 furlongs").has_value());
  EXPECT_FALSE(parseSpeedText("").has_value());
}

TEST(EthernetSpeedTest, Paths) {
  EXPECT_EQ(interfaceSpeedPath("Ethernet1/1"), "/interfaces/interface[name=Ethernet1/1]/state/speed");
  EXPECT_EQ(portSpeedPath("Ethernet1/1"), "/interfaces/interface[name=Ethernet1/1]/ethernet/state/port-speed");
  EXPECT_EQ(negotiatedPortSpeedPath("eth0"),
            "/interfaces/interface[name=eth0]/ethernet/state/negotiated-port-speed");
}

}  // namespace
}  // namespace rdmagw
