#include "southbound/gnmi/relay_source.h"

#include <condition_variable>
#include <mutex>
#include <set>
#include <thread>

#include "common/backoff.h"
#include "gnmi.grpc.pb.h"
#include "models/log.h"
#include "models/path.h"
#include "models/thread_role.h"
#include "southbound/gnmi/gnmi_channel.h"
#include "southbound/gnmi/rdmagw_notification.h"
#include "southbound/ssh/credentials.h"

namespace rdmagw::southbound::gnmi {
namespace {

class RelaySource final : public StreamSource {
 public:
  RelaySource(std::string name, GnmiConfig config, Store& store,
              std::vector<std::pair<std::string, std::string>> labels)
      : name_(std::move(name)), config_(std::move(config)), store_(store), labels_(std::move(labels)) {
    labels_.emplace_back("via", name_);
  }
  ~RelaySource() override { stop(); }

  Status start() override {
    std::lock_guard lock(mu_);
    if (thread_.joinable()) return Status::ok();
    stopping_ = false;
    thread_ = std::thread([this] {
      enterThreadRole("relay", ThreadRole::kIngest);
      run();
    });
    return Status::ok();
  }

  void stop() override {
    {
      std::lock_guard lock(mu_);
      if (!thread_.joinable()) return;
      stopping_ = true;
      if (ctx_ != nullptr) ctx_->TryCancel();
    }
    cv_.notify_all();
    thread_.join();
  }

 private:
  void run() {
    common::Backoff backoff(config_.backoff_initial, config_.backoff_max);
    for (;;) {
      const grpc::Status st = streamOnce();
      markDown(st);
      std::unique_lock lock(mu_);
      if (stopping_) return;
      const std::chrono::milliseconds wait = backoff.next();
      RDMAGW_LOG(kWarn, "gnmi-relay") << name_ << ": stream ended: " << statusCodeName(st.error_code())
                                      << " " << st.error_message() << "; retry in " << wait.count() << " ms";
      if (cv_.wait_for(lock, wait, [this] { return stopping_; })) return;
    }
  }

  grpc::Status streamOnce() {
    Result<std::shared_ptr<grpc::Channel>> channel = makeChannel(config_);
    if (!channel.isOk()) return grpc::Status(grpc::StatusCode::FAILED_PRECONDITION, channel.status().message());
    auto stub = ::gnmi::gNMI::NewStub(*channel);
    grpc::ClientContext ctx;
    if (!config_.username.empty()) {
      Result<common::Secret> password =
          ssh::resolveSecret("password_env", config_.password_env, "password_file", config_.password_file);
      if (!password.isOk()) return grpc::Status(grpc::StatusCode::FAILED_PRECONDITION, password.status().message());
      ctx.AddMetadata("username", config_.username);
      ctx.AddMetadata("password", password->reveal());
    }
    {
      std::lock_guard lock(mu_);
      if (stopping_) return grpc::Status::CANCELLED;
      ctx_ = &ctx;
    }
    auto stream = stub->Subscribe(&ctx);
    ::gnmi::SubscribeRequest req;
    ::gnmi::SubscriptionList* list = req.mutable_subscribe();
    list->mutable_prefix()->set_target("*");
    list->set_mode(::gnmi::SubscriptionList::STREAM);
    list->set_encoding(::gnmi::PROTO);
    list->add_subscription()->set_mode(::gnmi::ON_CHANGE);  // path "/": everything
    ::gnmi::SubscribeResponse resp;
    if (stream->Write(req)) {
      while (stream->Read(&resp)) {
        if (resp.has_update()) apply(resp.update());
      }
    }
    grpc::Status st = stream->Finish();
    std::lock_guard lock(mu_);
    ctx_ = nullptr;
    return st;
  }

  void apply(const ::gnmi::Notification& n) {
    const std::string& target = n.prefix().target();
    if (target.empty()) return;
    NotificationChanges changes = fromRdmagwNotification(n);  // stamped with the site gateway's collection time
    if (!up_.count(target)) markUp(target);
    if (!changes.updates.empty()) store_.apply(target, changes.updates);
    for (const Path& p : changes.deletes) store_.remove(target, p);
  }

  void markUp(const std::string& target) {
    up_.insert(target);
    TargetHealth h;
    h.kind = "relayed";
    h.transport = "gnmi-relay";
    h.up = true;
    h.last_success_ns = h.last_attempt_ns = nowNs();
    h.labels = labels_;
    store_.setHealth(target, h);
  }

  void markDown(const grpc::Status& st) {
    for (const std::string& target : up_) {
      TargetHealth h;
      h.kind = "relayed";
      h.transport = "gnmi-relay";
      h.up = false;
      h.last_attempt_ns = nowNs();
      h.last_error = "relay " + name_ + ": " + statusCodeName(st.error_code());
      h.labels = labels_;
      store_.setHealth(target, h);
    }
    up_.clear();
  }

  const std::string name_;
  const GnmiConfig config_;
  Store& store_;
  std::vector<std::pair<std::string, std::string>> labels_;
  std::set<std::string> up_;  // relayed targets marked up; relay thread only

  std::mutex mu_;
  std::condition_variable cv_;
  bool stopping_ = false;                 // guarded by mu_
  grpc::ClientContext* ctx_ = nullptr;    // guarded by mu_: the stream in progress
  std::thread thread_;
};

}  // namespace

Result<StreamSourcePtr> createRelaySource(const std::string& name, const GnmiConfig& config, Store& store,
                                          std::vector<std::pair<std::string, std::string>> labels) {
  if (Status st = config.validate(); !st.isOk()) return st;
  return StreamSourcePtr(new RelaySource(name, config, store, std::move(labels)));
}

}  // namespace rdmagw::southbound::gnmi
