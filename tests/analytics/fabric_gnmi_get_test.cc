// The derived leaves reach gNMI like any other leaf of a target: a Get on
// the target answers them under /fabric, typed as the store holds them.
// The gNMI server knows nothing of analytics.

#include <gtest/gtest.h>

#include "models/path.h"
#include "northbound/gnmi/get_handler.h"
#include "tests/analytics/gnmi_get_request.h"
#include "tests/analytics/small_fabric.h"

namespace rdmagw::analytics {
namespace {

using testing::SmallFabric;

gnmi::GetResponse get(const Store& store, const std::string& target, const std::string& path) {
  gnmi::GetResponse out;
  EXPECT_TRUE(northbound::gnmi::answerGet(store, testing::getRequest(target, path), &out).ok()) << path;
  return out;
}

TEST(FabricGnmiGetTest, VerdictsAndRatesAreLeavesOfTheHostTarget) {
  SmallFabric f;
  f.ticks(6, [&] { f.bump("host01", SmallFabric::hw("np-ecn-marked-roce-packets"), 1000); });
  const std::string port = "/fabric/dcqcn/devices/device[name=mlx5_0]/ports/port[port-num=1]/state/";
  gnmi::GetResponse r = get(f.store(), "host01", port + "verdict");
  ASSERT_EQ(r.notification_size(), 1);
  ASSERT_EQ(r.notification(0).update_size(), 1);
  EXPECT_EQ(r.notification(0).update(0).val().string_val(), "marks-no-cnp");
  r = get(f.store(), "host01", port + "ecn-marked-rate");
  ASSERT_EQ(r.notification_size(), 1);
  ASSERT_EQ(r.notification(0).update_size(), 1);
  EXPECT_DOUBLE_EQ(r.notification(0).update(0).val().double_val(), 1000);
  // The switch end of the cable, under the switch's own target.
  r = get(f.store(), "leaf01", "/fabric/interfaces/interface[name=Ethernet1/1]/link/state/peer-target");
  ASSERT_EQ(r.notification_size(), 1);
  ASSERT_EQ(r.notification(0).update_size(), 1);
  EXPECT_EQ(r.notification(0).update(0).val().string_val(), "host01");
}

}  // namespace
}  // namespace rdmagw::analytics
