// The PodResources client against the fake kubelet over a real unix socket:
// replies become plain structs, Get's absence is a capability, a stalled
// kubelet is a deadline error the next call recovers from, and a restarted
// kubelet (socket deleted and created again) is reached again.

#include "southbound/k8s/podresources_client.h"

#include <gtest/gtest.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <unistd.h>

#include <atomic>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <string>
#include <thread>
#include <vector>

#include "sim/k8s/fake_kubelet.h"
#include "tests/support/test_support.h"

namespace rdmagw::testing {

// A fake kubelet serving in a scratch directory, and pods to give it.
class KubeletOnDisk {
 public:
  KubeletOnDisk() : dir_("rdmagw-k8s"), kubelet_(dir_.file("kubelet.sock")) {}
  sim::FakeKubelet& kubelet() { return kubelet_; }
  const std::string& socketPath() const { return kubelet_.socketPath(); }

 private:
  testing::TempDir dir_;
  sim::FakeKubelet kubelet_;
};

// A pod with one container holding one SR-IOV VF on NUMA node 1 and a slot
// of the shared RDMA plugin.
inline sim::FakePod rdmaPod(const std::string& pod_namespace, const std::string& name, int vf) {
  char address[16];
  std::snprintf(address, sizeof address, "0000:3b:%02x.%d", vf / 8, vf % 8);
  return {pod_namespace,
          name,
          {{"worker",
            {{"nvidia.com/cx7_vf", {address}, {1}},
             {"rdma/hca_shared_devices_a", {std::to_string(vf)}, {}}}}}};
}

// Binds a unix socket at `path` and closes it: the file stays, nobody
// listens, as after a kubelet that died without cleaning up.
inline bool leaveDeadSocket(const std::string& path) {
  const int fd = ::socket(AF_UNIX, SOCK_STREAM, 0);
  if (fd < 0) return false;
  sockaddr_un address{};
  address.sun_family = AF_UNIX;
  std::strncpy(address.sun_path, path.c_str(), sizeof(address.sun_path) - 1);
  const bool bound = ::bind(fd, reinterpret_cast<sockaddr*>(&address), sizeof address) == 0;
  ::close(fd);
  return bound;
}

}  // namespace rdmagw::testing

namespace rdmagw::southbound::k8s {
namespace {

using namespace std::chrono_literals;
using rdmagw::testing::KubeletOnDisk;
using rdmagw::testing::leaveDeadSocket;
using rdmagw::testing::rdmaPod;

class PodResourcesClientTest : public ::testing::Test {
 protected:
  void SetUp() override {
    ASSERT_EQ(fake_.kubelet().start(), "");
    fake_.kubelet().setPods({rdmaPod("ml", "trainer-0", 1), rdmaPod("ml", "trainer-1", 2)});
  }

  PodResourcesClientOptions options(std::chrono::milliseconds timeout = 5s) const {
    PodResourcesClientOptions o;
    o.socket_path = fake_.socketPath();
    o.call_timeout = timeout;
    return o;
  }

