#pragma once
// A minimal in-test NX-OS-like gNMI server (sync gRPC API: a thread per
// stream is fine in a test). Serves one rising counter per interface,
// /interfaces/interface[name=ethN]/state/counters/in-octets, every `tick`,
// plus knobs for the faults the client must survive. The simulator's
// sim/gnmi GnmiTarget covers the full NX-OS tree; this one keeps the unit
// tests independent of it and lets a test script exact responses.

#include <grpcpp/grpcpp.h>

#include <atomic>
#include <chrono>
#include <deque>
#include <memory>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include "gnmi.grpc.pb.h"
#include "sim/gnmi/nxos_tree.h"

namespace rdmagw::testing {

// /interfaces/interface[name=eth1/<intf>]/state/counters[/<leaf>] as NX-OS
// sends it (short interface names, origin echoed when asked).
inline ::gnmi::Path nxosCounterPath(int intf, const std::string& leaf, bool origin = true) {
  return sim::gnmi_tree::counterPath(intf, leaf, origin);
}

struct FakeTargetOptions {
  std::vector<::gnmi::Encoding> encodings{::gnmi::JSON, ::gnmi::PROTO};
  bool echo_origin = true;
  bool keepalives = true;    // an empty SubscribeResponse after every sample
  bool never_sync = false;
  bool json_blob = false;    // counters as one json_val object at .../state/counters
  int interfaces = 2;
  std::chrono::milliseconds tick{20};
  std::string username, password;  // non-empty: required metadata
  // TLS: PEM contents; empty server_cert = plaintext.
  std::string server_cert, server_key, client_ca;  // client_ca: require a client cert
};

class FakeTarget final : public ::gnmi::gNMI::Service {
 public:
  explicit FakeTarget(FakeTargetOptions o = {}) : o_(std::move(o)) {}
  ~FakeTarget() override { stop(); }

  // port 0: pick a free one; the same port can be reused after stop().
  bool start(int port = 0) {
    grpc::ServerBuilder b;
    std::shared_ptr<grpc::ServerCredentials> creds = grpc::InsecureServerCredentials();
    if (!o_.server_cert.empty()) {
      grpc::SslServerCredentialsOptions so(o_.client_ca.empty()
                                               ? GRPC_SSL_DONT_REQUEST_CLIENT_CERTIFICATE
                                               : GRPC_SSL_REQUEST_AND_REQUIRE_CLIENT_CERTIFICATE_AND_VERIFY);
      so.pem_root_certs = o_.client_ca;
      so.pem_key_cert_pairs.push_back({o_.server_key, o_.server_cert});
      creds = grpc::SslServerCredentials(so);
    }
    b.AddListeningPort("127.0.0.1:" + std::to_string(port), creds, &port_);
    b.RegisterService(this);
    stopping_ = false;
    server_ = b.BuildAndStart();
    return server_ != nullptr && port_ > 0;
  }
  void stop() {
    stopping_ = true;
    if (server_) {
      server_->Shutdown(std::chrono::system_clock::now() + std::chrono::milliseconds(200));
      server_.reset();
    }
  }
  std::string address() const { return "127.0.0.1:" + std::to_string(port_); }
  int port() const { return port_; }

  // Knobs, effective at once.
  std::atomic<int> caps_code{0};       // non-zero: Capabilities answers this grpc code
  std::atomic<int> subscribe_code{0};  // non-zero: Subscribe answers this grpc code
  std::atomic<uint64_t> reset_after{0};  // end each stream UNAVAILABLE after n samples
  std::atomic<bool> stall{false};        // send nothing at all
  std::atomic<uint64_t> counter{1000};   // the device counter; +10 per sample, across streams
  // Observations.
  std::atomic<int> capabilities_calls{0};
  std::atomic<int> subscribe_calls{0};
  std::atomic<int> open_streams{0};

  void inject(::gnmi::SubscribeResponse r) {
    std::lock_guard l(mu_);
    injected_.push_back(std::move(r));
  }
  ::gnmi::SubscribeRequest lastRequest() const {
    std::lock_guard l(mu_);
    return last_request_;
  }
  // A path the fake serves (with origin when echoing).
  ::gnmi::Path counterPath(int intf, const std::string& leaf) const {
    return nxosCounterPath(intf, leaf, o_.echo_origin);
  }

