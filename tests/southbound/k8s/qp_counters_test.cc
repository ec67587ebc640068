// Per-process QP counters to pods: the join through a /proc-shaped tree, the
// per-pod totals across a process that ends (its counter freed), a counter ID
// bound again, and the reader's requests through canned replies.

#include "southbound/k8s/qp_counters.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <map>
#include <string>
#include <variant>
#include <vector>

#include "tests/southbound/k8s/rdma_netlink_replies.h"
#include "tests/support/test_support.h"

namespace rdmagw::southbound::k8s {
namespace {

using namespace rdmagw::testing;  // NOLINT: the reply builders

const std::string kPodA = "11111111-2222-4333-8444-555555555555";
const std::string kPodB = "aaaaaaaa-bbbb-4ccc-8ddd-eeeeeeeeeeee";
const std::string kCid = "0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef";

std::string podCgroup(const std::string& uid) { return "0::/kubepods/burstable/pod" + uid + "/" + kCid + "\n"; }

// PIDs 100 and 101 in pod A, 200 in pod B, 300 a system service, 400 gone.
class ProcTree {
 public:
  ProcTree() {
    write(100, podCgroup(kPodA));
    write(101, podCgroup(kPodA));
    write(102, podCgroup(kPodA));
    write(200, podCgroup(kPodB));
    write(300, "0::/system.slice/opensm.service\n");
  }
  void write(int pid, const std::string& text) {
    std::filesystem::create_directories(dir_.file(std::to_string(pid)));
    ASSERT_TRUE(rdmagw::testing::writeFile(dir_.file(std::to_string(pid) + "/cgroup"), text));
  }
  const std::string& root() const { return dir_.path(); }

