#include "cluster/etcd_client.h"

#include <grpcpp/grpcpp.h>

#include "common/grpc_channel.h"
#include "etcd_rpc.grpc.pb.h"

namespace rdmagw::cluster {
namespace {

Status readPem(const std::string& what, const std::string& file, std::string* out) {
  common::FileText pem = common::readPem("etcd " + what, file);
  if (!pem.ok()) return Status::ioError(pem.error);
  *out = std::move(pem.text);
  return Status::ok();
}

// The server is missing or frozen: another endpoint may answer.
bool transportFailure(grpc::StatusCode code) {
  return code == grpc::StatusCode::UNAVAILABLE || code == grpc::StatusCode::DEADLINE_EXCEEDED;
}

Status toStatus(const grpc::Status& s, const std::string& address) {
  std::string msg = "etcd " + address + ": " + s.error_message() + " (gRPC code " +
                    std::to_string(static_cast<int>(s.error_code())) + ")";
  if (transportFailure(s.error_code())) return Status::unavailable(msg);
  // etcd answers NOT_FOUND for an unknown lease ("requested lease not found").
  if (s.error_code() == grpc::StatusCode::NOT_FOUND) return Status::notFound(msg);
  if (s.error_code() == grpc::StatusCode::INVALID_ARGUMENT) return Status::invalidArgument(msg);
  return Status::internal(msg);
}

EtcdKeyValue fromProto(const mvccpb::KeyValue& kv) {
  EtcdKeyValue out;
  out.key = kv.key();
  out.value = kv.value();
  out.create_revision = kv.create_revision();
  out.mod_revision = kv.mod_revision();
  out.lease = kv.lease();
  return out;
}

}  // namespace

const char* etcdRequestKindName(EtcdRequestKind kind) {
  switch (kind) {
    case EtcdRequestKind::kGrant: return "lease_grant";
    case EtcdRequestKind::kKeepAlive: return "lease_keepalive";
    case EtcdRequestKind::kRevoke: return "lease_revoke";
    case EtcdRequestKind::kPut: return "put";
    case EtcdRequestKind::kRange: return "range";
    case EtcdRequestKind::kWatch: return "watch";
    case EtcdRequestKind::kAuth: return "authenticate";
    case EtcdRequestKind::kDelete: return "delete";
  }
  return "unknown";
}

std::string EtcdClient::prefixEnd(const std::string& prefix) {
  std::string end = prefix;
  while (!end.empty()) {
    unsigned char last = static_cast<unsigned char>(end.back());
    if (last < 0xff) {
      end.back() = static_cast<char>(last + 1);
      return end;
    }
    end.pop_back();
  }
  return std::string(1, '\0');  // every key >= prefix
}

Result<std::unique_ptr<EtcdClient>> EtcdClient::create(EtcdClientConfig config) {
  std::unique_ptr<EtcdClient> c(new EtcdClient(std::move(config)));
  if (Status s = c->init(); !s.isOk()) return s;
  return c;
}

EtcdClient::EtcdClient(EtcdClientConfig config) : config_(std::move(config)) {}
EtcdClient::~EtcdClient() = default;

Status EtcdClient::init() {
  if (config_.endpoints.empty()) return Status::invalidArgument("etcd: no endpoints");
  if (config_.call_timeout.count() <= 0) return Status::invalidArgument("etcd: call timeout must be positive");
  tls_ = config_.tls.enabled;
  for (const std::string& e : config_.endpoints) {
    std::string a = e;
    if (a.rfind("https://", 0) == 0) {
      tls_ = true;
      a = a.substr(8);
    } else if (a.rfind("http://", 0) == 0) {
      a = a.substr(7);
    }
    while (!a.empty() && a.back() == '/') a.pop_back();
    if (a.empty() || a.find('/') != std::string::npos || a.find(':') == std::string::npos) {
      return Status::invalidArgument("etcd endpoint '" + e + "': expected host:port or http(s)://host:port");
    }
    addresses_.push_back(a);
  }
  if (!config_.tls.ca_file.empty()) {
    if (Status s = readPem("ca_file", config_.tls.ca_file, &ca_pem_); !s.isOk()) return s;
    tls_ = true;
  }
  if (config_.tls.cert_file.empty() != config_.tls.key_file.empty()) {
    return Status::invalidArgument("etcd tls: cert_file and key_file go together");
  }
  if (!config_.tls.cert_file.empty()) {
    if (Status s = readPem("cert_file", config_.tls.cert_file, &cert_pem_); !s.isOk()) return s;
    if (Status s = readPem("key_file", config_.tls.key_file, &key_pem_); !s.isOk()) return s;
    tls_ = true;
  }
  if (config_.user.empty() && !config_.password.empty()) {
    return Status::invalidArgument("etcd: a password without a user");
  }
  channels_.resize(addresses_.size());
  return Status::ok();
}

std::shared_ptr<grpc::Channel> EtcdClient::channel(size_t index) {
  std::lock_guard<std::mutex> lock(mu_);
  if (channels_[index]) return channels_[index];
  common::ChannelTls tls;
  tls.enabled = tls_;
  tls.ca_pem = ca_pem_;
  tls.cert_pem = cert_pem_;
  tls.key_pem = key_pem_;
  grpc::ChannelArguments args;
  // gRPC's own reconnect backoff grows to two minutes; etcd coming back
  // must be seen within about a second, so the lease is renewed in time.
  // (Not GRPC_ARG_MIN_RECONNECT_BACKOFF_MS: gRPC takes it as the connect
  // timeout too, and a 200 ms one never let a busy etcd finish a handshake.)
  args.SetInt(GRPC_ARG_INITIAL_RECONNECT_BACKOFF_MS, 200);
  args.SetInt(GRPC_ARG_MAX_RECONNECT_BACKOFF_MS, 1000);
  // A lost connection asks the resolver again, which by default waits 30 s
  // between lookups: measured, members reconnected ~10 s after a restarted
  // etcd was back, and their leases (TTL + ~1 s after etcd's restart) expired.
  args.SetInt(GRPC_ARG_DNS_MIN_TIME_BETWEEN_RESOLUTIONS_MS, 500);
  // A frozen or cut-off server leaves the watch stream silent forever;
  // HTTP/2 pings close it so the watcher lists again. etcd refuses pings
  // more often than every 5 s (--grpc-keepalive-min-time) and without a call.
  args.SetInt(GRPC_ARG_KEEPALIVE_TIME_MS, 10000);
  args.SetInt(GRPC_ARG_KEEPALIVE_TIMEOUT_MS, 5000);
  args.SetInt(GRPC_ARG_KEEPALIVE_PERMIT_WITHOUT_CALLS, 0);
  // Verified TLS or plain text: gRPC always builds those credentials.
  channels_[index] = common::makeChannel(addresses_[index], tls, args);
  return channels_[index];
}

void EtcdClient::prepare(grpc::ClientContext* ctx, bool unary) const {
  if (unary) ctx->set_deadline(std::chrono::system_clock::now() + config_.call_timeout);
  std::lock_guard<std::mutex> lock(mu_);
  if (!token_.empty()) ctx->AddMetadata("token", token_);
}

Status EtcdClient::authenticate(size_t index) {
  count(EtcdRequestKind::kAuth);
  auto stub = etcdserverpb::Auth::NewStub(channel(index));
  grpc::ClientContext ctx;
  ctx.set_deadline(std::chrono::system_clock::now() + config_.call_timeout);
  etcdserverpb::AuthenticateRequest req;
  req.set_name(config_.user);
  req.set_password(config_.password.reveal());
  etcdserverpb::AuthenticateResponse resp;
  grpc::Status s = stub->Authenticate(&ctx, req, &resp);
  if (!s.ok()) return toStatus(s, addresses_[index]);
  std::lock_guard<std::mutex> lock(mu_);
  token_ = resp.token();
  return Status::ok();
}

template <typename Call>
Status EtcdClient::withFailover(EtcdRequestKind kind, const Call& call) {
  size_t start = 0;
  {
    std::lock_guard<std::mutex> lock(mu_);
    start = current_;
  }
  const size_t n = addresses_.size();
  Status last = Status::unavailable("etcd: no endpoint tried");
  for (size_t i = 0; i < n; ++i) {
    const size_t idx = (start + i) % n;
    bool renewed = false;
    bool next_endpoint = false;
    while (!next_endpoint) {
      bool need_token = false;
      if (!config_.user.empty()) {
        std::lock_guard<std::mutex> lock(mu_);
        need_token = token_.empty();
      }
      if (need_token) {
        last = authenticate(idx);
        if (!last.isOk()) {
          if (last.code() == Status::Code::kUnavailable) break;
          return last;  // wrong user or password: no other endpoint knows better
        }
      }
      count(kind);
      grpc::ClientContext ctx;
      prepare(&ctx, true);
      grpc::Status s = call(channel(idx), &ctx);
      if (s.ok()) {
        std::lock_guard<std::mutex> lock(mu_);
        current_ = idx;
        return Status::ok();
      }
      // Tokens expire, and a simple token is known to one etcd member only.
      if (s.error_code() == grpc::StatusCode::UNAUTHENTICATED && !config_.user.empty() && !renewed) {
        renewed = true;
        std::lock_guard<std::mutex> lock(mu_);
        token_.clear();
        continue;
      }
      last = toStatus(s, addresses_[idx]);
      if (!transportFailure(s.error_code())) return last;
      next_endpoint = true;
    }
  }
  std::lock_guard<std::mutex> lock(mu_);
  current_ = (start + 1) % n;  // the next call starts elsewhere
  return last;
}

Result<EtcdLease> EtcdClient::grantLease(int64_t ttl_seconds) {
  etcdserverpb::LeaseGrantRequest req;
  req.set_ttl(ttl_seconds);
  etcdserverpb::LeaseGrantResponse resp;
  Status s = withFailover(EtcdRequestKind::kGrant, [&](const std::shared_ptr<grpc::Channel>& ch, grpc::ClientContext* ctx) {
    return etcdserverpb::Lease::NewStub(ch)->LeaseGrant(ctx, req, &resp);
  });
  if (!s.isOk()) return s;
  if (!resp.error().empty()) return Status::internal("etcd lease grant: " + resp.error());
  return EtcdLease{resp.id(), resp.ttl()};
}

Result<int64_t> EtcdClient::keepAliveOnce(int64_t lease_id) {
  int64_t ttl = 0;
  Status s = withFailover(EtcdRequestKind::kKeepAlive, [&](const std::shared_ptr<grpc::Channel>& ch, grpc::ClientContext* ctx) {
    // The keep-alive is a stream only: one request, one answer, close.
    auto stub = etcdserverpb::Lease::NewStub(ch);
    auto stream = stub->LeaseKeepAlive(ctx);
    etcdserverpb::LeaseKeepAliveRequest req;
    req.set_id(lease_id);
    etcdserverpb::LeaseKeepAliveResponse resp;
    if (!stream->Write(req) || !stream->Read(&resp)) {
      grpc::Status st = stream->Finish();
      return st.ok() ? grpc::Status(grpc::StatusCode::UNAVAILABLE, "keep-alive stream closed without an answer") : st;
    }
    ttl = resp.ttl();
    stream->WritesDone();
    stream->Finish();  // the answer is in hand; how the stream closes does not matter
    return grpc::Status::OK;
  });
  if (!s.isOk()) return s;
  return ttl;
}

Status EtcdClient::revokeLease(int64_t lease_id) {
  etcdserverpb::LeaseRevokeRequest req;
  req.set_id(lease_id);
  etcdserverpb::LeaseRevokeResponse resp;
  return withFailover(EtcdRequestKind::kRevoke, [&](const std::shared_ptr<grpc::Channel>& ch, grpc::ClientContext* ctx) {
    return etcdserverpb::Lease::NewStub(ch)->LeaseRevoke(ctx, req, &resp);
  });
}

Status EtcdClient::put(const std::string& key, const std::string& value, int64_t lease_id) {
  etcdserverpb::PutRequest req;
  req.set_key(key);
  req.set_value(value);
  req.set_lease(lease_id);
  etcdserverpb::PutResponse resp;
  return withFailover(EtcdRequestKind::kPut, [&](const std::shared_ptr<grpc::Channel>& ch, grpc::ClientContext* ctx) {
    return etcdserverpb::KV::NewStub(ch)->Put(ctx, req, &resp);
  });
}

Status EtcdClient::deleteKey(const std::string& key) {
  etcdserverpb::DeleteRangeRequest req;
  req.set_key(key);
  etcdserverpb::DeleteRangeResponse resp;
  return withFailover(EtcdRequestKind::kDelete, [&](const std::shared_ptr<grpc::Channel>& ch, grpc::ClientContext* ctx) {
    return etcdserverpb::KV::NewStub(ch)->DeleteRange(ctx, req, &resp);
  });
}

Result<EtcdRange> EtcdClient::rangePrefix(const std::string& prefix) {
  etcdserverpb::RangeRequest req;
  req.set_key(prefix);
  req.set_range_end(prefixEnd(prefix));
  etcdserverpb::RangeResponse resp;
  Status s = withFailover(EtcdRequestKind::kRange, [&](const std::shared_ptr<grpc::Channel>& ch, grpc::ClientContext* ctx) {
    return etcdserverpb::KV::NewStub(ch)->Range(ctx, req, &resp);
  });
  if (!s.isOk()) return s;
  EtcdRange out;
  out.revision = resp.header().revision();
  for (const mvccpb::KeyValue& kv : resp.kvs()) out.kvs.push_back(fromProto(kv));
  return out;
}

uint64_t EtcdClient::requests(EtcdRequestKind kind) const { return requests_[static_cast<size_t>(kind)].load(); }

std::string EtcdClient::currentEndpoint() const {
  std::lock_guard<std::mutex> lock(mu_);
  return addresses_[current_];
}

// ---- watch ----

struct EtcdWatch::Impl {
  EtcdClient* client = nullptr;
  size_t endpoint = 0;
  std::unique_ptr<etcdserverpb::Watch::Stub> stub;
  grpc::ClientContext ctx;
  std::unique_ptr<grpc::ClientReaderWriter<etcdserverpb::WatchRequest, etcdserverpb::WatchResponse>> stream;
  bool finished = false;
  Status end;
};

EtcdWatch::EtcdWatch(std::unique_ptr<Impl> impl) : impl_(std::move(impl)) {}

EtcdWatch::~EtcdWatch() {
  if (!impl_->finished) {
    impl_->ctx.TryCancel();
    finish();
  }
}

void EtcdWatch::cancel() { impl_->ctx.TryCancel(); }

bool EtcdWatch::next(EtcdWatchBatch* out) {
  etcdserverpb::WatchResponse resp;
  if (impl_->finished || !impl_->stream->Read(&resp)) return false;
  *out = EtcdWatchBatch{};
  out->revision = resp.header().revision();
  out->canceled = resp.canceled();
  out->compact_revision = resp.compact_revision();
  out->cancel_reason = resp.cancel_reason();
  for (const mvccpb::Event& e : resp.events()) {
    EtcdEvent ev;
    ev.type = e.type() == mvccpb::Event::DELETE ? EtcdEvent::Type::kDelete : EtcdEvent::Type::kPut;
    ev.kv = fromProto(e.kv());
    out->events.push_back(std::move(ev));
  }
  return true;
}

Status EtcdWatch::finish() {
  if (impl_->finished) return impl_->end;
  impl_->finished = true;
  grpc::Status s = impl_->stream->Finish();
  if (s.ok()) {
    impl_->end = Status::unavailable("etcd watch: the server closed the stream");
  } else {
    impl_->end = toStatus(s, impl_->client->addresses_[impl_->endpoint]);
    if (transportFailure(s.error_code())) {
      std::lock_guard<std::mutex> lock(impl_->client->mu_);
      if (impl_->client->current_ == impl_->endpoint) {
        impl_->client->current_ = (impl_->endpoint + 1) % impl_->client->addresses_.size();
      }
    }
  }
  return impl_->end;
}

Result<std::unique_ptr<EtcdWatch>> EtcdClient::watchPrefix(const std::string& prefix, int64_t start_revision) {
  auto impl = std::make_unique<EtcdWatch::Impl>();
  impl->client = this;
  {
    std::lock_guard<std::mutex> lock(mu_);
    impl->endpoint = current_;
  }
  count(EtcdRequestKind::kWatch);
  impl->stub = etcdserverpb::Watch::NewStub(channel(impl->endpoint));
  prepare(&impl->ctx, false);
  // etcd then ends the watch when its member loses the raft leader (a
  // partitioned etcd would otherwise keep a watch open that sees nothing).
  impl->ctx.AddMetadata("hasleader", "true");
  impl->stream = impl->stub->Watch(&impl->ctx);
  etcdserverpb::WatchRequest req;
  etcdserverpb::WatchCreateRequest* create = req.mutable_create_request();
  create->set_key(prefix);
  create->set_range_end(prefixEnd(prefix));
  create->set_start_revision(start_revision);
  std::unique_ptr<EtcdWatch> w(new EtcdWatch(std::move(impl)));
  if (!w->impl_->stream->Write(req)) {
    Status s = w->finish();
    return s;
  }
  return w;
}

}  // namespace rdmagw::cluster
