#include "southbound/k8s/podresources_client.h"

#include <grpcpp/grpcpp.h>

#include <atomic>
#include <filesystem>
#include <functional>
#include <mutex>
#include <utility>

#include "common/grpc_channel.h"
#include "podresources.grpc.pb.h"

namespace rdmagw::southbound::k8s {

namespace {

using Stub = v1::PodResourcesLister::Stub;
using Clock = std::chrono::system_clock;

std::string_view codeName(grpc::StatusCode code) {
  switch (code) {
    case grpc::StatusCode::CANCELLED: return "CANCELLED";
    case grpc::StatusCode::UNKNOWN: return "UNKNOWN";
    case grpc::StatusCode::INVALID_ARGUMENT: return "INVALID_ARGUMENT";
    case grpc::StatusCode::DEADLINE_EXCEEDED: return "DEADLINE_EXCEEDED";
    case grpc::StatusCode::NOT_FOUND: return "NOT_FOUND";
    case grpc::StatusCode::PERMISSION_DENIED: return "PERMISSION_DENIED";
    case grpc::StatusCode::RESOURCE_EXHAUSTED: return "RESOURCE_EXHAUSTED";
    case grpc::StatusCode::UNIMPLEMENTED: return "UNIMPLEMENTED";
    case grpc::StatusCode::INTERNAL: return "INTERNAL";
    case grpc::StatusCode::UNAVAILABLE: return "UNAVAILABLE";
    default: return "gRPC error";
  }
}

// Get is missing from kubelets before 1.27 and switched off by the
// KubeletPodResourcesGet gate after; the gate's refusal has no code of its
// own, only this text (pkg/kubelet/apis/podresources/server_v1.go).
bool getIsUnsupported(const grpc::Status& status) {
  return status.error_code() == grpc::StatusCode::UNIMPLEMENTED ||
         (status.error_code() == grpc::StatusCode::UNKNOWN &&
          status.error_message().find("Get method disabled") != std::string::npos);
}

// The kubelet's answer for an unknown pod: UNKNOWN "pod <name> in namespace
// <ns> not found".
bool podIsUnknown(const grpc::Status& status) {
  return (status.error_code() == grpc::StatusCode::UNKNOWN || status.error_code() == grpc::StatusCode::NOT_FOUND) &&
         status.error_message().find("not found") != std::string::npos;
}

AssignedDevices toAssignedDevices(const v1::ContainerDevices& in) {
  AssignedDevices out;
  out.resource_name = in.resource_name();
  out.devices.reserve(in.device_ids_size());
  for (const std::string& id : in.device_ids()) out.devices.push_back(classifyDeviceId(in.resource_name(), id));
  for (const v1::NUMANode& node : in.topology().nodes()) out.numa_nodes.push_back(node.id());
  return out;
}

PodAssignment toPodAssignment(const v1::PodResources& in) {
  PodAssignment out;
  out.pod_namespace = in.namespace_();
  out.pod_name = in.name();
  out.containers.reserve(in.containers_size());
  for (const v1::ContainerResources& c : in.containers()) {
    ContainerAssignment container;
    container.name = c.name();
    for (const v1::ContainerDevices& d : c.devices()) container.devices.push_back(toAssignedDevices(d));
    out.containers.push_back(std::move(container));
  }
  return out;
}

}  // namespace

class PodResourcesClient::Impl {
 public:
  explicit Impl(PodResourcesClientOptions options) : options_(std::move(options)) {}

  // Runs one unary call. A call that finds the channel unavailable drops
  // it: gRPC would fail the calls after it at once while it backs off, and
  // the kubelet (socket deleted and created again) may be back by the next.
  // `raw`, when given, receives gRPC's own status.
  Status invoke(std::string_view stage, const std::function<grpc::Status(Stub&, grpc::ClientContext&)>& rpc,
                grpc::Status* raw = nullptr) {
    const std::string where = std::string("kubelet PodResources ") + std::string(stage) + " (" +
                              options_.socket_path + ")";
    std::error_code ec;
    if (!std::filesystem::exists(options_.socket_path, ec)) {
      dropChannel(nullptr);
      return Status::unavailable(where + ": the socket does not exist (kubelet not running, or its "
                                         "pod-resources directory not mounted here)");
    }
    std::shared_ptr<Stub> stub = currentStub();
    if (stub == nullptr) return Status::internal(where + ": cannot build a gRPC channel");
    grpc::ClientContext context;
    context.set_deadline(Clock::now() + options_.call_timeout);
    const grpc::Status status = rpc(*stub, context);
    if (status.error_code() == grpc::StatusCode::UNAVAILABLE) dropChannel(stub);
    if (raw != nullptr) *raw = status;
    if (status.ok()) return Status::ok();
    if (status.error_code() == grpc::StatusCode::DEADLINE_EXCEEDED) {
      return Status::unavailable(where + ": no answer within " + std::to_string(options_.call_timeout.count()) +
                                 " ms");
    }
    std::string message = where + ": " + std::string(codeName(status.error_code())) + ": " + status.error_message();
    if (status.error_code() == grpc::StatusCode::UNAVAILABLE) return Status::unavailable(std::move(message));
    if (podIsUnknown(status)) return Status::notFound(std::move(message));
    return Status::internal(std::move(message));
  }

