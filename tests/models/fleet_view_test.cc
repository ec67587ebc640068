// The fleet view's version tells a polling reader when to copy the
// snapshot again; the state from the state source is read live.
#include "models/fleet_view.h"

#include <gtest/gtest.h>

namespace rdmagw {
namespace {

TEST(FleetViewTest, VersionMovesWithEverySetAndNotWithTheLiveState) {
  FleetView view;
  const uint64_t start = view.version();
  FleetSnapshot s;
  s.enabled = true;
  s.self = "m1";
  s.owners["leaf1"] = "m1";
  view.set(s);
  EXPECT_EQ(view.version(), start + 1);
  EXPECT_EQ(view.snapshot().owners.at("leaf1"), "m1");

  std::string state = "healthy";
  view.setStateSource([&state] { return state; });
  const uint64_t before = view.version();
  state = "degraded";
  EXPECT_EQ(view.snapshot().state, "degraded");
  EXPECT_EQ(view.version(), before) << "a state change alone does not ask readers to copy the owners";

  s.owners["leaf1"] = "m2";
  view.set(s);
  EXPECT_GT(view.version(), before);
  EXPECT_EQ(view.snapshot().owners.at("leaf1"), "m2");
  view.setStateSource(nullptr);
}

}  // namespace
}  // namespace rdmagw
