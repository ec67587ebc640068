// The soak's fault schedule: every kind once per cycle, each fault undone
// within its cycle, subjects rotating, no event twice across split windows.

#include "sim/churn.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <map>
#include <set>

namespace rdmagw::sim {
namespace {

using std::chrono::milliseconds;
using std::chrono::seconds;

const ChurnShape kFull{2, 8, true, true};

TEST(ChurnScheduleTest, EveryKindOncePerCycleAndUndoneWithinIt) {
  ChurnSchedule s(seconds(60), kFull);
  for (long long c = 0; c < 5; ++c) {
    const auto events = s.between(c * s.cycle(), (c + 1) * s.cycle());
    std::map<ChurnKind, milliseconds> at;
    for (const ChurnEvent& e : events) {
      EXPECT_EQ(e.cycle, c);
      EXPECT_TRUE(at.emplace(e.kind, e.at).second) << churnKindName(e.kind) << " twice in cycle " << c;
    }
    ASSERT_EQ(at.size(), 7u);
    EXPECT_LT(at[ChurnKind::kGnmiDown], at[ChurnKind::kGnmiUp]);
    EXPECT_LT(at[ChurnKind::kRdmaDeviceGone], at[ChurnKind::kRdmaDeviceBack]);
    EXPECT_LT(at[ChurnKind::kSshdDown], at[ChurnKind::kSshdUp]);
    // The switch is back on gNMI (10 s after its fallback) before SSH goes.
    EXPECT_GE(at[ChurnKind::kSshdDown] - at[ChurnKind::kGnmiUp], seconds(10));
  }
}

TEST(ChurnScheduleTest, EventsComeInTimeOrder) {
  ChurnSchedule s(seconds(30), kFull);
  const auto events = s.between(milliseconds(0), seconds(300));
  ASSERT_EQ(events.size(), 70u);
  for (size_t i = 1; i < events.size(); ++i) EXPECT_LE(events[i - 1].at, events[i].at);
}

TEST(ChurnScheduleTest, SubjectsRotateAndPairsMatch) {
  ChurnSchedule s(seconds(20), kFull);
  std::set<int> switches, devices;
  std::map<long long, int> gone;
  for (const ChurnEvent& e : s.between(milliseconds(0), 16 * s.cycle())) {
    if (e.kind == ChurnKind::kGnmiDown) switches.insert(e.subject);
    if (e.kind == ChurnKind::kRdmaDeviceGone) {
      devices.insert(e.subject);
      gone[e.cycle] = e.subject;
    }
    if (e.kind == ChurnKind::kRdmaDeviceBack) {
      EXPECT_EQ(e.subject, gone.at(e.cycle));  // the same device returns
    }
    EXPECT_GE(e.subject, 0);
  }
  EXPECT_EQ(switches, (std::set<int>{0, 1}));
  EXPECT_EQ(devices.size(), 8u);
}

TEST(ChurnScheduleTest, SplitWindowsSeeEachEventOnce) {
  ChurnSchedule s(seconds(60), kFull);
  const auto whole = s.between(milliseconds(0), seconds(600));
  size_t n = 0;
  for (milliseconds t(0); t < seconds(600); t += milliseconds(700)) {
    n += s.between(t, std::min<milliseconds>(t + milliseconds(700), seconds(600))).size();
  }
  EXPECT_EQ(n, whole.size());
  EXPECT_TRUE(s.between(seconds(5), seconds(5)).empty());
  EXPECT_TRUE(s.between(seconds(9), seconds(3)).empty());
}

TEST(ChurnScheduleTest, MissingSubjectsLeaveTheirKindsOut) {
  ChurnSchedule s(seconds(60), ChurnShape{0, 3, false, true});
  std::set<ChurnKind> kinds;
  for (const ChurnEvent& e : s.between(milliseconds(0), seconds(120))) kinds.insert(e.kind);
  EXPECT_EQ(kinds, (std::set<ChurnKind>{ChurnKind::kRdmaDeviceGone, ChurnKind::kRdmaDeviceBack,
                                        ChurnKind::kSnmpdRestart}));
}

TEST(ChurnScheduleTest, ShortCyclesAreRaisedToTenSeconds) {
  EXPECT_EQ(ChurnSchedule(seconds(1), kFull).cycle(), seconds(10));
  EXPECT_EQ(ChurnSchedule(seconds(45), kFull).cycle(), seconds(45));
}

}  // namespace
}  // namespace rdmagw::sim
