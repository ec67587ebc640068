#include "sim/gnmi/bad_peer.h"

#include <grpcpp/grpcpp.h>

#include <chrono>
#include <climits>
#include <thread>

#include "gnmi.grpc.pb.h"
#include "sim/gnmi/nxos_tree.h"

namespace rdmagw::sim {
namespace {

int64_t nowNsWall() {
  return std::chrono::duration_cast<std::chrono::nanoseconds>(
             std::chrono::system_clock::now().time_since_epoch()).count();
}

}  // namespace

class BadGnmiPeer::Service final : public ::gnmi::gNMI::Service {
 public:
  explicit Service(BadPeerOptions o) : o_(o) {}

  std::atomic<bool> stopping{false};
  std::atomic<uint64_t> subscribe_calls{0};
  std::atomic<uint64_t> sent{0};
  std::atomic<int> open_streams{0};

  grpc::Status Capabilities(grpc::ServerContext*, const ::gnmi::CapabilityRequest*,
                            ::gnmi::CapabilityResponse* resp) override {
    resp->add_supported_encodings(::gnmi::PROTO);
    resp->add_supported_encodings(::gnmi::JSON);
    resp->set_gnmi_version("0.5.0");
    return grpc::Status::OK;
  }

  grpc::Status Subscribe(grpc::ServerContext* ctx,
                         grpc::ServerReaderWriter<::gnmi::SubscribeResponse, ::gnmi::SubscribeRequest>* stream) override {
    ::gnmi::SubscribeRequest req;
    if (!stream->Read(&req)) return grpc::Status(grpc::StatusCode::INVALID_ARGUMENT, "no request");
    ++subscribe_calls;
    ++open_streams;
    struct Guard {
      std::atomic<int>& n;
      ~Guard() { --n; }
    } guard{open_streams};
    if (o_.mode == BadPeerMode::kOversized) return oversized(ctx, stream);
    return flood(ctx, stream);
  }

 private:
  using Stream = grpc::ServerReaderWriter<::gnmi::SubscribeResponse, ::gnmi::SubscribeRequest>;

  bool write(Stream* stream, const ::gnmi::SubscribeResponse& r) {
    if (!stream->Write(r)) return false;
    ++sent;
    return true;
  }

  grpc::Status oversized(grpc::ServerContext* ctx, Stream* stream) {
    ::gnmi::SubscribeResponse small;
    ::gnmi::Notification* n = small.mutable_update();
    n->set_timestamp(nowNsWall());
    ::gnmi::Update* u = n->add_update();
    *u->mutable_path() = gnmi_tree::counterPath(1, "in-octets");
    u->mutable_val()->set_uint_val(1000);
    if (!write(stream, small)) return grpc::Status::OK;
    ::gnmi::SubscribeResponse big;
    n = big.mutable_update();
    n->set_timestamp(nowNsWall());
    u = n->add_update();
    *u->mutable_path() = gnmi_tree::counterPath(1, "description");
    u->mutable_val()->set_string_val(std::string(o_.oversized_bytes, 'x'));
    write(stream, big);  // the client refuses it and cancels; false then
    while (!ctx->IsCancelled() && !stopping) std::this_thread::sleep_for(std::chrono::milliseconds(10));
    return grpc::Status::OK;
  }

  grpc::Status flood(grpc::ServerContext* ctx, Stream* stream) {
    uint64_t value = 0;
    bool synced = false;
    while (!ctx->IsCancelled() && !stopping) {
      ::gnmi::SubscribeResponse r;
      ::gnmi::Notification* n = r.mutable_update();
      n->set_timestamp(nowNsWall());
      ++value;
      for (int i = 1; i <= o_.flood_leaves; ++i) {
        ::gnmi::Update* u = n->add_update();
        *u->mutable_path() = gnmi_tree::counterPath(i, "in-octets");
        u->mutable_val()->set_uint_val(value);
      }
      if (!write(stream, r)) break;
      if (!synced) {
        ::gnmi::SubscribeResponse s;
        s.set_sync_response(true);
        if (!stream->Write(s)) break;
        synced = true;
      }
    }
    return grpc::Status::OK;
  }

  const BadPeerOptions o_;
};

BadGnmiPeer::BadGnmiPeer(BadPeerOptions options) : service_(std::make_unique<Service>(options)) {}

BadGnmiPeer::~BadGnmiPeer() { stop(); }

Status BadGnmiPeer::start() {
  grpc::ServerBuilder b;
  b.AddListeningPort("127.0.0.1:0", grpc::InsecureServerCredentials(), &port_);
  b.SetMaxSendMessageSize(INT_MAX);  // the oversized message must leave: the client is the one to refuse it
  b.RegisterService(service_.get());
  service_->stopping = false;
  server_ = b.BuildAndStart();
  if (server_ == nullptr || port_ <= 0) return Status::ioError("bad gNMI peer: cannot listen on 127.0.0.1");
  return Status::ok();
}

void BadGnmiPeer::stop() {
  service_->stopping = true;
  if (server_ != nullptr) {
    server_->Shutdown(std::chrono::system_clock::now() + std::chrono::milliseconds(500));
    server_.reset();
  }
}

std::string BadGnmiPeer::address() const { return "127.0.0.1:" + std::to_string(port_); }
uint64_t BadGnmiPeer::subscribeCalls() const { return service_->subscribe_calls.load(); }
uint64_t BadGnmiPeer::notificationsSent() const { return service_->sent.load(); }
int BadGnmiPeer::openStreams() const { return service_->open_streams.load(); }

}  // namespace rdmagw::sim
