#include "sim/gnmi/gnmi_target.h"

#include <grpcpp/grpcpp.h>

#include <algorithm>
#include <filesystem>

#include "sim/gnmi/gnmi_target_impl.h"
#include "sim/gnmi/gnmi_tls.h"
#include "sim/gnmi/ledger_interceptor.h"
#include "sim/gnmi/subscribe_session.h"

namespace rdmagw::sim {
namespace {

constexpr auto kSchedulerPeriod = std::chrono::milliseconds(20);

class GnmiService final : public gnmi::gNMI::CallbackService {
 public:
  explicit GnmiService(GnmiTarget::Impl* target) : target_(target) {}

  grpc::ServerUnaryReactor* Capabilities(grpc::CallbackServerContext* ctx,
                                         const gnmi::CapabilityRequest*,
                                         gnmi::CapabilityResponse* resp) override {
    grpc::ServerUnaryReactor* r = ctx->DefaultReactor();
    grpc::Status st = target_->checkCall(*ctx, GnmiTarget::Impl::Rpc::kCapabilities);
    if (st.ok()) {
      // The models NX-OS 10.x lists for what this target serves.
      const struct {
        const char* name;
        const char* org;
        const char* version;
      } models[] = {
          {"openconfig-interfaces", "OpenConfig working group", "2.4.3"},
          {"openconfig-if-ethernet", "OpenConfig working group", "2.11.0"},
          {"openconfig-qos", "OpenConfig working group", "0.2.3"},
          {"openconfig-lldp", "OpenConfig working group", "0.2.1"},
          {"Cisco-NX-OS-device", "Cisco Systems, Inc.", "2023-12-01"},
      };
      for (const auto& m : models) {
        gnmi::ModelData* md = resp->add_supported_models();
        md->set_name(m.name);
        md->set_organization(m.org);
        md->set_version(m.version);
      }
      resp->add_supported_encodings(gnmi::JSON);
      resp->add_supported_encodings(gnmi::PROTO);
      resp->set_gnmi_version(target_->options_.gnmi_version);
    }
    if (st.ok() && target_->options_.capabilities_delay.count() > 0) {  // a refusal is immediate
      target_->holdAnswer(r, st);
    } else {
      r->Finish(st);
    }
    return r;
  }

  grpc::ServerBidiReactor<gnmi::SubscribeRequest, gnmi::SubscribeResponse>* Subscribe(
      grpc::CallbackServerContext* ctx) override {
    return new SubscribeSession(target_, ctx);
  }

