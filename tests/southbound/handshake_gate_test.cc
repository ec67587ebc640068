#include "southbound/handshake_gate.h"

#include <gtest/gtest.h>

#include <atomic>
#include <thread>
#include <vector>

namespace rdmagw::southbound {
namespace {

TEST(HandshakeGateTest, GrantsUpToTheLimitThenInArrivalOrder) {
  HandshakeGate gate(2);
  std::vector<int> granted;
  auto a = gate.request([&] { granted.push_back(0); });
  auto b = gate.request([&] { granted.push_back(1); });
  auto c = gate.request([&] { granted.push_back(2); });
  auto d = gate.request([&] { granted.push_back(3); });
  EXPECT_TRUE(a->granted());
  EXPECT_TRUE(b->granted());
  EXPECT_FALSE(c->granted());
  EXPECT_EQ(gate.inFlight(), 2u);
  EXPECT_EQ(gate.waiting(), 2u);
  b.reset();  // a finished handshake lets the first in line through
  EXPECT_TRUE(c->granted());
  EXPECT_FALSE(d->granted());
  a.reset();
  EXPECT_TRUE(d->granted());
  EXPECT_EQ(granted, (std::vector<int>{0, 1, 2, 3}));
  EXPECT_EQ(gate.peak(), 2u);
  EXPECT_EQ(gate.grants(), 4u);
}

TEST(HandshakeGateTest, LeavingTheLineKeepsTheOthersTurns) {
  HandshakeGate gate(1);
  auto a = gate.request();
  auto b = gate.request();
  auto c = gate.request();
  b.reset();  // gave up while waiting (its target stopped)
  EXPECT_EQ(gate.waiting(), 1u);
  a.reset();
  EXPECT_TRUE(c->granted());
  c.reset();
  EXPECT_EQ(gate.inFlight(), 0u);
  EXPECT_EQ(gate.waiting(), 0u);
}

TEST(HandshakeGateTest, RaisingTheLimitLetsWaitersThrough) {
  HandshakeGate gate(1);
  auto a = gate.request();
  auto b = gate.request();
  EXPECT_FALSE(b->granted());
  gate.setLimit(2);
  EXPECT_TRUE(b->granted());
}

TEST(HandshakeGateTest, ManyThreadsNeverExceedTheLimit) {
  HandshakeGate gate(3);
  std::atomic<int> inside{0}, worst{0};
  std::vector<std::thread> threads;
  for (int t = 0; t < 16; ++t) {
    threads.emplace_back([&] {
      for (int i = 0; i < 200; ++i) {
        auto ticket = gate.acquire(std::chrono::steady_clock::now() + std::chrono::minutes(1));
        ASSERT_NE(ticket, nullptr);
        const int now = ++inside;
        int w = worst.load();
        while (now > w && !worst.compare_exchange_weak(w, now)) {
        }
        --inside;
      }
    });
  }
  for (auto& t : threads) t.join();
  EXPECT_LE(worst.load(), 3);
  EXPECT_LE(gate.peak(), 3u);
  EXPECT_EQ(gate.inFlight(), 0u);
  EXPECT_EQ(gate.grants(), 16u * 200u);
}

TEST(HandshakeGateTest, AcquireGivesUpAtItsDeadline) {
  HandshakeGate gate(1);
  auto a = gate.request();
  auto b = gate.acquire(std::chrono::steady_clock::now() + std::chrono::milliseconds(20));
  EXPECT_EQ(b, nullptr);
  EXPECT_EQ(gate.waiting(), 0u);  // it left the line
}

}  // namespace
}  // namespace rdmagw::southbound
