// The roles the gateway registers for its kinds: every device kind it can
// collect has one (the analytics judge a kind without a role as neither
// switch nor host), and the analytics tests' copy says the same.

#include <gtest/gtest.h>

#include "gateway/runtime/registry.h"
#include "tests/analytics/small_fabric.h"

namespace rdmagw::gateway {
namespace {

TEST(TargetRolesTest, EveryCollectedDeviceKindHasARole) {
  for (const char* kind : {"nexus", "rdma-host", "esxi"}) {
    ASSERT_NE(findSourceFactory(kind), nullptr) << kind << " is no longer a built-in kind: update this list";
    auto role = targetRoles().find(kind);
    ASSERT_NE(role, targetRoles().end()) << kind;
    EXPECT_NE(role->second, TargetRole::kUnknown) << kind;
  }
  EXPECT_EQ(targetRoles().at("nexus"), TargetRole::kSwitch);
  EXPECT_EQ(targetRoles().at("rdma-host"), TargetRole::kHost);
  EXPECT_EQ(targetRoles().at("esxi"), TargetRole::kHypervisor);
  // Another rdmagw relays targets of every kind: it is no device itself.
  EXPECT_EQ(targetRoles().count("rdmagw"), 0u);
}

TEST(TargetRolesTest, TheAnalyticsTestsUseTheGatewaysRoles) {
  EXPECT_EQ(targetRoles(), testing::fabricRoles());
}

}  // namespace
}  // namespace rdmagw::gateway