 private:
  GnmiTarget::Impl* const target_;
};

std::string metadataValue(const grpc::CallbackServerContext& ctx, const char* key) {
  const auto& md = ctx.client_metadata();
  auto it = md.find(key);
  return it == md.end() ? std::string() : std::string(it->second.data(), it->second.size());
}

}  // namespace

// ---------------------------------------------------------------- Impl

GnmiTarget::Impl::Impl(std::string name, GnmiTargetOptions options)
    : name_(std::move(name)),
      options_(std::move(options)),
      quirks_(options_.quirks),
      min_sample_(options_.min_sample_interval),
      username_(options_.username),
      password_(options_.password),
      ledger_(options_.handshake_meter),
      snap_(std::make_shared<gnmi_tree::Snapshot>()),
      port_(options_.port) {}

void GnmiTarget::Impl::holdAnswer(grpc::ServerUnaryReactor* reactor, grpc::Status status) {
  std::lock_guard<std::mutex> lock(held_mu_);
  held_.push_back({Clock::now() + options_.capabilities_delay, reactor, std::move(status)});
}

void GnmiTarget::Impl::finishHeldAnswers(bool all) {
  std::vector<HeldAnswer> due;
  {
    std::lock_guard<std::mutex> lock(held_mu_);
    const Clock::time_point now = Clock::now();
    auto it = std::stable_partition(held_.begin(), held_.end(),
                                    [&](const HeldAnswer& h) { return !all && h.due > now; });
    due.assign(std::make_move_iterator(it), std::make_move_iterator(held_.end()));
    held_.erase(it, held_.end());
  }
  for (HeldAnswer& h : due) h.reactor->Finish(h.status);
}

grpc::Status GnmiTarget::Impl::checkCall(const grpc::CallbackServerContext& ctx, Rpc rpc) {
  const int64_t starting_until = starting_until_ns_.load();
  const bool in_window = starting_until != 0 && Clock::now().time_since_epoch().count() < starting_until;
  // Taken on every call, so that a refusal inside the window settles it too.
  const bool owed = starting_owes_refusal_.exchange(false);
  if (in_window || owed) {
    ledger_.countRefusedStarting();
    return grpc::Status(grpc::StatusCode::UNAVAILABLE, "gNMI agent is starting");
  }
  if (rpc == Rpc::kSubscribe && subscribe_unimplemented_.load()) {
    return grpc::Status(grpc::StatusCode::UNIMPLEMENTED, "Subscribe is not implemented");
  }
  if (rpc == Rpc::kCapabilities && capabilities_unimplemented_.load()) {
    return grpc::Status(grpc::StatusCode::UNIMPLEMENTED, "Capabilities is not implemented");
  }
  std::string user, pass;
  {
    std::lock_guard<std::mutex> lock(mu_);
    user = username_;
    pass = password_;
  }
  if (user.empty()) return grpc::Status::OK;
  if (metadataValue(ctx, "username") != user || metadataValue(ctx, "password") != pass) {
    return grpc::Status(grpc::StatusCode::UNAUTHENTICATED, "authentication failed");
  }
  return grpc::Status::OK;
}

std::shared_ptr<const gnmi_tree::Snapshot> GnmiTarget::Impl::snapshot() const {
  std::lock_guard<std::mutex> lock(snap_mu_);
  return snap_;
}

GnmiQuirks GnmiTarget::Impl::quirks() const {
  std::lock_guard<std::mutex> lock(mu_);
  return quirks_;
}

std::chrono::milliseconds GnmiTarget::Impl::minSampleInterval() const {
  std::lock_guard<std::mutex> lock(mu_);
  return min_sample_;
}

bool GnmiTarget::Impl::registerSession(SubscribeSession* s) {
  std::lock_guard<std::mutex> lock(reg_mu_);
  if (stopping_) return false;
  sessions_.push_back(s);
  return true;
}

void GnmiTarget::Impl::unregisterSession(SubscribeSession* s) {
  std::unique_lock<std::mutex> lock(reg_mu_);
  auto it = std::find(sessions_.begin(), sessions_.end(), s);
  if (it == sessions_.end()) return;  // finished before it registered
  sessions_.erase(it);
  reg_cv_.wait(lock, [s] { return s->pins == 0; });
  reg_cv_.notify_all();
}

void GnmiTarget::Impl::forEachSession(const std::function<void(SubscribeSession&)>& fn) {
  std::vector<SubscribeSession*> pinned;
  {
    std::lock_guard<std::mutex> lock(reg_mu_);
    pinned = sessions_;
    for (SubscribeSession* s : pinned) ++s->pins;
  }
  for (SubscribeSession* s : pinned) fn(*s);
  {
    std::lock_guard<std::mutex> lock(reg_mu_);
    for (SubscribeSession* s : pinned) --s->pins;
  }
  reg_cv_.notify_all();
}

void GnmiTarget::Impl::schedulerLoop() {
  std::unique_lock<std::mutex> lock(sched_mu_);
  while (!sched_stop_) {
    sched_cv_.wait_for(lock, kSchedulerPeriod, [this] { return sched_stop_; });
    if (sched_stop_) break;
    lock.unlock();
    finishHeldAnswers(false);
    const auto now = Clock::now();
    forEachSession([now](SubscribeSession& s) { s.pump(now); });
    lock.lock();
  }
}

Status GnmiTarget::Impl::start() {
  std::lock_guard<std::mutex> lock(server_mu_);
  if (server_) return Status::ok();
  std::shared_ptr<grpc::ServerCredentials> creds;
  if (options_.tls == GnmiTls::kNone) {
    creds = grpc::InsecureServerCredentials();
  } else {
    if (tls_files_.dir.empty()) {
      Status st = generateGnmiTlsFiles(&tls_files_, options_.ca.cert.empty() ? nullptr : &options_.ca);
      if (!st.isOk()) return st;
    }
    grpc::SslServerCredentialsOptions ssl(
        options_.tls == GnmiTls::kMutualTls
            ? GRPC_SSL_REQUEST_AND_REQUIRE_CLIENT_CERTIFICATE_AND_VERIFY
            : GRPC_SSL_DONT_REQUEST_CLIENT_CERTIFICATE);
    ssl.pem_root_certs = readTextFile(tls_files_.ca_cert);
    ssl.pem_key_cert_pairs.push_back(
        {readTextFile(tls_files_.server_key), readTextFile(tls_files_.server_cert)});
    creds = grpc::SslServerCredentials(ssl);
  }
  service_ = std::make_unique<GnmiService>(this);
  grpc::ServerBuilder builder;
  int selected = 0;
  builder.AddListeningPort("127.0.0.1:" + std::to_string(port_.load()), creds, &selected);
  // Two targets must never share a port by accident.
  builder.AddChannelArgument(GRPC_ARG_ALLOW_REUSEPORT, 0);
  // NX-OS answers HTTP/2 pings more frequent than 60 s with too_many_pings.
  builder.AddChannelArgument(GRPC_ARG_HTTP2_MIN_RECV_PING_INTERVAL_WITHOUT_DATA_MS, 60000);
  builder.RegisterService(service_.get());
  std::vector<std::unique_ptr<grpc::experimental::ServerInterceptorFactoryInterface>> interceptors;
  interceptors.push_back(makeLedgerInterceptorFactory(&ledger_));
  builder.experimental().SetInterceptorCreators(std::move(interceptors));
  server_ = builder.BuildAndStart();
  if (!server_ || selected == 0) {
    server_.reset();
    service_.reset();
    return Status::unavailable("gNMI target " + name_ + ": cannot listen on 127.0.0.1:" +
                               std::to_string(port_.load()));
  }
  port_ = selected;
  {
    std::lock_guard<std::mutex> reg(reg_mu_);
    stopping_ = false;
  }
  {
    std::lock_guard<std::mutex> s(sched_mu_);
    sched_stop_ = false;
  }
  sched_ = std::thread([this] { schedulerLoop(); });
  return Status::ok();
}

void GnmiTarget::Impl::stop() {
  std::lock_guard<std::mutex> lock(server_mu_);
  if (!server_) return;
  {
    std::lock_guard<std::mutex> reg(reg_mu_);
    stopping_ = true;
  }
  {
    std::lock_guard<std::mutex> s(sched_mu_);
    sched_stop_ = true;
  }
  sched_cv_.notify_all();
  sched_.join();
  finishHeldAnswers(true);
  const grpc::Status going(grpc::StatusCode::UNAVAILABLE, "gNMI target shutting down");
  forEachSession([&going](SubscribeSession& s) { s.requestFinish(going); });
  server_->Shutdown(std::chrono::system_clock::now() + options_.shutdown_grace);
  server_->Wait();
  {
    // Shutdown returns once every call is done; OnDone may still be running.
    std::unique_lock<std::mutex> reg(reg_mu_);
    reg_cv_.wait_for(reg, std::chrono::seconds(5), [this] { return sessions_.empty(); });
  }
  server_.reset();
  service_.reset();
}

// ---------------------------------------------------------------- GnmiTarget

GnmiTarget::GnmiTarget(std::string switch_name, GnmiTargetOptions options)
    : impl_(std::make_unique<Impl>(std::move(switch_name), std::move(options))) {}

GnmiTarget::~GnmiTarget() {
  stop();
  if (!impl_->tls_files_.dir.empty()) {
    std::error_code ec;
    std::filesystem::remove_all(impl_->tls_files_.dir, ec);
  }
}

Status GnmiTarget::start() { return impl_->start(); }
void GnmiTarget::stop() { impl_->stop(); }

bool GnmiTarget::running() const {
  std::lock_guard<std::mutex> lock(impl_->server_mu_);
  return impl_->server_ != nullptr;
}

int GnmiTarget::port() const { return impl_->port_.load(); }
std::string GnmiTarget::address() const { return "127.0.0.1:" + std::to_string(port()); }
const std::string& GnmiTarget::switchName() const { return impl_->name_; }
const GnmiTlsFiles& GnmiTarget::tlsFiles() const { return impl_->tls_files_; }

void GnmiTarget::publish(const Switch& sw, TimestampNs ts) {
  const uint64_t version = impl_->version_.fetch_add(1) + 1;
  auto snap = gnmi_tree::build(sw, ts, version,
                               {.include_internal_ports = impl_->options_.include_internal_ports});
  std::lock_guard<std::mutex> lock(impl_->snap_mu_);
  // Concurrent publishers: never replace a newer snapshot with an older one.
  if (impl_->snap_->version < version) impl_->snap_ = std::move(snap);
}

uint64_t GnmiTarget::publishedVersion() const { return impl_->snapshot()->version; }

void GnmiTarget::setQuirks(const GnmiQuirks& quirks) {
  std::lock_guard<std::mutex> lock(impl_->mu_);
  impl_->quirks_ = quirks;
}

void GnmiTarget::setMinSampleInterval(std::chrono::milliseconds min) {
  std::lock_guard<std::mutex> lock(impl_->mu_);
  impl_->min_sample_ = min;
}

void GnmiTarget::setCredentials(std::string username, std::string password) {
  std::lock_guard<std::mutex> lock(impl_->mu_);
  impl_->username_ = std::move(username);
  impl_->password_ = std::move(password);
}

void GnmiTarget::setStall(bool stall) { impl_->stall_ = stall; }
void GnmiTarget::setResetAfterUpdates(uint64_t n) { impl_->reset_after_ = n; }
void GnmiTarget::setSubscribeUnimplemented(bool on) { impl_->subscribe_unimplemented_ = on; }
void GnmiTarget::setCapabilitiesUnimplemented(bool on) { impl_->capabilities_unimplemented_ = on; }

void GnmiTarget::setStartingFor(std::chrono::milliseconds d) {
  impl_->starting_until_ns_ =
      (Impl::Clock::now() + std::chrono::duration_cast<Impl::Clock::duration>(d)).time_since_epoch().count();
  impl_->starting_owes_refusal_ = d.count() > 0;
}

ConnectionCounts GnmiTarget::connectionCounts() const { return impl_->ledger_.counts(); }

void GnmiTarget::resetStreams(int grpc_code) {
  const grpc::Status st(static_cast<grpc::StatusCode>(grpc_code), "stream reset by the target");
  impl_->forEachSession([&st](SubscribeSession& s) { s.requestFinish(st); });
}

int GnmiTarget::openStreams() const {
  std::lock_guard<std::mutex> lock(impl_->reg_mu_);
  return int(impl_->sessions_.size());
}

uint64_t GnmiTarget::subscribeCalls() const { return impl_->subscribe_calls_.load(); }
uint64_t GnmiTarget::coalescedSamples() const { return impl_->coalesced_.load(); }
uint64_t GnmiTarget::notificationsSent() const { return impl_->notifications_sent_.load(); }
uint64_t GnmiTarget::updatesSent() const { return impl_->updates_sent_.load(); }

}  // namespace rdmagw::sim
