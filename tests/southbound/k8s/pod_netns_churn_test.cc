// PodAttributionSource on real pods' netns: each pod has its own real netns
// holding the pod end ("net1", in every pod) of a veth pair standing in for
// its VF, the fake kubelet names the VF's PCI address, the pod's process is
// a /proc-shaped directory whose ns/net is a bind mount of the real netns.
// A veth reports no PCI bus-info, so the netdev lookup (still entering the
// real netns) gives net1 its pod's VF address; the rest is as on a node:
// the handles, sysfs mounts and sockets are real.
//
// Zero forks: 100 polls of 20 pods, counted by what any child leaves in the
// gateway's process (rusage of reaped children, live children listed in
// /proc). Churn: 200 pods made and deleted with reused names and VFs:
// nothing of a dead pod stays, the handles follow the live pods, no
// descriptor or netns is kept. Needs root; skipped with the reason otherwise.

#include <gtest/gtest.h>
#include <sys/mount.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "models/store.h"
#include "sim/k8s/fake_kubelet.h"
#include "southbound/k8s/pod_attribution_source.h"
#include "tests/southbound/k8s/node_tree.h"
#include "tests/support/test_support.h"

namespace rdmagw::southbound::k8s {
namespace {

namespace fs = std::filesystem;
using rdmagw::testing::openDescriptors;
using rdmagw::testing::runCommand;

constexpr int kSlots = 20;  // VFs, reused by each generation of pods

// Children of every thread of this process, alive or not yet reaped.
size_t liveChildren() {
  size_t n = 0;
  for (const auto& task : fs::directory_iterator("/proc/self/task")) {
    std::ifstream in(task.path() / "children");
    std::string pid;
    while (in >> pid) ++n;
  }
  return n;
}

// Minor faults of reaped children: every child, even one that only exits,
// faults at least once, and its parent collects the count when it reaps it.
long reapedChildFaults() {
  rusage usage{};
  ::getrusage(RUSAGE_CHILDREN, &usage);
  return usage.ru_minflt;
}

std::string vmRss() {
  std::ifstream in("/proc/self/status");
  for (std::string line; std::getline(in, line);) {
    if (line.starts_with("VmRSS:")) return line.substr(6);
  }
  return "?";
}

std::string vfAddress(int slot) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "0000:3c:%02x.1", slot);
  return buf;
}

struct LivePod {
  std::string name, uid, netns, host_end;
  int pid = 0;
};

class PodNetnsChurnTest : public ::testing::Test {
 protected:
  void SetUp() override {
    if (::geteuid() != 0) GTEST_SKIP() << "needs root: creates netns, veths and bind mounts";
    if (runCommand("ip -V").exit_code != 0) GTEST_SKIP() << "needs iproute2's ip to build the netns";
    // Per test, not per process: the kernel frees a deleted netns (and the
    // veth end left on the host) asynchronously, late on a loaded machine,
    // so the next test must not reuse the previous one's names.
    static int instance = 0;
    tag_ = std::to_string(::getpid() % 100000) + "t" + std::to_string(++instance % 10);
    sysfs_.device("0000:3c:00.0");
    for (int s = 0; s < kSlots; ++s) sysfs_.vf("0000:3c:00.0", uint32_t(s), vfAddress(s));
    proc_.process(1, "host", "0::/init.scope\n");
    ASSERT_EQ(kubelet_.start(), "");
    KubernetesConfig config;
    config.enabled = true;
    config.kubelet_socket = socket_;
    config.kubelet_timeout = std::chrono::milliseconds(5000);
    config.netns_dirs = {"/var/run/netns"};
    config.pod_logs_dir = logs_.path();
    config.proc_root = proc_.file("proc");
    PodNetnsAccess access;
    // A veth has no bus-info: net1 of a pod's netns is given its VF's.
    access.netdevs = [this](const std::string& path) {
      Result<std::vector<NetnsNetdev>> netdevs = listNetnsNetdevs(path);
      if (netdevs.isOk()) {
        for (NetnsNetdev& n : netdevs.value()) {
          if (n.name == "net1" && vf_of_netns_.count(path)) n.bus_info = vf_of_netns_[path];
        }
      }
      return netdevs;
    };
    access.open = [this](const std::string& path) {
      ++opens_;
      return PodNetnsHandle::open(path);
    };
    source_.emplace(nullptr, config, sysfs_.sysRoot(), std::move(access));
  }
  void TearDown() override {
    for (auto& [slot, pod] : live_) removePod(pod, /*quiet=*/true);
    // The source's handles hold the pods' netns: they go first.
    source_.reset();
    for (const auto& entry : live_) {
      // A plain copy, not a structured binding: clang 14 cannot capture one in a lambda.
      const std::string host_end = entry.second.host_end;
      rdmagw::testing::waitUntil([&] { return !fs::exists("/sys/class/net/" + host_end); });
    }
  }

