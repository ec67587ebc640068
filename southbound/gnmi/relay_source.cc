#include "southbound/gnmi/relay_source.h"

#include <algorithm>
#include <condition_variable>
#include <map>
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
#include "southbound/gnmi/relay_mode.h"
#include "southbound/secret_source.h"

namespace rdmagw::southbound::gnmi {
namespace {

class RelaySource final : public StreamSource {
 public:
  RelaySource(std::unique_ptr<RelayMode> mode, Store& store) : mode_(std::move(mode)), store_(store) {}
  ~RelaySource() override { stop(); }

  Status start() override {
    std::lock_guard lock(mu_);
    if (thread_.joinable()) return Status::ok();
    stopping_ = false;
    thread_ = std::thread([this] {
      enterThreadRole(mode_->threadRole(), ThreadRole::kIngest);
      run();
    });
    if (mode_->watches()) watcher_ = std::thread([this] { watch(); });
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
    if (watcher_.joinable()) watcher_.join();
    mode_->stopped(store_);
    up_.clear();
  }

 private:
  void run() {
    common::Backoff backoff(mode_->backoffInitial(), mode_->backoffMax());
    for (;;) {
      if (mode_->idle()) {
        markDown(grpc::Status::CANCELLED);
        mode_->stopped(store_);
        std::unique_lock lock(mu_);
        if (cv_.wait_for(lock, std::chrono::seconds(1), [this] { return stopping_; })) return;
        continue;
      }
      const auto began = std::chrono::steady_clock::now();
      const grpc::Status st = streamOnce();
      std::unique_lock lock(mu_);
      if (stopping_) {
        lock.unlock();
        markDown(st);
        return;
      }
      if (planned_) {  // asked for something else: the copy stays up meanwhile
        planned_ = false;
        continue;
      }
      lock.unlock();
      markDown(st);
      lock.lock();
      if (stopping_) return;
      if (mode_->resetAfterLongStream() && std::chrono::steady_clock::now() - began > mode_->backoffMax()) {
        backoff.reset();
      }
      const std::chrono::milliseconds wait = backoff.next();
      RDMAGW_LOG(kWarn, mode_->logTag()) << mode_->endedMessage(st) << "; retry in " << wait.count() << " ms";
      if (cv_.wait_for(lock, wait, [this] { return stopping_; })) return;
    }
  }

