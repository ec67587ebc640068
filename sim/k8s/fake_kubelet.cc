#include "sim/k8s/fake_kubelet.h"

#include <grpcpp/grpcpp.h>

#include <atomic>
#include <condition_variable>
#include <filesystem>
#include <mutex>
#include <utility>

#include "podresources.grpc.pb.h"

namespace rdmagw::sim {

namespace {

void fillDevices(const FakeDevices& in, v1::ContainerDevices* out) {
  out->set_resource_name(in.resource_name);
  for (const std::string& id : in.device_ids) out->add_device_ids(id);
  for (int64_t node : in.numa_nodes) out->mutable_topology()->add_nodes()->set_id(node);
}

void fillPod(const FakePod& in, v1::PodResources* out) {
  out->set_namespace_(in.pod_namespace);
  out->set_name(in.name);
  for (const FakeContainer& c : in.containers) {
    v1::ContainerResources* container = out->add_containers();
    container->set_name(c.name);
    for (const FakeDevices& d : c.devices) fillDevices(d, container->add_devices());
  }
}

}  // namespace

class FakeKubelet::Service final : public v1::PodResourcesLister::Service {
 public:
  explicit Service(std::string socket_path) : socket_path_(std::move(socket_path)) {}

  grpc::Status List(grpc::ServerContext* context, const v1::ListPodResourcesRequest*,
                    v1::ListPodResourcesResponse* response) override {
    ++list_calls_;
    stallIfAsked(context);
    std::lock_guard<std::mutex> lock(mutex_);
    for (const FakePod& pod : pods_) fillPod(pod, response->add_pod_resources());
    return grpc::Status::OK;
  }

  grpc::Status GetAllocatableResources(grpc::ServerContext* context, const v1::AllocatableResourcesRequest*,
                                       v1::AllocatableResourcesResponse* response) override {
    ++allocatable_calls_;
    stallIfAsked(context);
    std::lock_guard<std::mutex> lock(mutex_);
    for (const FakeDevices& d : allocatable_) fillDevices(d, response->add_devices());
    return grpc::Status::OK;
  }

  // The refusals' codes and texts are the kubelet's (server_v1.go), since
  // clients can only tell them apart by those.
  grpc::Status Get(grpc::ServerContext* context, const v1::GetPodResourcesRequest* request,
                   v1::GetPodResourcesResponse* response) override {
    ++get_calls_;
    stallIfAsked(context);
    std::lock_guard<std::mutex> lock(mutex_);
    if (get_mode_ == FakeGetMode::kUnimplemented) {
      return grpc::Status(grpc::StatusCode::UNIMPLEMENTED, "unknown method Get for service v1.PodResourcesLister");
    }
    if (get_mode_ == FakeGetMode::kDisabledByGate) {
      return grpc::Status(grpc::StatusCode::UNKNOWN, "PodResources API Get method disabled");
    }
    for (const FakePod& pod : pods_) {
      if (pod.pod_namespace == request->pod_namespace() && pod.name == request->pod_name()) {
        fillPod(pod, response->mutable_pod_resources());
        return grpc::Status::OK;
      }
    }
    return grpc::Status(grpc::StatusCode::UNKNOWN,
                        "pod " + request->pod_name() + " in namespace " + request->pod_namespace() + " not found");
  }

  std::string start() {
    std::lock_guard<std::mutex> lock(lifecycle_);
    if (server_ != nullptr) return "";
    std::error_code ec;
    std::filesystem::remove(socket_path_, ec);  // a stale socket from a crash, as the kubelet does
    {
      std::lock_guard<std::mutex> state(mutex_);
      stopping_ = false;
    }
    grpc::ServerBuilder builder;
    builder.AddListeningPort("unix:" + socket_path_, grpc::InsecureServerCredentials());
    builder.RegisterService(this);
    server_ = builder.BuildAndStart();
    if (server_ == nullptr) return "cannot serve on unix:" + socket_path_;
    return "";
  }

  void stop() {
    std::lock_guard<std::mutex> lock(lifecycle_);
    if (server_ == nullptr) return;
    {
      std::lock_guard<std::mutex> state(mutex_);
      stopping_ = true;
    }
    stall_cv_.notify_all();
    server_->Shutdown(std::chrono::system_clock::now() + std::chrono::seconds(2));
    server_->Wait();
    server_.reset();
    std::error_code ec;
    std::filesystem::remove(socket_path_, ec);
  }

  bool running() const {
    std::lock_guard<std::mutex> lock(lifecycle_);
    return server_ != nullptr;
  }

  void setPods(std::vector<FakePod> pods) {
    std::lock_guard<std::mutex> lock(mutex_);
    pods_ = std::move(pods);
  }
  void setAllocatable(std::vector<FakeDevices> devices) {
    std::lock_guard<std::mutex> lock(mutex_);
    allocatable_ = std::move(devices);
  }
  void setGetMode(FakeGetMode mode) {
    std::lock_guard<std::mutex> lock(mutex_);
    get_mode_ = mode;
  }
  void setStall(std::chrono::milliseconds stall) {
    std::lock_guard<std::mutex> lock(mutex_);
    stall_ = stall;
  }

  const std::string socket_path_;
  std::atomic<int> list_calls_{0};
  std::atomic<int> allocatable_calls_{0};
  std::atomic<int> get_calls_{0};

 private:
  // Holds the reply back for the stall, until stop() or the client gives up.
  void stallIfAsked(grpc::ServerContext* context) {
    std::unique_lock<std::mutex> lock(mutex_);
    const auto until = std::chrono::steady_clock::now() + stall_;
    while (!stopping_ && !context->IsCancelled() && std::chrono::steady_clock::now() < until) {
      stall_cv_.wait_for(lock, std::chrono::milliseconds(20));
    }
  }

  mutable std::mutex lifecycle_;  // serialises start and stop
  std::unique_ptr<grpc::Server> server_;

  std::mutex mutex_;  // guards everything below
  std::condition_variable stall_cv_;
  bool stopping_ = false;
  std::vector<FakePod> pods_;
  std::vector<FakeDevices> allocatable_;
  FakeGetMode get_mode_ = FakeGetMode::kServed;
  std::chrono::milliseconds stall_{0};
};

FakeKubelet::FakeKubelet(std::string socket_path) : service_(std::make_unique<Service>(std::move(socket_path))) {}

FakeKubelet::~FakeKubelet() { service_->stop(); }

std::string FakeKubelet::start() { return service_->start(); }
void FakeKubelet::stop() { service_->stop(); }
bool FakeKubelet::running() const { return service_->running(); }
const std::string& FakeKubelet::socketPath() const { return service_->socket_path_; }
void FakeKubelet::setPods(std::vector<FakePod> pods) { service_->setPods(std::move(pods)); }
void FakeKubelet::setAllocatable(std::vector<FakeDevices> devices) { service_->setAllocatable(std::move(devices)); }
void FakeKubelet::setGetMode(FakeGetMode mode) { service_->setGetMode(mode); }
void FakeKubelet::setStall(std::chrono::milliseconds stall) { service_->setStall(stall); }
int FakeKubelet::listCalls() const { return service_->list_calls_.load(); }
int FakeKubelet::allocatableCalls() const { return service_->allocatable_calls_.load(); }
int FakeKubelet::getCalls() const { return service_->get_calls_.load(); }

}  // namespace rdmagw::sim