  PodResourcesClientOptions options_;
  std::atomic<GetSupport> get_support_{GetSupport::kNotYetKnown};

 private:
  // The stub of the current channel, opened if there is none.
  std::shared_ptr<Stub> currentStub() {
    std::lock_guard<std::mutex> lock(mutex_);
    if (stub_ != nullptr) return stub_;
    grpc::ChannelArguments args;
    args.SetMaxReceiveMessageSize(options_.max_receive_bytes);
    // A channel of its own per client: gRPC otherwise shares subchannels
    // process-wide, and a fresh channel would inherit the broken one's
    // reconnect backoff.
    args.SetInt(GRPC_ARG_USE_LOCAL_SUBCHANNEL_POOL, 1);
    // gRPC's own reconnect backoff grows to two minutes; a local kubelet is
    // back within seconds.
    args.SetInt(GRPC_ARG_INITIAL_RECONNECT_BACKOFF_MS, 200);
    args.SetInt(GRPC_ARG_MAX_RECONNECT_BACKOFF_MS, 1000);
    // The socket is local and root-owned: plain text, as every kubelet client.
    std::shared_ptr<grpc::Channel> channel =
        common::makeChannel("unix:" + options_.socket_path, common::ChannelTls{}, args);
    if (channel == nullptr) return nullptr;
    stub_ = std::shared_ptr<Stub>(v1::PodResourcesLister::NewStub(channel));
    return stub_;
  }

  // Forgets the channel behind `broken` (any channel when nullptr), unless
  // another call has already replaced it.
  void dropChannel(const std::shared_ptr<Stub>& broken) {
    std::lock_guard<std::mutex> lock(mutex_);
    if (broken == nullptr || stub_ == broken) stub_.reset();
  }

  std::mutex mutex_;
  std::shared_ptr<Stub> stub_;  // guarded by mutex_; the channel lives as long as a stub holds it
};

PodResourcesClient::PodResourcesClient(PodResourcesClientOptions options)
    : impl_(std::make_unique<Impl>(std::move(options))) {}

PodResourcesClient::~PodResourcesClient() = default;

Result<std::vector<PodAssignment>> PodResourcesClient::list() {
  v1::ListPodResourcesResponse response;
  Status status = impl_->invoke("List", [&](Stub& stub, grpc::ClientContext& context) {
    return stub.List(&context, v1::ListPodResourcesRequest(), &response);
  });
  if (!status.isOk()) return status;
  std::vector<PodAssignment> pods;
  pods.reserve(response.pod_resources_size());
  for (const v1::PodResources& pod : response.pod_resources()) pods.push_back(toPodAssignment(pod));
  return pods;
}

Result<std::vector<AssignedDevices>> PodResourcesClient::allocatable() {
  v1::AllocatableResourcesResponse response;
  Status status = impl_->invoke("GetAllocatableResources", [&](Stub& stub, grpc::ClientContext& context) {
    return stub.GetAllocatableResources(&context, v1::AllocatableResourcesRequest(), &response);
  });
  if (!status.isOk()) return status;
  std::vector<AssignedDevices> devices;
  devices.reserve(response.devices_size());
  for (const v1::ContainerDevices& d : response.devices()) devices.push_back(toAssignedDevices(d));
  return devices;
}

Result<PodAssignment> PodResourcesClient::get(const std::string& pod_namespace, const std::string& pod_name) {
  if (impl_->get_support_.load() != GetSupport::kUnsupported) {
    v1::GetPodResourcesRequest request;
    request.set_pod_namespace(pod_namespace);
    request.set_pod_name(pod_name);
    v1::GetPodResourcesResponse response;
    grpc::Status raw;
    Status status = impl_->invoke(
        "Get", [&](Stub& stub, grpc::ClientContext& context) { return stub.Get(&context, request, &response); },
        &raw);
    if (status.isOk()) {
      impl_->get_support_.store(GetSupport::kSupported);
      return toPodAssignment(response.pod_resources());
    }
    if (!getIsUnsupported(raw)) return status;
    impl_->get_support_.store(GetSupport::kUnsupported);
  }
  Result<std::vector<PodAssignment>> pods = list();
  if (!pods.isOk()) return pods.status();
  for (const PodAssignment& pod : pods.value()) {
    if (pod.pod_namespace == pod_namespace && pod.pod_name == pod_name) return pod;
  }
  return Status::notFound("kubelet PodResources List (" + impl_->options_.socket_path + "): no pod " + pod_namespace +
                          "/" + pod_name);
}

GetSupport PodResourcesClient::getSupport() const { return impl_->get_support_.load(); }

const PodResourcesClientOptions& PodResourcesClient::options() const { return impl_->options_; }

}  // namespace rdmagw::southbound::k8s