  grpc::Status Capabilities(grpc::ServerContext* ctx, const ::gnmi::CapabilityRequest*,
                            ::gnmi::CapabilityResponse* resp) override {
    ++capabilities_calls;
    if (grpc::Status s = auth(ctx); !s.ok()) return s;
    if (int c = caps_code.load()) return grpc::Status(grpc::StatusCode(c), "injected");
    for (auto e : o_.encodings) resp->add_supported_encodings(e);
    resp->set_gnmi_version("0.5.0");
    return grpc::Status::OK;
  }

  grpc::Status Subscribe(grpc::ServerContext* ctx,
                         grpc::ServerReaderWriter<::gnmi::SubscribeResponse, ::gnmi::SubscribeRequest>* stream) override {
    if (grpc::Status s = auth(ctx); !s.ok()) return s;
    if (int c = subscribe_code.load()) return grpc::Status(grpc::StatusCode(c), "injected");
    ::gnmi::SubscribeRequest req;
    if (!stream->Read(&req)) return grpc::Status(grpc::StatusCode::INVALID_ARGUMENT, "no request");
    if (req.subscribe().has_prefix() && req.subscribe().prefix().elem_size() > 0) {
      return grpc::Status(grpc::StatusCode::INVALID_ARGUMENT, "prefix not supported");  // NX-OS
    }
    {
      std::lock_guard l(mu_);
      last_request_ = req;
    }
    ++subscribe_calls;
    ++open_streams;
    struct Guard { std::atomic<int>& n; ~Guard() { --n; } } guard{open_streams};
    const ::gnmi::Encoding enc = req.subscribe().encoding();
    bool synced = false;
    uint64_t samples = 0;
    while (!ctx->IsCancelled() && !stopping_) {
      if (stall) {
        std::this_thread::sleep_for(o_.tick);
        continue;
      }
      const uint64_t value = counter.fetch_add(10) + 10;
      ::gnmi::SubscribeResponse r;
      ::gnmi::Notification* n = r.mutable_update();
      n->set_timestamp(std::chrono::duration_cast<std::chrono::nanoseconds>(
                           std::chrono::system_clock::now().time_since_epoch()).count());
      for (int i = 1; i <= o_.interfaces; ++i) {
        ::gnmi::Update* u = n->add_update();
        if (o_.json_blob) {
          *u->mutable_path() = counterPath(i, "");
          u->mutable_val()->set_json_val("{\"in-octets\":" + std::to_string(value) +
                                         ",\"out-octets\":" + std::to_string(2 * value) + "}");
        } else {
          *u->mutable_path() = counterPath(i, "in-octets");
          if (enc == ::gnmi::PROTO) {
            u->mutable_val()->set_uint_val(value);
          } else {
            u->mutable_val()->set_json_val(std::to_string(value));
          }
        }
      }
      if (!stream->Write(r)) break;
      ++samples;
      if (!synced && !o_.never_sync) {
        ::gnmi::SubscribeResponse s;
        s.set_sync_response(true);
        stream->Write(s);
        synced = true;
      }
      std::deque<::gnmi::SubscribeResponse> extra;
      {
        std::lock_guard l(mu_);
        extra.swap(injected_);
      }
      for (auto& e : extra) stream->Write(e);
      if (o_.keepalives) {
        ::gnmi::SubscribeResponse k;
        k.mutable_update();  // an empty notification, as NX-OS sends
        stream->Write(k);
        stream->Write(::gnmi::SubscribeResponse());  // and one with nothing set at all
      }
      if (reset_after && samples >= reset_after) {
        return grpc::Status(grpc::StatusCode::UNAVAILABLE, "injected reset");
      }
      std::this_thread::sleep_for(o_.tick);
    }
    return grpc::Status(grpc::StatusCode::CANCELLED, "over");
  }

 private:
  grpc::Status auth(grpc::ServerContext* ctx) const {
    if (o_.username.empty()) return grpc::Status::OK;
    const auto& md = ctx->client_metadata();
    auto u = md.find("username");
    auto p = md.find("password");
    if (u == md.end() || p == md.end() || std::string(u->second.data(), u->second.size()) != o_.username ||
        std::string(p->second.data(), p->second.size()) != o_.password) {
      return grpc::Status(grpc::StatusCode::UNAUTHENTICATED, "bad credentials");
    }
    return grpc::Status::OK;
  }

  FakeTargetOptions o_;
  std::unique_ptr<grpc::Server> server_;
  int port_ = 0;
  std::atomic<bool> stopping_{false};
  mutable std::mutex mu_;
  ::gnmi::SubscribeRequest last_request_;            // guarded by mu_
  std::deque<::gnmi::SubscribeResponse> injected_;   // guarded by mu_
};

}  // namespace rdmagw::testing