 private:
  rdmagw::testing::TempDir dir_{"qp-counters"};
};

QpCounter counter(const std::string& device, uint32_t port, uint32_t id, uint32_t pid, uint64_t writes) {
  QpCounter c;
  c.device = device;
  c.port = port;
  c.counter_id = id;
  c.pid = pid;
  c.hw_counters = {{"rx_write_requests", writes}};
  return c;
}

uint64_t total(const QpCounterAccumulator& acc, const std::string& uid, const std::string& device) {
  const auto it = acc.totals().find(PodQpCounterKey{uid, device, 1, "rx_write_requests"});
  return it == acc.totals().end() ? 0 : it->second;
}

TEST(QpCounters, ProcessesJoinTheirPodsAndTheRestIsCounted) {
  ProcTree proc;
  QpCounterAccumulator acc;
  const QpCounterPoll poll =
      acc.add({counter("mlx5_0", 1, 1, 100, 40), counter("mlx5_0", 1, 2, 101, 10), counter("mlx5_1", 1, 1, 101, 3),
               counter("mlx5_1", 1, 2, 200, 7), counter("mlx5_0", 1, 3, 300, 99), counter("mlx5_1", 1, 3, 400, 5)},
              procPodOfPid(proc.root()));
  EXPECT_EQ(poll.counters, 6u);
  EXPECT_EQ(poll.of_no_pod, 1u);
  EXPECT_EQ(poll.process_gone, 1u);
  EXPECT_EQ(poll.unreadable, 0u);
  EXPECT_EQ(total(acc, kPodA, "mlx5_0"), 50u);
  EXPECT_EQ(total(acc, kPodA, "mlx5_1"), 3u);
  EXPECT_EQ(total(acc, kPodB, "mlx5_1"), 7u);
  EXPECT_EQ(acc.totals().size(), 3u);  // nothing for the service or the gone process
}

TEST(QpCounters, TotalsNeverGoBackWhenAProcessEnds) {
  ProcTree proc;
  QpCounterAccumulator acc;
  const PodOfPid pod_of = procPodOfPid(proc.root());
  acc.add({counter("mlx5_0", 1, 1, 100, 40), counter("mlx5_0", 1, 2, 101, 10)}, pod_of);
  ASSERT_EQ(total(acc, kPodA, "mlx5_0"), 50u);
  // PID 100 closed its QPs: its counter is freed, the sum now bound is 15.
  acc.add({counter("mlx5_0", 1, 2, 101, 15)}, pod_of);
  EXPECT_EQ(total(acc, kPodA, "mlx5_0"), 55u);
  // Counter ID 1 bound again, for PID 102: all of its 4 is new.
  acc.add({counter("mlx5_0", 1, 2, 101, 15), counter("mlx5_0", 1, 1, 102, 4)}, pod_of);
  EXPECT_EQ(total(acc, kPodA, "mlx5_0"), 59u);
  // The same binding lower than before: a reset, its 2 counted from zero.
  acc.add({counter("mlx5_0", 1, 2, 101, 2), counter("mlx5_0", 1, 1, 102, 4)}, pod_of);
  EXPECT_EQ(total(acc, kPodA, "mlx5_0"), 61u);
}

TEST(QpCounters, AProcessGoneWhileItsCounterIsListedKeepsItsPod) {
  ProcTree proc;
  QpCounterAccumulator acc;
  acc.add({counter("mlx5_0", 1, 1, 100, 40)}, procPodOfPid(proc.root()));
  std::filesystem::remove_all(proc.root() + "/100");
  const QpCounterPoll poll = acc.add({counter("mlx5_0", 1, 1, 100, 45)}, procPodOfPid(proc.root()));
  EXPECT_EQ(poll.process_gone, 1u);
  EXPECT_EQ(total(acc, kPodA, "mlx5_0"), 45u);
}

TEST(QpCounters, DeletedPodsAreForgottenLivePodsKept) {
  ProcTree proc;
  QpCounterAccumulator acc;
  const PodOfPid pod_of = procPodOfPid(proc.root());
  acc.add({counter("mlx5_0", 1, 1, 100, 40), counter("mlx5_1", 1, 2, 200, 7)}, pod_of);
  acc.add({counter("mlx5_0", 1, 1, 100, 41)}, pod_of);  // pod B's process ended
  acc.keepPods({});                                     // the list says no pod lives: A still has a bound counter
  EXPECT_EQ(total(acc, kPodA, "mlx5_0"), 41u);
  EXPECT_EQ(total(acc, kPodB, "mlx5_1"), 0u);
}

TEST(QpCounters, UnreadableCgroupIsCountedWithItsError) {
  ProcTree proc;
  proc.write(500, "not a cgroup line\n");
  QpCounterAccumulator acc;
  const QpCounterPoll poll = acc.add({counter("mlx5_0", 1, 1, 500, 1)}, procPodOfPid(proc.root()));
  EXPECT_EQ(poll.unreadable, 1u);
  ASSERT_EQ(poll.errors.size(), 1u);
  EXPECT_NE(poll.errors[0].find("/500/cgroup"), std::string::npos) << poll.errors[0];
}

std::map<std::string, uint64_t> leaves(const PollBatch& batch) {
  std::map<std::string, uint64_t> out;
  for (const Update& u : batch.updates) out[u.path] = std::get<uint64_t>(u.value);
  return out;
}

std::string valuePath(const std::string& device, const std::string& uid, const std::string& name) {
  return "/rdma/devices/device[name=" + device + "]/pods/pod[uid=" + uid +
         "]/qp-counters/port[port-num=1]/counter[name=" + name + "]/state/value";
}

TEST(QpCounterReader, ReadModeDumpsAndWritesTheTotals) {
  ProcTree proc;
  ReplayTransport* replay = nullptr;
  QpCounterReader reader(QpCountersMode::kRead, proc.root(), [&]() -> Result<std::unique_ptr<RdmaNetlinkTransport>> {
    auto t = std::make_unique<ReplayTransport>(std::vector<std::vector<NetlinkBytes>>{
        {cat({deviceCounters(1, 0, "mlx5_0",
                             {counterEntry(1, 1, 100, {17}, {{"rx_write_requests", 40}}),
                              counterEntry(1, 2, 300, {18}, {{"rx_write_requests", 9}})}),
              done(1)})}});
    replay = t.get();
    return std::unique_ptr<RdmaNetlinkTransport>(std::move(t));
  });
  PollBatch batch;
  ASSERT_TRUE(reader.poll(nullptr, 1, batch).isOk());
  ASSERT_NE(replay, nullptr);
  ASSERT_EQ(replay->requests().size(), 1u);  // read: no STAT_SET
  const std::map<std::string, uint64_t> got = leaves(batch);
  EXPECT_EQ(got.at(valuePath("mlx5_0", kPodA, "rx_write_requests")), 40u);
  EXPECT_EQ(got.at("/rdma/kubernetes/unattributed/reason[name=qp-counter-of-no-pod]/state/count"), 1u);
  EXPECT_EQ(got.at("/rdma/kubernetes/unattributed/reason[name=qp-counter-process-gone]/state/count"), 0u);
}

TEST(QpCounterReader, AutoModeSetsEveryPortOnceThenDumps) {
  ProcTree proc;
  ReplayTransport* replay = nullptr;
  QpCounterReader reader(QpCountersMode::kAuto, proc.root(), [&]() -> Result<std::unique_ptr<RdmaNetlinkTransport>> {
    auto t = std::make_unique<ReplayTransport>(std::vector<std::vector<NetlinkBytes>>{
        {cat({portMessage(1, 0, "mlx5_0", 1), portMessage(1, 1, "mlx5_1", 1), done(1)})},
        {error(2, 0)},
        {error(3, 0)},
        {done(4)},
        {done(5)}});
    replay = t.get();
    return std::unique_ptr<RdmaNetlinkTransport>(std::move(t));
  });
  PollBatch first;
  ASSERT_TRUE(reader.poll(nullptr, 1, first).isOk());
  PollBatch second;
  ASSERT_TRUE(reader.poll(nullptr, 2, second).isOk());
  ASSERT_EQ(replay->requests().size(), 5u);
  EXPECT_EQ(replay->requests()[0], buildPortDumpRequest(1));
  EXPECT_EQ(replay->requests()[1], buildSetAutoPidRequest(2, 0, 1));
  EXPECT_EQ(replay->requests()[2], buildSetAutoPidRequest(3, 1, 1));
  EXPECT_EQ(replay->requests()[3], buildQpCounterDumpRequest(4));
  EXPECT_EQ(replay->requests()[4], buildQpCounterDumpRequest(5));
}

TEST(QpCounterReader, NoRdmaNetlinkIsAnErrorNotACrash) {
  QpCounterReader reader(QpCountersMode::kRead, "/proc", []() -> Result<std::unique_ptr<RdmaNetlinkTransport>> {
    return Status::unavailable("no RDMA netlink in this kernel");
  });
  PollBatch batch;
  Status st = reader.poll(nullptr, 1, batch);
  EXPECT_EQ(st.code(), Status::Code::kUnavailable);
  EXPECT_TRUE(batch.updates.empty());
}

}  // namespace
}  // namespace rdmagw::southbound::k8s