  // A pod of generation `gen` on VF `slot`: its netns, its veth, its log
  // directory, its process; the kubelet is told by setKubelet().
  void addPod(int slot, int gen) {
    LivePod pod;
    pod.name = "p-" + std::to_string(slot);  // reused by every generation
    char uid[40];
    std::snprintf(uid, sizeof uid, "%08x-0000-4000-8000-%012d", ::getpid(), gen * 100 + slot);
    pod.uid = uid;
    const std::string ns = "rgwc" + tag_ + "-" + std::to_string(slot) + "-" + std::to_string(gen);
    pod.netns = "/var/run/netns/" + ns;
    pod.host_end = "rgwc" + tag_ + "v" + std::to_string(slot);  // reused too
    pod.pid = 1000 + gen * 100 + slot;
    for (const std::string& c :
         {"ip netns add " + ns, "ip link add " + pod.host_end + " type veth peer name net1 netns " + ns}) {
      const rdmagw::testing::CommandResult r = runCommand(c);
      if (r.exit_code != 0) runCommand("ip netns del " + ns);  // not yet live_: TearDown would not
      ASSERT_EQ(r.exit_code, 0) << c << ": " << r.output;
    }
    ASSERT_TRUE(fs::create_directories(logs_.file("ml_" + pod.name + "_" + pod.uid)));
    const std::string dir = proc_.file("proc/" + std::to_string(pod.pid));
    fs::create_directories(dir + "/ns");
    ASSERT_TRUE(rdmagw::testing::writeFile(dir + "/ns/net", ""));
    ASSERT_EQ(::mount(pod.netns.c_str(), (dir + "/ns/net").c_str(), nullptr, MS_BIND, nullptr), 0) << pod.netns;
    ASSERT_TRUE(rdmagw::testing::writeFile(dir + "/cgroup", rdmagw::testing::podCgroup(pod.uid)));
    vf_of_netns_[pod.netns] = vfAddress(slot);
    live_[slot] = pod;
  }
  void removePod(const LivePod& pod, bool quiet = false) {
    const std::string dir = proc_.file("proc/" + std::to_string(pod.pid));
    ::umount2((dir + "/ns/net").c_str(), MNT_DETACH);
    fs::remove_all(dir);
    fs::remove_all(logs_.file("ml_" + pod.name + "_" + pod.uid));
    const std::string ns = pod.netns.substr(std::string("/var/run/netns/").size());
    const rdmagw::testing::CommandResult r = runCommand("ip netns del " + ns);
    if (!quiet) EXPECT_EQ(r.exit_code, 0) << r.output;
    vf_of_netns_.erase(pod.netns);
  }
  void setKubelet() {
    std::vector<sim::FakePod> pods;
    for (const auto& [slot, pod] : live_) {
      pods.push_back(sim::FakePod{
          "ml",
          pod.name,
          {sim::FakeContainer{"main", {sim::FakeDevices{"nvidia.com/sriov_rdma_vf", {vfAddress(slot)}, {0}}}}}});
    }
    kubelet_.setPods(pods);
  }
  void poll() {
    PollBatch batch;
    ASSERT_TRUE(source_->poll(batch).isOk());
    const Store::ApplyResult applied = store_.apply("node01", batch);
    ASSERT_EQ(applied.rejected, 0u) << applied.first_error;
    for (const std::string& e : batch.errors) ADD_FAILURE() << "poll error: " << e;
  }
  std::optional<Value> leaf(const std::string& path) const {
    std::optional<SeriesSnapshot> s = store_.get("node01", path);
    return s ? std::optional(s->value) : std::nullopt;
  }
  uint64_t number(const std::string& path) const {
    std::optional<Value> v = leaf(path);
    const uint64_t* n = v ? std::get_if<uint64_t>(&*v) : nullptr;
    return n != nullptr ? *n : UINT64_MAX;
  }
  static std::string entry(int slot, const std::string& uid) {
    return "/rdma/devices/device[name=" + vfAddress(slot) + "]/pods/pod[uid=" + uid + "]/state/mode";
  }
  static std::string netdevLeaf(int slot) {
    return "/interfaces/interface[name=net1@" + vfAddress(slot) + "]/state/mtu";
  }
  void expectLive() {
    EXPECT_EQ(number("/rdma/kubernetes/state/netns-handles"), live_.size());
    EXPECT_EQ(number("/rdma/kubernetes/state/devices-attributed"), live_.size());
    for (const auto& [slot, pod] : live_) {
      std::optional<Value> mode = leaf(entry(slot, pod.uid));
      EXPECT_TRUE(mode && std::get<std::string>(*mode) == "exclusive") << pod.name << " " << pod.uid;
      EXPECT_TRUE(leaf(netdevLeaf(slot)).has_value()) << "no counters of " << pod.name << "'s net1";
    }
  }

