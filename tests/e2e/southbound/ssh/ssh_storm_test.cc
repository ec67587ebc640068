// Sixty SSH devices behind one real sshd reboot at once (sshd is killed with
// every session, then comes back): every target must come back, sshd must
// never see more connections in setup (accept, key exchange, login, first
// command) at once than the cap, and no device is hammered while it is
// down. sshd's own log is the witness; no clock is asserted.
#include <gtest/gtest.h>

#include <memory>
#include <thread>
#include <vector>

#include "models/store.h"
#include "southbound/poll_scheduler.h"
#include "southbound/ssh/cli_source.h"
#include "southbound/ssh/concurrency_limiter.h"
#include "southbound/ssh/ssh_connection.h"
#include "tests/southbound/ssh/ssh_test_util.h"

namespace rdmagw::southbound::ssh {
namespace {

using std::chrono::milliseconds;
using testing::keyConfig;
using testing::parseNameValue;

constexpr int kTargets = 60;
constexpr size_t kCap = 4;
constexpr milliseconds kBackoffInitial{100};

TEST(SshStormTest, RebootedFleetComesBackUnderTheCap) {
  sim::SshdOptions so;
  so.log_connections = true;
  sim::SshdLauncher sshd(so);
  ASSERT_TRUE(sshd.start().isOk()) << sshd.logText();
  ConcurrencyLimiter limiter(kCap);
  Store store;
  // A worker per target: only the SSH cap limits how many connect at once.
  PollScheduler sched(store, kTargets);
  std::vector<std::shared_ptr<SshConnection>> conns;
  for (int i = 0; i < kTargets; ++i) {
    const std::string name = "sw" + std::to_string(i);
    // A little work per command (a device CLI is not instant): setups that
    // start together overlap, so an uncapped client shows at once.
    auto key = sshd.addDevice(name, "sleep 0.05; echo 'up 1'");
    ASSERT_TRUE(key.isOk());
    ConnectionOptions opts;
    opts.limiter = &limiter;
    opts.backoff_initial = kBackoffInitial;
    opts.backoff_max = milliseconds(1000);
    auto conn = std::make_shared<SshConnection>(keyConfig(sshd, key->private_key_file), opts);
    conns.push_back(conn);
    PollTarget t{name, "nexus", std::make_unique<CliSource>(conn, std::vector<CliCommand>{{"show x", parseNameValue}}),
                 milliseconds(1000), std::chrono::minutes(10), {}};
    t.retry_initial = kBackoffInitial;
    sched.add(std::move(t));
  }
  sched.start();
  auto allUpSince = [&](TimestampNs since) {
    for (const TargetStatus& t : store.targets()) {
      if (!t.health.up || t.health.last_success_ns <= since) return false;
    }
    return store.targets().size() == size_t(kTargets);
  };
  auto down = [&] {
    std::string s;
    for (const TargetStatus& t : store.targets()) {
      if (!t.health.up) s += t.name + ": " + t.health.last_error + "\n";
    }
    return s;
  };
  ASSERT_TRUE(testing::waitUntil([&] { return allUpSince(0); })) << down();

  std::vector<size_t> connections_before;
  std::vector<uint64_t> attempts_before;
  for (int i = 0; i < kTargets; ++i) {
    connections_before.push_back(sshd.connectionCount("sw" + std::to_string(i)));
    const SshConnection::Stats s = conns[i]->stats();
    attempts_before.push_back(s.connects + s.connect_failures);
  }
  const size_t log_from = sshd.logSize();

  // The reboot: every session and the listener go; a poll interval later
  // (every target has noticed) the devices come back.
  const auto outage_start = std::chrono::steady_clock::now();
  sshd.stopServer();
  std::this_thread::sleep_for(milliseconds(1500));
  ASSERT_TRUE(sshd.start().isOk()) << sshd.logText();
  const auto outage = std::chrono::steady_clock::now() - outage_start;
  const TimestampNs back = nowNs();
  ASSERT_TRUE(testing::waitUntil([&] { return allUpSince(back); })) << down();
  sched.stop();

  const sim::SshdHandshakeStats seen = sshd.handshakeStats(log_from);
  EXPECT_LE(seen.peak_in_progress, kCap) << "sshd saw more connection setups at once than the cap";
  EXPECT_GE(seen.peak_in_progress, 2u) << "no two setups overlapped: the cap was not exercised";
  EXPECT_GE(seen.authenticated, uint64_t(kTargets));
  EXPECT_LE(limiter.peak(), kCap);

  // A connection attempt at most every backoff_initial while the device was
  // down, and one or two logins per device once it was back.
  const uint64_t bound = uint64_t(outage / kBackoffInitial) + 2;
  for (int i = 0; i < kTargets; ++i) {
    const std::string name = "sw" + std::to_string(i);
    const SshConnection::Stats s = conns[i]->stats();
    EXPECT_LE(s.connects + s.connect_failures - attempts_before[i], bound) << name;
    const size_t logins = sshd.connectionCount(name) - connections_before[i];
    EXPECT_GE(logins, 1u) << name;
    EXPECT_LE(logins, 2u) << name;
  }
}

}  // namespace
}  // namespace rdmagw::southbound::ssh
