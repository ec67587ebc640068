#pragma once
// A client of the kubelet's PodResources v1 API on its node-local unix
// socket: which pod and container holds which device. Each call has its own
// deadline and returns its error as a Status naming the call; none throws.
//
// The kubelet may restart at any time (an upgrade, a config change), which
// deletes and re-creates its socket, or die and leave a dead socket behind.
// A call that finds the kubelet unreachable fails and drops its channel; the
// next call opens a fresh one, so it succeeds as soon as the socket is back.
// No thread of ours waits or retries: the caller's poll interval paces it.
//
// Get (one pod) needs Kubernetes 1.27 and its KubeletPodResourcesGet gate:
// older kubelets answer UNIMPLEMENTED, newer ones with the gate off UNKNOWN
// "PodResources API Get method disabled". Either is remembered, not reported:
// get() then finds the pod in a List, as it does for every later call.
//
// Thread-safe: calls may run concurrently.

#include <chrono>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "models/status.h"
#include "southbound/k8s/pod_resources.h"

namespace rdmagw::southbound::k8s {

inline constexpr std::string_view kKubeletPodResourcesSocket = "/var/lib/kubelet/pod-resources/kubelet.sock";

struct PodResourcesClientOptions {
  std::string socket_path = std::string(kKubeletPodResourcesSocket);
  // Each call's whole budget, a retry after a broken channel included. The
  // kubelet answers from memory: seconds mean it is stuck.
  std::chrono::milliseconds call_timeout{5000};
  // gRPC's default receive limit is 4 MiB. A full node (110 pods, the
  // kubelet's default max-pods, several containers and devices each, CPU
  // lists, DRA claims) stays well below 16 MiB.
  int max_receive_bytes = 16 << 20;
};

// Whether the kubelet answers Get.
enum class GetSupport { kNotYetKnown, kSupported, kUnsupported };

class PodResourcesClient {
 public:
  explicit PodResourcesClient(PodResourcesClientOptions options = {});
  ~PodResourcesClient();
  PodResourcesClient(const PodResourcesClient&) = delete;
  PodResourcesClient& operator=(const PodResourcesClient&) = delete;

  // Every pod of the node the kubelet knows, with its devices.
  Result<std::vector<PodAssignment>> list();
  // Every device the node's device plugins offer, assigned or not.
  Result<std::vector<AssignedDevices>> allocatable();
  // One pod: notFound when the kubelet knows no such pod.
  Result<PodAssignment> get(const std::string& pod_namespace, const std::string& pod_name);

  GetSupport getSupport() const;
  const PodResourcesClientOptions& options() const;

 private:
  class Impl;
  std::unique_ptr<Impl> impl_;
};

}  // namespace rdmagw::southbound::k8s