  grpc::Status streamOnce() {
    Result<std::shared_ptr<grpc::Channel>> channel = mode_->channel();
    if (!channel.isOk()) return grpc::Status(grpc::StatusCode::FAILED_PRECONDITION, channel.status().message());
    auto stub = ::gnmi::gNMI::NewStub(*channel);
    grpc::ClientContext ctx;
    if (Status s = mode_->prepare(&ctx); !s.isOk()) {
      return grpc::Status(grpc::StatusCode::FAILED_PRECONDITION, s.message());
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
    mode_->subscriptions(list, store_);
    mode_->refresh(true, store_, &up_);
    ::gnmi::SubscribeResponse resp;
    if (stream->Write(req)) {
      while (stream->Read(&resp)) {
        mode_->received(resp);
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
    mode_->refresh(false, store_, &up_);
    NotificationChanges changes = fromRdmagwNotification(n);  // stamped with the upstream's collection time
    {
      std::lock_guard lock(heard_mu_);
      last_heard_[target] = nowNs();
      if (silenced_.erase(target)) up_.erase(target);  // heard again: up again
    }
    if (!up_.count(target)) {
      TargetHealth h;
      if (!mode_->health(target, &h)) return;
      h.up = true;
      h.last_success_ns = h.last_attempt_ns = nowNs();
      store_.setHealth(target, h);
      up_.insert(target);
    }
    if (!changes.updates.empty()) store_.apply(target, changes.updates);
    for (const Path& p : changes.deletes) store_.remove(target, p);
  }

  // Targets of a running stream that went silent: marked down, so nothing
  // downstream judges their last values as current.
  void markSilent() {
    const int64_t limit = mode_->silenceLimitNs();
    if (limit <= 0) return;
    const int64_t now = nowNs();
    std::vector<std::string> silent;
    {
      std::lock_guard lock(heard_mu_);
      for (const auto& [target, at] : last_heard_) {
        if (now - at > limit && silenced_.insert(target).second) silent.push_back(target);
      }
    }
    if (silent.empty()) return;
    std::set<std::string> present;
    for (const TargetStatus& t : store_.targets()) present.insert(t.name);
    std::string names;  // one line per pass, not one per target: a dead member may own hundreds
    size_t marked = 0;
    std::string why;
    for (const std::string& target : silent) {
      if (!present.count(target)) continue;  // left the copy meanwhile: no health for a target it no longer holds
      TargetHealth h;
      h.last_error = mode_->silentHealth(target, &h);
      h.up = false;
      h.last_attempt_ns = now;
      store_.setHealth(target, h);
      why = h.last_error;
      if (++marked <= 10) names += (names.empty() ? "" : ", ") + target;
    }
    if (marked > 0) {
      RDMAGW_LOG(kWarn, mode_->logTag()) << marked << " target(s) marked down: " << names
                                         << (marked > 10 ? ", ..." : "") << ": " << why;
    }
  }

  void watch() {
    std::unique_lock lock(mu_);
    while (!cv_.wait_for(lock, std::chrono::seconds(1), [this] { return stopping_; })) {
      if (ctx_ != nullptr) {
        lock.unlock();
        markSilent();
        lock.lock();
      }
      if (ctx_ == nullptr || planned_) continue;
      lock.unlock();
      const bool change = mode_->wantsResubscribe();  // may take a while: not under mu_
      lock.lock();
      if (change && ctx_ != nullptr && !stopping_) {
        planned_ = true;
        ctx_->TryCancel();
      }
    }
  }

  void markDown(const grpc::Status& st) {
    // Not up: nothing downstream trusts values nobody refreshes.
    for (const std::string& target : up_) {
      TargetHealth h;
      h.last_error = mode_->downHealth(target, st, &h);
      h.up = false;
      h.last_attempt_ns = nowNs();
      store_.setHealth(target, h);
    }
    up_.clear();
    std::lock_guard lock(heard_mu_);
    last_heard_.clear();
    silenced_.clear();
  }

  const std::unique_ptr<RelayMode> mode_;
  Store& store_;
  std::set<std::string> up_;  // relayed targets marked up; relay thread only (and stop())
  std::mutex heard_mu_;
  std::map<std::string, int64_t> last_heard_;  // guarded by heard_mu_: target -> when its last notification came
  std::set<std::string> silenced_;             // guarded by heard_mu_: marked down by markSilent, not heard since

  std::mutex mu_;
  std::condition_variable cv_;
  bool stopping_ = false;               // guarded by mu_
  grpc::ClientContext* ctx_ = nullptr;  // guarded by mu_: the stream in progress
  bool planned_ = false;                // guarded by mu_: the watcher ended the stream for a new subscription
  std::thread thread_;
  std::thread watcher_;  // only for a mode that watches its subscription
};

// Gateway chaining: everything the site gateway has, as its own targets.
class ChainMode final : public RelayMode {
 public:
  ChainMode(std::string name, GnmiConfig config, std::vector<std::pair<std::string, std::string>> labels)
      : name_(std::move(name)), config_(std::move(config)), labels_(std::move(labels)) {
    labels_.emplace_back("via", name_);
  }
  const char* threadRole() const override { return "relay"; }
  const char* logTag() const override { return "gnmi-relay"; }
  std::chrono::milliseconds backoffInitial() const override { return config_.backoff_initial; }
  std::chrono::milliseconds backoffMax() const override { return config_.backoff_max; }
  bool resetAfterLongStream() const override { return false; }
  Result<std::shared_ptr<grpc::Channel>> channel() override { return makeChannel(config_); }
  Status prepare(grpc::ClientContext* ctx) override {
    if (config_.username.empty()) return Status::ok();
    Result<common::Secret> password =
        resolveSecret("password_env", config_.password_env, "password_file", config_.password_file);
    if (!password.isOk()) return password.status();
    ctx->AddMetadata("username", config_.username);
    ctx->AddMetadata("password", password->reveal());
    return Status::ok();
  }
  void subscriptions(::gnmi::SubscriptionList* list, Store&) override {
    list->add_subscription()->set_mode(::gnmi::ON_CHANGE);  // path "/": everything
  }
  void refresh(bool, Store&, std::set<std::string>*) override {}
  bool health(const std::string&, TargetHealth* h) override {
    h->kind = "relayed";
    h->transport = "gnmi-relay";
    h->labels = labels_;
    return true;
  }
  std::string downHealth(const std::string&, const grpc::Status& st, TargetHealth* h) override {
    h->kind = "relayed";
    h->transport = "gnmi-relay";
    h->labels = labels_;
    return "relay " + name_ + ": " + statusCodeName(st.error_code());
  }
  std::string endedMessage(const grpc::Status& st) const override {
    return name_ + ": stream ended: " + statusCodeName(st.error_code()) + " " + st.error_message();
  }
  void stopped(Store&) override {}

 private:
  const std::string name_;
  const GnmiConfig config_;
  std::vector<std::pair<std::string, std::string>> labels_;
};

}  // namespace

// "/a/b[k=v]/c" -> elements a, b (key k=v), c; a key left out is every instance.
void toGnmiPath(const std::string& text, ::gnmi::Path* out) {
  Result<Path> path = Path::parse(text);
  if (!path.isOk()) return;  // the caller's own rows: parsed by its tests
  for (const PathElem& e : path->elems()) {
    ::gnmi::PathElem* elem = out->add_elem();
    elem->set_name(e.name);
    for (const auto& [k, v] : e.keys) (*elem->mutable_key())[k] = v;
  }
}

StreamSourcePtr makeRelaySource(std::unique_ptr<RelayMode> mode, Store& store) {
  return StreamSourcePtr(new RelaySource(std::move(mode), store));
}

Result<StreamSourcePtr> createRelaySource(const std::string& name, const GnmiConfig& config, Store& store,
                                          std::vector<std::pair<std::string, std::string>> labels) {
  if (Status st = config.validate(); !st.isOk()) return st;
  return makeRelaySource(std::make_unique<ChainMode>(name, config, std::move(labels)), store);
}
}  // namespace rdmagw::southbound::gnmi
