// One subscriber that never reads while 20 others keep receiving: the
// stalled stream's queue stays bounded (it coalesces per leaf), the store's
// writer never waits, and every reader sees the final value.

#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstdio>

#include "tests/northbound/gnmi/server_fixture.h"

namespace rdmagw::testing {
using namespace rdmagw::northbound::gnmi;  // the helpers speak the vocabulary of the code they test
namespace {

constexpr int kInterfaces = 400;
constexpr int kCountersPerInterface = 5;
constexpr int kLeaves = kInterfaces * kCountersPerInterface + 1;  // + the marker
constexpr int kReaders = 20;
const char* const kCounters[kCountersPerInterface] = {"in-octets", "out-octets", "in-pkts", "out-pkts", "in-errors"};
const std::string kMarker = "/rdma/devices/device[name=mlx5_0]/state/fw-version";

std::vector<Update> round(uint64_t n, const std::string& marker_value) {
  std::vector<Update> b;
  b.reserve(kLeaves);
  for (int i = 0; i < kInterfaces; ++i) {
    for (const char* c : kCounters) {
      b.push_back(leaf("/interfaces/interface[name=eth" + std::to_string(i) + "]/state/counters/" + c,
                       n * 1000 + i, kTs1 + TimestampNs(n)));
    }
  }
  b.push_back(leaf(kMarker, marker_value, kTs1 + TimestampNs(n)));
  return b;
}

// Kills the client on every way out of the test, failed assertions included.
struct ChildGuard {
  pid_t pid = -1;
  ~ChildGuard() {
    if (pid > 0) {
      ::kill(pid, SIGKILL);
      ::waitpid(pid, nullptr, 0);
    }
  }
};

class SlowSubscriberTest : public GnmiServerFixture {};

TEST_F(SlowSubscriberTest, StalledSubscriberNeverHoldsUpOthersAndStaysBounded) {
  GnmiServerConfig config = plainConfig();
  config.max_subscriptions_per_client = kReaders + 1;  // all from one host
  start(config);
  store_.apply("big", round(0, "round-0"));
  int to_child[2], from_child[2];
  ASSERT_EQ(::pipe(to_child), 0);
  ASSERT_EQ(::pipe(from_child), 0);
  const std::string addr = server_->address();
  ChildGuard child;
  child.pid = ::fork();
  if (child.pid == 0) {
    ::dup2(to_child[0], 0);
    ::dup2(from_child[1], 1);
    ::dup2(from_child[1], 2);  // tracebacks reach the test's output as lines
    ::close(to_child[1]);
    ::close(from_child[0]);
    ::execl("/usr/bin/python3", "python3", RDMAGW_SOURCE_DIR "/tests/northbound/gnmi/stall_client.py",
            pythonModuleDir().c_str(), addr.c_str(), "big", kMarker.c_str(), "final",
            std::to_string(kReaders).c_str(), static_cast<char*>(nullptr));
    ::_exit(127);
  }
  ::close(to_child[0]);
  ::close(from_child[1]);
  FILE* in = ::fdopen(from_child[0], "r");
  char line[256];
  ASSERT_NE(std::fgets(line, sizeof line, in), nullptr);
  ASSERT_EQ(std::string(line), "READY\n");
  EXPECT_EQ(server_->subscriberCount(), size_t(kReaders + 1));

  // Rounds of every leaf until the subscribers' queues have coalesced many
  // rounds' worth: far more bytes than any flow-control window lets the
  // stalled stream take. (The cap only stops a broken server from looping.)
  uint64_t n = 1;
  uint64_t coalesced_mid = 0;
  for (; n <= 20000 && server_->stats().updates_coalesced.load() < 40u * kLeaves; ++n) {
    store_.apply("big", round(n, "round-" + std::to_string(n)));
    if (coalesced_mid == 0) coalesced_mid = server_->stats().updates_coalesced.load();
    EXPECT_LE(server_->queuedLeaves(), size_t(kReaders + 1) * kLeaves);
    ::usleep(2000);  // pacing only: nothing depends on how fast this runs
  }
  ASSERT_GE(server_->stats().updates_coalesced.load(), 40u * kLeaves) << "after " << n << " rounds";
  store_.apply("big", round(n, "final"));
  int done = 0;
  while (std::fgets(line, sizeof line, in) != nullptr) {
    const std::string l(line);
    if (l.rfind("DONE", 0) == 0) ++done;
    EXPECT_EQ(l.rfind("ERROR", 0), std::string::npos) << l;
    if (l == "ALL DONE\n") break;
  }
  EXPECT_EQ(done, kReaders);
  // Only the stalled stream is left; it still holds a bounded backlog.
  for (int i = 0; i < 500 && server_->subscriberCount() > 1; ++i) ::usleep(10000);
  EXPECT_EQ(server_->subscriberCount(), 1u);
  const size_t stalled_queue = server_->queuedLeaves();
  EXPECT_GT(stalled_queue, 0u);
  EXPECT_LE(stalled_queue, size_t(kLeaves));
  EXPECT_GT(server_->stats().updates_coalesced.load(), coalesced_mid);
  EXPECT_EQ(server_->stats().updates_dropped.load(), 0u);
  std::printf("stalled subscriber: %zu leaves queued (cap %d), %llu updates coalesced in all\n", stalled_queue,
              kLeaves, static_cast<unsigned long long>(server_->stats().updates_coalesced.load()));
  ::close(to_child[1]);
  std::fclose(in);
}

}  // namespace
}  // namespace rdmagw::testing
