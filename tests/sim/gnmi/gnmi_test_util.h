#pragma once
// Helpers for the simulated gNMI target tests: a fabric that a thread steps
// and publishes, a C++ gNMI client stream with timed reads, path parsing.

#include <grpcpp/grpcpp.h>

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <deque>
#include <memory>
#include <mutex>
#include <optional>
#include <thread>

#include "gnmi.grpc.pb.h"
#include "sim/fabric.h"
#include "tests/support/test_support.h"
#include "sim/gnmi/gnmi_target.h"
#include "sim/gnmi/nxos_tree.h"

namespace rdmagw::testing {
using namespace rdmagw::sim;  // the helpers speak the vocabulary of the code they test

// Generous: the tests wait for events, never assert how long they took.
inline constexpr auto kWait = testing::kEventWait;

// Steps a Fabric and publishes leaf 0 to a target, on demand or from a thread.
class FabricFeed {
 public:
  explicit FabricFeed(GnmiTarget* target) : target_(target), fabric_(FabricConfig{}) {}
  ~FabricFeed() { stopThread(); }

  void step() {
    std::lock_guard<std::mutex> lock(mu_);
    fabric_.step();
    target_->publish(fabric_.switches()[0], TimestampNs(fabric_.tick()) * 1000000000);
  }
  Switch current() {
    std::lock_guard<std::mutex> lock(mu_);
    return fabric_.switches()[0];
  }
  void startThread(std::chrono::milliseconds period) {
    thread_ = std::thread([this, period] {
      while (!stop_.load()) {
        step();
        std::this_thread::sleep_for(period);
      }
    });
  }
  void stopThread() {
    stop_ = true;
    if (thread_.joinable()) thread_.join();
  }

 private:
  GnmiTarget* target_;
  std::mutex mu_;
  Fabric fabric_;
  std::thread thread_;
  std::atomic<bool> stop_{false};
};

struct ClientAuth {
  std::string username, password;
};

inline std::shared_ptr<grpc::Channel> insecureChannel(const GnmiTarget& t) {
  return grpc::CreateChannel(t.address(), grpc::InsecureChannelCredentials());
}

inline void addAuth(grpc::ClientContext* ctx, const ClientAuth& auth) {
  if (!auth.username.empty()) {
    ctx->AddMetadata("username", auth.username);
    ctx->AddMetadata("password", auth.password);
  }
}

// One Subscribe call; a thread reads responses into a queue.
class ClientStream {
 public:
  explicit ClientStream(std::shared_ptr<grpc::Channel> channel, ClientAuth auth = {})
      : stub_(gnmi::gNMI::NewStub(std::move(channel))) {
    addAuth(&ctx_, auth);
    ctx_.set_deadline(std::chrono::system_clock::now() + std::chrono::seconds(120));
    stream_ = stub_->Subscribe(&ctx_);
    reader_ = std::thread([this] {
      gnmi::SubscribeResponse r;
      while (stream_->Read(&r)) {
        std::lock_guard<std::mutex> lock(mu_);
        got_.push_back(r);
        cv_.notify_all();
      }
      grpc::Status st = stream_->Finish();
      std::lock_guard<std::mutex> lock(mu_);
      status_ = st;
      cv_.notify_all();
    });
  }
  ~ClientStream() {
    ctx_.TryCancel();
    reader_.join();
  }

  bool write(const gnmi::SubscribeRequest& req) { return stream_->Write(req); }
  bool poll() {
    gnmi::SubscribeRequest req;
    req.mutable_poll();
    return stream_->Write(req);
  }
  void cancel() { ctx_.TryCancel(); }

  // The next response, or nullopt when the stream ended or `wait` passed.
  std::optional<gnmi::SubscribeResponse> next(std::chrono::milliseconds wait = kWait) {
    std::unique_lock<std::mutex> lock(mu_);
    cv_.wait_for(lock, wait, [this] { return !got_.empty() || status_.has_value(); });
    if (got_.empty()) return std::nullopt;
    gnmi::SubscribeResponse r = std::move(got_.front());
    got_.pop_front();
    return r;
  }
  // Reads until a sync_response; returns the updates before it (nullopt: none came).
  std::optional<std::vector<gnmi::Notification>> untilSync() {
    std::vector<gnmi::Notification> out;
    while (auto r = next()) {
      if (r->has_sync_response()) return out;
      if (r->has_update()) out.push_back(r->update());
    }
    return std::nullopt;
  }
  // The final status once the server ends the call (nullopt while open).
  std::optional<grpc::Status> status(std::chrono::milliseconds wait = kWait) {
    std::unique_lock<std::mutex> lock(mu_);
    cv_.wait_for(lock, wait, [this] { return status_.has_value(); });
    return status_;
  }

 private:
  std::unique_ptr<gnmi::gNMI::Stub> stub_;
  grpc::ClientContext ctx_;
  std::unique_ptr<grpc::ClientReaderWriter<gnmi::SubscribeRequest, gnmi::SubscribeResponse>>
      stream_;
  std::thread reader_;
  std::mutex mu_;
  std::condition_variable cv_;
  std::deque<gnmi::SubscribeResponse> got_;
  std::optional<grpc::Status> status_;
};

inline gnmi::SubscribeRequest subscribeRequest(
    const std::vector<std::string>& paths, gnmi::SubscriptionList::Mode mode,
    gnmi::SubscriptionMode sub_mode = gnmi::SAMPLE, uint64_t interval_ns = 0,
    gnmi::Encoding encoding = gnmi::PROTO) {
  gnmi::SubscribeRequest req;
  gnmi::SubscriptionList* list = req.mutable_subscribe();
  list->set_mode(mode);
  list->set_encoding(encoding);
  for (const std::string& p : paths) {
    gnmi::Subscription* s = list->add_subscription();
    *s->mutable_path() = gnmi_tree::parsePath(p);
    s->set_mode(sub_mode);
    s->set_sample_interval(interval_ns);
  }
  return req;
}

// Flattens notifications to "path" -> update (last one wins).
inline std::map<std::string, gnmi::TypedValue> leaves(const std::vector<gnmi::Notification>& ns) {
  std::map<std::string, gnmi::TypedValue> out;
  for (const gnmi::Notification& n : ns) {
    for (const gnmi::Update& u : n.update()) out[gnmi_tree::toString(u.path())] = u.val();
  }
  return out;
}

}  // namespace rdmagw::testing