  std::string tag_;
  rdmagw::testing::SysfsTree sysfs_;
  rdmagw::testing::ProcTree proc_;
  rdmagw::testing::TempDir logs_{"k8s-churn-logs"};
  rdmagw::testing::TempDir sock_dir_{"k8s-churn-kubelet"};
  std::string socket_ = sock_dir_.file("kubelet.sock");
  sim::FakeKubelet kubelet_{socket_};
  std::map<std::string, std::string> vf_of_netns_;
  std::map<int, LivePod> live_;
  int opens_ = 0;
  std::optional<PodAttributionSource> source_;
  Store store_;
};

TEST_F(PodNetnsChurnTest, A100PollsOf20PodsForkNothing) {
  for (int s = 0; s < kSlots; ++s) addPod(s, 0);
  setKubelet();
  poll();  // opens the handles
  expectLive();
  const long faults_before = reapedChildFaults();
  const size_t children_before = liveChildren();
  for (int i = 0; i < 100; ++i) poll();
  const long forked = reapedChildFaults() - faults_before;
  EXPECT_EQ(forked, 0) << "a child ran during the polls (its page faults were reaped)";
  EXPECT_EQ(liveChildren(), children_before) << "a child is alive or unreaped";
  EXPECT_EQ(opens_, kSlots) << "each netns is opened once, not per poll";
  expectLive();
  // The measure itself: one fork shows.
  runCommand("true");
  EXPECT_GT(reapedChildFaults() - faults_before, 0) << "a fork would not have been seen";
}

TEST_F(PodNetnsChurnTest, TwoHundredPodsComeAndGoAndLeaveNothingBehind) {
  poll();
  const size_t fds_before = openDescriptors();
  const int handles_before = PodNetnsHandle::openCount();
  std::printf("RSS before churn:%s\n", vmRss().c_str());
  for (int gen = 0; gen < 200 / kSlots; ++gen) {
    for (int s = 0; s < kSlots; ++s) addPod(s, gen);
    setKubelet();
    poll();
    poll();
    expectLive();
    EXPECT_EQ(PodNetnsHandle::openCount(), handles_before + kSlots);
    // Half go, then the rest: one poll after, nothing of theirs is left.
    for (int half = 0; half < 2; ++half) {
      std::vector<LivePod> gone;
      for (int s = half; s < kSlots; s += 2) {
        gone.push_back(live_[s]);
        live_.erase(s);
      }
      setKubelet();
      for (const LivePod& pod : gone) removePod(pod);
      poll();
      expectLive();
      for (const LivePod& pod : gone) {
        const int slot = std::stoi(pod.name.substr(2));
        EXPECT_FALSE(leaf(entry(slot, pod.uid)).has_value()) << "dead pod " << pod.uid << " still listed";
        EXPECT_FALSE(leaf(netdevLeaf(slot)).has_value()) << "dead pod " << pod.name << "'s net1 still there";
        // Its netns is not held: the kernel frees it, and the veth with it.
        EXPECT_TRUE(rdmagw::testing::waitUntil([&] { return !fs::exists("/sys/class/net/" + pod.host_end); }))
            << pod.netns << " is kept alive";
      }
    }
    EXPECT_EQ(PodNetnsHandle::openCount(), handles_before);
  }
  EXPECT_EQ(opens_, 200);
  EXPECT_EQ(number("/rdma/kubernetes/state/netns-handles"), 0u);
  EXPECT_EQ(openDescriptors(), fds_before) << "descriptors grew over the churn";
  std::printf("RSS after 200 pods:%s\n", vmRss().c_str());
}

}  // namespace
}  // namespace rdmagw::southbound::k8s