  KubeletOnDisk fake_;
};

TEST_F(PodResourcesClientTest, ListGivesPodsContainersAndClassifiedDevices) {
  PodResourcesClient client(options());
  Result<std::vector<PodAssignment>> pods = client.list();
  ASSERT_TRUE(pods.isOk()) << pods.status().toString();
  ASSERT_EQ(pods->size(), 2u);
  const PodAssignment& pod = pods->at(1);
  EXPECT_EQ(pod.pod_namespace, "ml");
  EXPECT_EQ(pod.pod_name, "trainer-1");
  ASSERT_EQ(pod.containers.size(), 1u);
  EXPECT_EQ(pod.containers[0].name, "worker");
  ASSERT_EQ(pod.containers[0].devices.size(), 2u);

  const AssignedDevices& vf = pod.containers[0].devices[0];
  EXPECT_EQ(vf.resource_name, "nvidia.com/cx7_vf");
  EXPECT_EQ(vf.numa_nodes, std::vector<int64_t>{1});
  ASSERT_EQ(vf.devices.size(), 1u);
  EXPECT_EQ(vf.devices[0].kind, DeviceKind::kPciFunction);
  EXPECT_EQ(vf.devices[0].raw, "0000:3b:00.2");
  EXPECT_EQ(vf.devices[0].pci->function, 2);

  const AssignedDevices& shared = pod.containers[0].devices[1];
  EXPECT_TRUE(shared.numa_nodes.empty());
  ASSERT_EQ(shared.devices.size(), 1u);
  EXPECT_EQ(shared.devices[0].kind, DeviceKind::kSharedRdmaSlot);
  EXPECT_EQ(shared.devices[0].index, 2u);
}

TEST_F(PodResourcesClientTest, AllocatableListsTheNodesDevices) {
  fake_.kubelet().setAllocatable({{"nvidia.com/cx7_vf", {"0000:3b:00.1", "0000:3b:00.2"}, {0, 1}},
                                  {"nvidia.com/gpu", {"GPU-5a0e6e0b-4a2c-7f37-1c55-3f8d0a1b2c3d"}, {0}}});
  PodResourcesClient client(options());
  Result<std::vector<AssignedDevices>> devices = client.allocatable();
  ASSERT_TRUE(devices.isOk()) << devices.status().toString();
  ASSERT_EQ(devices->size(), 2u);
  EXPECT_EQ(devices->at(0).devices.size(), 2u);
  EXPECT_EQ(devices->at(0).numa_nodes, (std::vector<int64_t>{0, 1}));
  EXPECT_EQ(devices->at(1).devices.at(0).kind, DeviceKind::kGpu);
  EXPECT_EQ(fake_.kubelet().allocatableCalls(), 1);
}

TEST_F(PodResourcesClientTest, GetAsksForOnePod) {
  PodResourcesClient client(options());
  EXPECT_EQ(client.getSupport(), GetSupport::kNotYetKnown);
  Result<PodAssignment> pod = client.get("ml", "trainer-0");
  ASSERT_TRUE(pod.isOk()) << pod.status().toString();
  EXPECT_EQ(pod->pod_name, "trainer-0");
  EXPECT_EQ(pod->containers.at(0).devices.at(0).devices.at(0).raw, "0000:3b:00.1");
  EXPECT_EQ(client.getSupport(), GetSupport::kSupported);
  EXPECT_EQ(fake_.kubelet().getCalls(), 1);
  EXPECT_EQ(fake_.kubelet().listCalls(), 0);

  Result<PodAssignment> missing = client.get("ml", "no-such-pod");
  ASSERT_FALSE(missing.isOk());
  EXPECT_EQ(missing.status().code(), Status::Code::kNotFound) << missing.status().toString();
  EXPECT_NE(missing.status().message().find("kubelet PodResources Get"), std::string::npos);
  EXPECT_EQ(client.getSupport(), GetSupport::kSupported);
}

// Before 1.27 and with the gate off, Get is refused in two different ways;
// both are remembered and answered by List, not reported.
TEST_F(PodResourcesClientTest, RefusedGetIsACapabilityAndListAnswersInstead) {
  for (sim::FakeGetMode mode : {sim::FakeGetMode::kUnimplemented, sim::FakeGetMode::kDisabledByGate}) {
    SCOPED_TRACE(static_cast<int>(mode));
    fake_.kubelet().setGetMode(mode);
    const int gets_before = fake_.kubelet().getCalls();
    PodResourcesClient client(options());
    Result<PodAssignment> pod = client.get("ml", "trainer-1");
    ASSERT_TRUE(pod.isOk()) << pod.status().toString();
    EXPECT_EQ(pod->pod_name, "trainer-1");
    EXPECT_EQ(client.getSupport(), GetSupport::kUnsupported);

    // Remembered: the next get goes straight to List.
    ASSERT_TRUE(client.get("ml", "trainer-0").isOk());
    EXPECT_EQ(fake_.kubelet().getCalls(), gets_before + 1);
    Result<PodAssignment> missing = client.get("ml", "gone");
    EXPECT_EQ(missing.status().code(), Status::Code::kNotFound);
  }
}

TEST_F(PodResourcesClientTest, StalledKubeletIsADeadlineErrorAndTheNextCallRecovers) {
  fake_.kubelet().setStall(10s);
  PodResourcesClient client(options(300ms));
  const auto start = std::chrono::steady_clock::now();
  Result<std::vector<PodAssignment>> stalled = client.list();
  const auto took = std::chrono::steady_clock::now() - start;
  ASSERT_FALSE(stalled.isOk());
  EXPECT_EQ(stalled.status().code(), Status::Code::kUnavailable);
  EXPECT_NE(stalled.status().message().find("kubelet PodResources List"), std::string::npos)
      << stalled.status().message();
  EXPECT_NE(stalled.status().message().find("no answer within 300 ms"), std::string::npos);
  EXPECT_LT(took, 5s) << "the deadline did not cut the call short";

  fake_.kubelet().setStall(0ms);
  Result<std::vector<PodAssignment>> recovered = client.list();
  ASSERT_TRUE(recovered.isOk()) << recovered.status().toString();
  EXPECT_EQ(recovered->size(), 2u);
}

TEST_F(PodResourcesClientTest, MissingSocketIsNamedInTheError) {
  fake_.kubelet().stop();
  PodResourcesClient client(options());
  Result<std::vector<AssignedDevices>> devices = client.allocatable();
  ASSERT_FALSE(devices.isOk());
  EXPECT_EQ(devices.status().code(), Status::Code::kUnavailable);
  EXPECT_NE(devices.status().message().find("GetAllocatableResources"), std::string::npos);
  EXPECT_NE(devices.status().message().find("does not exist"), std::string::npos) << devices.status().message();
}

TEST_F(PodResourcesClientTest, RestartedKubeletIsReachedAgain) {
  PodResourcesClient client(options(2s));
  ASSERT_TRUE(client.list().isOk());

  fake_.kubelet().stop();
  EXPECT_FALSE(client.list().isOk());

  fake_.kubelet().setPods({rdmaPod("ml", "after-restart", 5)});
  ASSERT_EQ(fake_.kubelet().start(), "");
  Result<std::vector<PodAssignment>> pods = client.list();
  ASSERT_TRUE(pods.isOk()) << pods.status().toString();
  ASSERT_EQ(pods->size(), 1u);
  EXPECT_EQ(pods->at(0).pod_name, "after-restart");
}

// No call saw the kubelet down: the channel opened before the restart is
// broken, and the very first call after it must still succeed.
TEST_F(PodResourcesClientTest, RestartBetweenTwoCallsIsInvisible) {
  PodResourcesClient client(options(2s));
  ASSERT_TRUE(client.list().isOk());
  fake_.kubelet().stop();
  ASSERT_EQ(fake_.kubelet().start(), "");
  Result<std::vector<PodAssignment>> pods = client.list();
  ASSERT_TRUE(pods.isOk()) << pods.status().toString();
  EXPECT_EQ(pods->size(), 2u);
}

// A kubelet that died and left its socket: calls are refused (and the
// channel gRPC would now hold in reconnect backoff is dropped), and the
// first call after the kubelet is back succeeds.
TEST_F(PodResourcesClientTest, DeadSocketLeftBehindThenKubeletBack) {
  PodResourcesClient client(options(2s));
  ASSERT_TRUE(client.list().isOk());
  fake_.kubelet().stop();
  ASSERT_TRUE(leaveDeadSocket(fake_.socketPath()));

  Result<std::vector<PodAssignment>> refused = client.list();
  ASSERT_FALSE(refused.isOk());
  EXPECT_EQ(refused.status().code(), Status::Code::kUnavailable);
  EXPECT_NE(refused.status().message().find("UNAVAILABLE"), std::string::npos) << refused.status().message();

  ASSERT_EQ(fake_.kubelet().start(), "");
  Result<std::vector<PodAssignment>> pods = client.list();
  ASSERT_TRUE(pods.isOk()) << pods.status().toString();
  EXPECT_EQ(pods->size(), 2u);
}

// A full node: 110 pods (the kubelet's default max-pods), here with enough
// devices that the reply passes gRPC's 4 MiB default receive limit, which
// the client's own limit must lift.
TEST_F(PodResourcesClientTest, FullNodeReplyPassesTheDefaultMessageLimit) {
  std::vector<sim::FakePod> pods;
  for (int p = 0; p < 110; ++p) {
    sim::FakePod pod{"tenant-" + std::to_string(p % 7), "pod-" + std::to_string(p), {}};
    for (int c = 0; c < 8; ++c) {
      sim::FakeDevices gpus{"nvidia.com/gpu", {}, {c % 2}};
      for (int g = 0; g < 128; ++g) {
        char uuid[64];
        std::snprintf(uuid, sizeof uuid, "GPU-%08x-0000-4000-8000-%012x", p, c * 128 + g);
        gpus.device_ids.push_back(uuid);
      }
      pod.containers.push_back({"c" + std::to_string(c), {gpus}});
    }
    pods.push_back(std::move(pod));
  }
  fake_.kubelet().setPods(std::move(pods));

  PodResourcesClientOptions small = options(30s);
  small.max_receive_bytes = 4 << 20;
  Result<std::vector<PodAssignment>> refused = PodResourcesClient(small).list();
  ASSERT_FALSE(refused.isOk()) << "the reply is not past 4 MiB: the test proves nothing";
  EXPECT_NE(refused.status().message().find("RESOURCE_EXHAUSTED"), std::string::npos)
      << refused.status().message();

  Result<std::vector<PodAssignment>> full = PodResourcesClient(options(30s)).list();
  ASSERT_TRUE(full.isOk()) << full.status().toString();
  ASSERT_EQ(full->size(), 110u);
  EXPECT_EQ(full->at(109).containers.at(7).devices.at(0).devices.size(), 128u);
  EXPECT_EQ(full->at(109).containers.at(7).devices.at(0).devices.at(127).kind, DeviceKind::kGpu);
}

// Calls from several threads while the pod list changes under them.
TEST_F(PodResourcesClientTest, ConcurrentCallsWhileThePodsChange) {
  PodResourcesClient client(options());
  std::atomic<int> failures{0};
  std::vector<std::thread> callers;
  for (int t = 0; t < 4; ++t) {
    callers.emplace_back([&client, &failures, t] {
      for (int i = 0; i < 25; ++i) {
        const bool ok = (t % 2 == 0) ? client.list().isOk() : client.allocatable().isOk();
        if (!ok) ++failures;
      }
    });
  }
  for (int i = 0; i < 50; ++i) fake_.kubelet().setPods({rdmaPod("ml", "p" + std::to_string(i), i % 64)});
  for (std::thread& t : callers) t.join();
  EXPECT_EQ(failures.load(), 0);
  EXPECT_EQ(fake_.kubelet().listCalls() + fake_.kubelet().allocatableCalls(), 100);
}

}  // namespace
}  // namespace rdmagw::southbound::k8s

namespace rdmagw::southbound::k8s {
namespace {

// The collectors above read the client's plain structs; none of its public
// headers may pull generated protobuf code in after them.
TEST(PodResourcesHeadersTest, PublicHeadersIncludeNoGeneratedCode) {
  const std::string dir = std::string(RDMAGW_SOURCE_DIR) + "/southbound/k8s/";
  for (const char* header : {"podresources_client.h", "pod_resources.h", "device_id.h"}) {
    const std::string text = testing::readFile(dir + header);
    ASSERT_FALSE(text.empty()) << dir + header;
    EXPECT_EQ(text.find(".pb.h"), std::string::npos) << header;
    EXPECT_EQ(text.find("grpcpp"), std::string::npos) << header;
  }
}

}  // namespace
}  // namespace rdmagw::southbound::k8s
