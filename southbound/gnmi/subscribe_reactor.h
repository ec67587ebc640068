#pragma once
// One Subscribe RPC on gRPC's callback API: no thread of ours blocks on the
// stream, so a hundred targets cost a hundred reactors, not a hundred
// threads. Each response goes to a handler on a gRPC thread (which must only
// queue, never block); the final status is kept for the owner, who must call
// waitDone() before destroying the reactor.

#include <grpcpp/grpcpp.h>

#include <condition_variable>
#include <functional>
#include <memory>
#include <mutex>

#include "gnmi.grpc.pb.h"

namespace rdmagw::southbound::gnmi {

class SubscribeReactor : public grpc::ClientBidiReactor<::gnmi::SubscribeRequest, ::gnmi::SubscribeResponse> {
 public:
  using ResponseHandler = std::function<void(::gnmi::SubscribeResponse&)>;
  // `on_done` runs on the gRPC thread once the call is over, under the
  // reactor's lock: it must only flag and notify.
  SubscribeReactor(std::unique_ptr<grpc::ClientContext> context, ResponseHandler on_response,
                   std::function<void()> on_done);

  // Sends `request` (kept open: NX-OS ends a STREAM subscription whose client
  // half-closes) and starts reading.
  void start(::gnmi::gNMI::Stub& stub, ::gnmi::SubscribeRequest request);
  void cancel() { context_->TryCancel(); }
  bool done(grpc::Status* status = nullptr) const;
  void waitDone() const;

  void OnWriteDone(bool ok) override {}
  void OnReadDone(bool ok) override;
  void OnDone(const grpc::Status& status) override;

 private:
  std::unique_ptr<grpc::ClientContext> context_;
  ResponseHandler on_response_;
  std::function<void()> on_done_;
  ::gnmi::SubscribeRequest request_;
  ::gnmi::SubscribeResponse response_;  // only touched by the one outstanding read

  mutable std::mutex mu_;
  mutable std::condition_variable cv_;
  bool done_ = false;    // guarded by mu_
  grpc::Status status_;  // guarded by mu_
};

}  // namespace rdmagw::southbound::gnmi
