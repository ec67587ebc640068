// gateway/runtime/service_notify.h against a real notify socket, the pipeline
// watchdog's rule (pet only while alive), the scheduler heartbeat it reads,
// and $CREDENTIALS_DIRECTORY in config paths.

#include "gateway/runtime/service_notify.h"

#include <gtest/gtest.h>
#include <stdlib.h>
#include <unistd.h>

#include <atomic>
#include <thread>

#include "gateway/config/config.h"
#include "gateway/runtime/pipeline_watchdog.h"
#include "models/store.h"
#include "southbound/poll_scheduler.h"
#include "tests/service/notify_socket.h"
#include "tests/support/test_support.h"

namespace rdmagw::gateway {
namespace {

using namespace std::chrono_literals;
using testing::NotifySocket;
using testing::TempDir;

class ServiceNotifyTest : public ::testing::Test {
 protected:
  void TearDown() override {
    unsetenv("NOTIFY_SOCKET");
    unsetenv("WATCHDOG_USEC");
    unsetenv("WATCHDOG_PID");
  }
};

TEST_F(ServiceNotifyTest, WithoutNotifySocketEverythingIsANoOp) {
  unsetenv("NOTIFY_SOCKET");
  service_notify::ready();
  service_notify::reloading();
  service_notify::status("x");
  service_notify::watchdog();
  service_notify::stopping();
  EXPECT_FALSE(service_notify::watchdogInterval().has_value());
}

TEST_F(ServiceNotifyTest, SendsEachStateToTheSocket) {
  TempDir tmp("rdmagw-notify");
  NotifySocket sock(tmp.file("notify"));
  ASSERT_TRUE(sock.ok());
  setenv("NOTIFY_SOCKET", sock.path().c_str(), 1);

  service_notify::ready();
  EXPECT_EQ(sock.next(5s), "READY=1");
  timespec before{};
  clock_gettime(CLOCK_MONOTONIC, &before);
  service_notify::reloading();
  const std::string reloading = sock.next(5s);
  ASSERT_EQ(reloading.rfind("RELOADING=1\nMONOTONIC_USEC=", 0), 0u) << reloading;
  const uint64_t usec = std::stoull(reloading.substr(reloading.find('=', 12) + 1));
  EXPECT_GE(usec, uint64_t(before.tv_sec) * 1'000'000u) << "MONOTONIC_USEC is CLOCK_MONOTONIC in microseconds";
  service_notify::status("2 targets\nprometheus :9464");
  EXPECT_EQ(sock.next(5s), "STATUS=2 targets prometheus :9464") << "a newline would start a new assignment";
  service_notify::watchdog();
  EXPECT_EQ(sock.next(5s), "WATCHDOG=1");
  service_notify::stopping();
  EXPECT_EQ(sock.next(5s), "STOPPING=1");
}

TEST_F(ServiceNotifyTest, WatchdogIntervalOnlyForThisProcess) {
  setenv("WATCHDOG_USEC", "3000000", 1);
  setenv("WATCHDOG_PID", std::to_string(getpid()).c_str(), 1);
  ASSERT_TRUE(service_notify::watchdogInterval().has_value());
  EXPECT_EQ(*service_notify::watchdogInterval(), 3s);
  setenv("WATCHDOG_PID", std::to_string(getpid() + 1).c_str(), 1);
  EXPECT_FALSE(service_notify::watchdogInterval().has_value()) << "a parent's watchdog is not ours";
}

TEST(PipelineWatchdogTest, PetsOnlyWhileThePipelineIsAlive) {
  std::atomic<bool> alive{true};
  std::atomic<int> pets{0};
  PipelineWatchdog dog(200ms, [&] { return alive.load(); }, [&] { ++pets; });
  dog.start();
  ASSERT_TRUE(testing::waitUntil([&] { return pets.load() >= 3; }));
  alive = false;
  std::this_thread::sleep_for(300ms);  // a look that began before the switch may still pet
  const int frozen = pets.load();
  std::this_thread::sleep_for(1s);     // ten looks
  EXPECT_EQ(pets.load(), frozen) << "petted while the pipeline made no progress";
  alive = true;
  EXPECT_TRUE(testing::waitUntil([&] { return pets.load() > frozen; }));
  dog.stop();
}

// An idle scheduler (its one target due in an hour) still beats: the
// watchdog must not starve a gateway whose targets poll rarely.
class NeverDue : public southbound::PollSource {
 public:
  std::string_view transport() const override { return "test"; }
  Status poll(PollBatch&) override { return Status::ok(); }
};

TEST(PollSchedulerHeartbeatTest, BeatsWhileIdle) {
  Store store;
  southbound::PollScheduler sched(store, 2);
  sched.add(southbound::PollTarget{"t", "rdma-host", std::make_unique<NeverDue>(), std::chrono::hours(1), {}, {}});
  sched.start();
  ASSERT_TRUE(testing::waitUntil([&] { return sched.heartbeat() > 0; }));
  const uint64_t first = sched.heartbeat();  // after the first poll
  EXPECT_TRUE(testing::waitUntil([&] { return sched.heartbeat() >= first + 2; }))
      << "no beat in " << testing::kEventWait.count() << " s";
  sched.stop();
  const uint64_t stopped = sched.heartbeat();
  std::this_thread::sleep_for(southbound::PollScheduler::kHeartbeatPeriod * 2);
  EXPECT_EQ(sched.heartbeat(), stopped) << "a stopped scheduler must not look alive";
}

const char kSshTarget[] =
    "targets:\n"
    "  - name: leaf1\n"
    "    kind: nexus\n"
    "    transport: ssh\n"
    "    address: 192.0.2.10\n"
    "    credentials:\n"
    "      username: monitor\n"
    "      password_file: $CREDENTIALS_DIRECTORY/nexus-password\n"
    "    ssh: {known_hosts: \"${CREDENTIALS_DIRECTORY}/known_hosts\"}\n";

TEST(CredentialsDirectoryTest, ConfigPathsExpandUnderTheUnit) {
  setenv("CREDENTIALS_DIRECTORY", "/run/credentials/rdmagw.service", 1);
  Result<GatewayConfig> cfg = parseConfig(kSshTarget, "c.yaml");
  unsetenv("CREDENTIALS_DIRECTORY");
  ASSERT_TRUE(cfg.isOk()) << cfg.status().message();
  ASSERT_EQ(cfg->targets.size(), 1u);
  EXPECT_EQ(cfg->targets[0].ssh.password_file, "/run/credentials/rdmagw.service/nexus-password");
  EXPECT_EQ(cfg->targets[0].ssh.known_hosts_file, "/run/credentials/rdmagw.service/known_hosts");
}

TEST(CredentialsDirectoryTest, UnexpandedOutsideTheUnit) {
  unsetenv("CREDENTIALS_DIRECTORY");
  Result<GatewayConfig> cfg = parseConfig(kSshTarget, "c.yaml");
  ASSERT_TRUE(cfg.isOk()) << cfg.status().message() << " (check-config in a shell must pass)";
  EXPECT_EQ(cfg->targets[0].ssh.password_file, "$CREDENTIALS_DIRECTORY/nexus-password");
}

}  // namespace
}  // namespace rdmagw::gateway
