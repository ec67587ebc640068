// Many targets, session reuse and reconnects through the poll scheduler,
// against one real sshd playing the whole fleet.
#include <gtest/gtest.h>

#include <atomic>
#include <thread>

#include "models/store.h"
#include "southbound/poll_scheduler.h"
#include "southbound/ssh/concurrency_limiter.h"
#include "southbound/ssh/ssh_connection.h"
#include "southbound/ssh/ssh_factory.h"
#include "tests/southbound/ssh/ssh_test_util.h"

namespace rdmagw::southbound::ssh {
namespace {

using std::chrono::milliseconds;
using testing::keyConfig;
using testing::parseNameValue;
using testing::valuePath;

bool waitFor(const std::function<bool()>& cond, std::chrono::seconds limit = std::chrono::seconds(120)) {
  const auto deadline = std::chrono::steady_clock::now() + limit;
  while (!cond()) {
    if (std::chrono::steady_clock::now() > deadline) return false;
    std::this_thread::sleep_for(milliseconds(50));
  }
  return true;
}

TEST(SshFleetTest, FiftyTargetsPollConcurrentlyUnderTheCap) {
  sim::SshdLauncher sshd;
  ASSERT_TRUE(sshd.start().isOk()) << sshd.logText();
  constexpr int kTargets = 50;
  constexpr size_t kCap = 8;
  ConcurrencyLimiter limiter(kCap);
  Store store;
  PollScheduler sched(store, kTargets);
  for (int i = 0; i < kTargets; ++i) {
    const std::string name = "sw" + std::to_string(i);
    // A little work per command, so polls overlap and the cap is exercised.
    auto key = sshd.addDevice(name, "sleep 0.1; echo 'ifindex " + std::to_string(1000 + i) + "'");
    ASSERT_TRUE(key.isOk());
    ConnectionOptions opts;
    opts.limiter = &limiter;
    auto src = createCliSource(keyConfig(sshd, key->private_key_file),
                               {{"show interface", parseNameValue}}, opts);
    ASSERT_TRUE(src.isOk()) << src.status().message();
    sched.add(PollTarget{name, "nexus", std::move(src).value(), std::chrono::minutes(10), milliseconds(0), {}});
  }
  sched.start();
  auto allUp = [&] {
    int up = 0;
    for (const TargetStatus& t : store.targets()) up += t.health.up ? 1 : 0;
    return up == kTargets;
  };
  bool ok = waitFor(allUp);
  sched.stop();
  ASSERT_TRUE(ok) << [&] {
    std::string s;
    for (const TargetStatus& t : store.targets()) {
      if (!t.health.up) s += t.name + ": " + t.health.last_error + "\n";
    }
    return s;
  }();
  for (int i = 0; i < kTargets; ++i) {
    auto v = store.get("sw" + std::to_string(i), valuePath("ifindex"));
    ASSERT_TRUE(v.has_value()) << i;
    EXPECT_EQ(std::get<uint64_t>(v->value), uint64_t(1000 + i));
  }
  EXPECT_LE(limiter.peak(), kCap);
  EXPECT_GE(limiter.peak(), 2u);  // the polls did overlap: the cap was doing work
  EXPECT_EQ(limiter.inFlight(), 0u);
}

TEST(SshFleetTest, SecondPollReusesTheSession) {
  sim::SshdLauncher sshd;
  ASSERT_TRUE(sshd.start().isOk());
  // Each command answers its own leaf (len6, len12): the CLI source keeps a
  // leaf from the first command that gives it.
  auto key = sshd.addDevice("nx", "echo \"len${#SSH_ORIGINAL_COMMAND} 1\"");
  ASSERT_TRUE(key.isOk());
  auto src = createCliSource(keyConfig(sshd, key->private_key_file),
                             {{"show a", parseNameValue}, {"show queuing", parseNameValue}});
  ASSERT_TRUE(src.isOk());
  for (int i = 0; i < 3; ++i) {
    PollBatch b;
    ASSERT_TRUE((*src)->poll(b).isOk());
    EXPECT_EQ(b.updates.size(), 2u);
  }
  EXPECT_EQ(sshd.sessions("nx").size(), 6u);   // every command ran...
  EXPECT_EQ(sshd.connectionCount("nx"), 1u);   // ...over one login
}

TEST(SshFleetTest, ReconnectsWithBackoffAfterSshdRestart) {
  sim::SshdLauncher sshd;
  ASSERT_TRUE(sshd.start().isOk());
  auto key = sshd.addDevice("nx", "echo 'up 1'");
  ASSERT_TRUE(key.isOk());
  SshConfig config = keyConfig(sshd, key->private_key_file);
  config.connect_timeout = milliseconds(3000);
  auto fake_now = std::make_shared<std::atomic<int64_t>>(0);  // ms on an injected clock
  ConnectionOptions opts;
  opts.clock = [fake_now] {
    return std::chrono::steady_clock::time_point(milliseconds(fake_now->load()));
  };
  // Halfway into each backoff range: delays are exactly 2 s, then 3.5 s
  // (common/backoff.h: uniform in [1 s, 3 x the previous delay]).
  opts.random = [] { return 0.5; };
  SshConnection conn(config, opts);

  ASSERT_TRUE(conn.execute("x").isOk());
  sshd.stopServer();  // the device reboots: the session and the listener go away

  // The reused session fails, the immediate reconnect is refused: backoff starts.
  Result<CommandOutput> r1 = conn.execute("x");
  ASSERT_EQ(r1.status().code(), Status::Code::kUnavailable);
  EXPECT_EQ(conn.stats().connect_failures, 1u);
  ASSERT_TRUE(sshd.start().isOk());  // back, on the same port with the same host key

  // Within the 2 s backoff no connect is even attempted.
  fake_now->store(1900);
  Result<CommandOutput> r2 = conn.execute("x");
  ASSERT_FALSE(r2.isOk());
  EXPECT_NE(r2.status().message().find("next reconnect in 0.1 s"), std::string::npos)
      << r2.status().message();
  EXPECT_EQ(conn.stats().connect_failures, 1u);

  fake_now->store(2001);
  Result<CommandOutput> r3 = conn.execute("x");
  ASSERT_TRUE(r3.isOk()) << r3.status().message();
  EXPECT_EQ(r3->text, "up 1\n");
  EXPECT_EQ(conn.stats().connects, 2u);
  EXPECT_EQ(sshd.connectionCount("nx"), 2u);

  // Repeated failures lengthen the delay; a success resets it.
  sshd.stopServer();
  ASSERT_FALSE(conn.execute("x").isOk());  // fails at t=2001: next at 4001
  fake_now->store(4001);
  ASSERT_FALSE(conn.execute("x").isOk());  // second failure: next at 4001 + 3500
  fake_now->store(7000);
  Result<CommandOutput> r4 = conn.execute("x");
  EXPECT_NE(r4.status().message().find("next reconnect in 0.5 s"), std::string::npos)
      << r4.status().message();
  ASSERT_TRUE(sshd.start().isOk());
  fake_now->store(7501);
  EXPECT_TRUE(conn.execute("x").isOk());
}

}  // namespace
}  // namespace rdmagw::southbound::ssh
