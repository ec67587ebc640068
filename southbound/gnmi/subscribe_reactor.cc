#include "southbound/gnmi/subscribe_reactor.h"

namespace rdmagw::southbound::gnmi {

SubscribeReactor::SubscribeReactor(std::unique_ptr<grpc::ClientContext> context,
                                   ResponseHandler on_response, std::function<void()> on_done)
    : context_(std::move(context)), on_response_(std::move(on_response)), on_done_(std::move(on_done)) {}

void SubscribeReactor::start(::gnmi::gNMI::Stub& stub, ::gnmi::SubscribeRequest request) {
  request_ = std::move(request);
  stub.async()->Subscribe(context_.get(), this);
  StartWrite(&request_);
  StartRead(&response_);
  StartCall();
}

void SubscribeReactor::OnReadDone(bool ok) {
  if (!ok) return;  // stream over; OnDone follows with the status
  on_response_(response_);
  response_.Clear();
  StartRead(&response_);
}

void SubscribeReactor::OnDone(const grpc::Status& status) {
  std::lock_guard lock(mu_);
  status_ = status;
  done_ = true;
  if (on_done_) on_done_();
  cv_.notify_all();
}

bool SubscribeReactor::done(grpc::Status* status) const {
  std::lock_guard lock(mu_);
  if (done_ && status != nullptr) *status = status_;
  return done_;
}

void SubscribeReactor::waitDone() const {
  std::unique_lock lock(mu_);
  cv_.wait(lock, [this] { return done_; });
}

}  // namespace rdmagw::southbound::gnmi
