#pragma once
// A stand-in kubelet for tests and the simulator: a real gRPC server on a
// unix socket serving v1.PodResourcesLister (List, GetAllocatableResources,
// Get) from a pod list the test changes while it runs. Knobs reproduce what
// real kubelets do to a client: no Get (before 1.27), Get switched off by
// its feature gate, replies that stall past the client's deadline, and a
// restart that deletes the socket and creates it again.
//
// Thread-safe: every setter may be called while calls are being served.

#include <chrono>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

namespace rdmagw::sim {

// One device plugin resource's devices, as ContainerDevices carries them.
struct FakeDevices {
  std::string resource_name;
  std::vector<std::string> device_ids;
  std::vector<int64_t> numa_nodes;
};

struct FakeContainer {
  std::string name;
  std::vector<FakeDevices> devices;
};

struct FakePod {
  std::string pod_namespace;
  std::string name;
  std::vector<FakeContainer> containers;
};

// How the fake answers Get.
enum class FakeGetMode {
  kServed,          // like a kubelet 1.27+ with KubeletPodResourcesGet on
  kUnimplemented,   // like a kubelet before 1.27: UNIMPLEMENTED
  kDisabledByGate,  // like a kubelet 1.27+ with the gate off: UNKNOWN "... Get method disabled"
};

class FakeKubelet {
 public:
  // Serves on `socket_path` (its directory must exist) once start() is called.
  explicit FakeKubelet(std::string socket_path);
  ~FakeKubelet();  // stops
  FakeKubelet(const FakeKubelet&) = delete;
  FakeKubelet& operator=(const FakeKubelet&) = delete;

  // Creates the socket and serves; an empty string, or why it could not.
  std::string start();
  // Stops serving and deletes the socket, as a kubelet going down does.
  // Stalled calls are released first. Does nothing when not running.
  void stop();
  bool running() const;
  const std::string& socketPath() const;

  void setPods(std::vector<FakePod> pods);
  void setAllocatable(std::vector<FakeDevices> devices);
  void setGetMode(FakeGetMode mode);
  // Each reply waits this long before it is sent (zero: none). stop() cuts
  // the wait short.
  void setStall(std::chrono::milliseconds stall);

  // Calls answered or refused since construction, per method.
  int listCalls() const;
  int allocatableCalls() const;
  int getCalls() const;

 private:
  class Service;  // sim/k8s/fake_kubelet.cc
  std::unique_ptr<Service> service_;
};

}  // namespace rdmagw::sim
