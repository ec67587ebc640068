#include "southbound/failure_log.h"

#include <gtest/gtest.h>

namespace rdmagw::southbound {
namespace {

using std::chrono::minutes;
using std::chrono::seconds;
using Clock = FailureLog::Clock;

TEST(FailureLogTest, LogsOnceThenRemindsWithACountThenRecovers) {
  FailureLog log("poll", "sw1: collection failed", minutes(5));
  const Clock::time_point t0{};
  auto first = log.failed("ssh: cannot connect to 10.0.0.1:22: Connection refused", t0);
  ASSERT_TRUE(first.has_value());
  EXPECT_EQ(*first, "sw1: collection failed: ssh: cannot connect to 10.0.0.1:22: Connection refused");
  // Every 10 s for just under five minutes: silent.
  int logged = 0;
  for (int i = 1; i < 30; ++i) {
    logged += log.failed("ssh: cannot connect to 10.0.0.1:22: Connection refused", t0 + seconds(10 * i)) ? 1 : 0;
  }
  EXPECT_EQ(logged, 0);
  auto reminder = log.failed("ssh: cannot connect to 10.0.0.1:22: Connection refused", t0 + seconds(300));
  ASSERT_TRUE(reminder.has_value());
  EXPECT_NE(reminder->find("(repeated 29 times since the last report; failing for 5 min)"), std::string::npos)
      << *reminder;
  auto back = log.recovered(t0 + seconds(310));
  ASSERT_TRUE(back.has_value());
  EXPECT_EQ(*back, "sw1: collection failed: recovered after 31 failures over 5 min");
  EXPECT_FALSE(log.failing());
  EXPECT_FALSE(log.recovered(t0 + seconds(320)).has_value());  // once only
}

TEST(FailureLogTest, NumbersDoNotMakeAFailureNew) {
  FailureLog log("poll", "sw1: collection failed");
  const Clock::time_point t0{};
  EXPECT_TRUE(log.failed("ssh: 127.0.0.1:2222: next reconnect in 1.2 s", t0));
  EXPECT_FALSE(log.failed("ssh: 127.0.0.1:2222: next reconnect in 3.9 s", t0 + seconds(2)));
  EXPECT_FALSE(log.failed("ssh: 127.0.0.1:2222: next reconnect in 12 s", t0 + seconds(20)));
  EXPECT_EQ(FailureLog::sameness("in 1.2 s at 10.0.0.1:22"), "in # s at #:#");
}

TEST(FailureLogTest, ADifferentErrorIsLoggedAtOnce) {
  FailureLog log("poll", "sw1: collection failed");
  const Clock::time_point t0{};
  EXPECT_TRUE(log.failed("Connection refused", t0));
  EXPECT_FALSE(log.failed("Connection refused", t0 + seconds(10)));
  auto other = log.failed("host key CHANGED", t0 + seconds(20));
  ASSERT_TRUE(other.has_value());
  EXPECT_NE(other->find("host key CHANGED (a different error; failing for 20 s)"), std::string::npos) << *other;
}

TEST(FailureLogTest, ANewFailureAfterRecoveryIsLoggedAtOnce) {
  FailureLog log("poll", "h1: partial read");
  const Clock::time_point t0{};
  EXPECT_TRUE(log.failed("symbol_error: N/A (no PMA)", t0));
  EXPECT_TRUE(log.recovered(t0 + seconds(10)));
  EXPECT_TRUE(log.failed("symbol_error: N/A (no PMA)", t0 + seconds(20)));
}

}  // namespace
}  // namespace rdmagw::southbound
