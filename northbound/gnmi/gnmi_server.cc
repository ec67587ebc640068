#include "northbound/gnmi/gnmi_server.h"

#include <grpcpp/ext/proto_server_reflection_plugin.h>
#include <grpcpp/grpcpp.h>

#include <thread>

#include "common/grpc_channel.h"
#include "models/log.h"
#include "models/self_metrics.h"
#include "northbound/gnmi/gnmi_service.h"
#include "northbound/gnmi/ietf_scalar.h"
#include "northbound/gnmi/member_identity.h"
#include "northbound/gnmi/subscription_hub.h"

namespace rdmagw::northbound::gnmi {
namespace {

Result<std::string> readPem(const std::string& key, const std::string& path) {
  common::FileText pem = common::readPem(key, path);
  if (pem.ok()) return std::move(pem.text);
  // Unreadable is an I/O error; read but no certificate in it, a mistake
  // in the config.
  return pem.error_number != 0 ? Status::ioError(pem.error) : Status::invalidArgument(pem.error);
}

Result<std::shared_ptr<grpc::ServerCredentials>> credentials(const GnmiServerConfig& c) {
  if (c.insecure) return grpc::InsecureServerCredentials();
  Result<std::string> cert = readPem("tls.cert", c.tls_cert);
  if (!cert.isOk()) return cert.status();
  Result<std::string> key = readPem("tls.key", c.tls_key);
  if (!key.isOk()) return key.status();
  grpc::SslServerCredentialsOptions ssl(GRPC_SSL_DONT_REQUEST_CLIENT_CERTIFICATE);
  if (!c.tls_client_ca.empty()) {
    Result<std::string> ca = readPem("tls.client_ca", c.tls_client_ca);
    if (!ca.isOk()) return ca.status();
    ssl.client_certificate_request = GRPC_SSL_REQUEST_AND_REQUIRE_CLIENT_CERTIFICATE_AND_VERIFY;
    ssl.pem_root_certs = *ca;
  }
  ssl.pem_key_cert_pairs.push_back({*key, *cert});
  return grpc::SslServerCredentials(ssl);
}

// The server's counters as GatewayMetric samples (models/schema.yaml, gateway rows gnmi_*).
void reportStats(const gnmi::ServerStats& s, std::vector<SelfMetricSample>* out) {
  out->push_back({"gnmi_subscribers", {"once"}, double(s.subscribers_once.load())});
  out->push_back({"gnmi_subscribers", {"poll"}, double(s.subscribers_poll.load())});
  out->push_back({"gnmi_subscribers", {"stream"}, double(s.subscribers_stream.load())});
  out->push_back({"gnmi_notifications_sent", {}, double(s.notifications_sent.load())});
  out->push_back({"gnmi_updates_sent", {}, double(s.updates_sent.load())});
  out->push_back({"gnmi_updates_coalesced", {}, double(s.updates_coalesced.load())});
  out->push_back({"gnmi_updates_dropped", {}, double(s.updates_dropped.load())});
  s.change_send_lag.appendCumulative("gnmi_change_send_lag", out);
  out->push_back({"gnmi_json_ietf_mismatches", {}, double(gnmi::ietfMismatchCount())});
  out->push_back({"gnmi_forwarded_get_calls", {}, double(s.forwarded_get_calls.load())});
  out->push_back({"gnmi_forwarded_streams_opened", {}, double(s.forwarded_streams_opened.load())});
  out->push_back({"gnmi_forwarded_streams_rerouted", {}, double(s.forwarded_streams_rerouted.load())});
  out->push_back({"gnmi_forwarded_updates_received", {}, double(s.forwarded_updates_received.load())});
  for (const auto& [member, m] : s.forwarding()) {
    out->push_back({"gnmi_forwarded_streams", {member}, double(m->streams.load())});
    out->push_back({"gnmi_forwarded_notifications", {member}, double(m->notifications.load())});
    out->push_back({"gnmi_forwarded_bytes", {member}, double(m->bytes.load())});
  }
  for (int code = 1; code < 17; ++code) {
    if (uint64_t n = s.get_errors[code].load()) {
      out->push_back({"gnmi_errors", {"get", gnmi::kGrpcCodeNames[code]}, double(n)});
    }
    if (uint64_t n = s.subscribe_errors[code].load()) {
      out->push_back({"gnmi_errors", {"subscribe", gnmi::kGrpcCodeNames[code]}, double(n)});
    }
  }
}

}  // namespace

GnmiServer::GnmiServer(Store& store, GnmiServerConfig config, const FleetView* fleet)
    : store_(store), config_(std::move(config)), fleet_(fleet) {}

GnmiServer::~GnmiServer() { stop(); }

Status GnmiServer::start() {
  std::lock_guard lock(mu_);
  if (server_) return Status::ok();
  if (Status st = config_.validate(); !st.isOk()) return st;
  std::shared_ptr<const gnmi::UserAuth> auth;
  if (!config_.users_file.empty() || !config_.users_env.empty()) {
    Result<std::shared_ptr<gnmi::UserAuth>> loaded =
        gnmi::UserAuth::load(config_.users_file, config_.users_env);
    if (!loaded.isOk()) return loaded.status();
    auth = *loaded;
  }
  Result<std::shared_ptr<grpc::ServerCredentials>> creds = credentials(config_);
  if (!creds.isOk()) return creds.status();
  std::shared_ptr<const gnmi::MemberIdentity> identity;
  if (fleet_ != nullptr) {
    Result<std::shared_ptr<gnmi::MemberIdentity>> loaded = gnmi::MemberIdentity::load(config_);
    if (!loaded.isOk()) return loaded.status();
    identity = *loaded;
  }

  gnmi::HubOptions hub_options;
  hub_options.sample.lowest = config_.min_sample_interval;
  hub_options.sample.target_defined = config_.target_defined_interval;
  hub_options.max_subscriptions = config_.max_subscriptions;
  hub_options.max_subscriptions_per_client = config_.max_subscriptions_per_client;
  hub_options.queue_capacity = config_.max_queued_updates;
  std::shared_ptr<gnmi::MemberChannels> channels;
  if (fleet_ != nullptr) channels = std::make_shared<gnmi::MemberChannels>(config_);
  hub_options.fleet = fleet_;
  hub_options.member_channels = channels;
  hub_ = std::make_unique<gnmi::SubscriptionHub>(store_, hub_options, stats_);
  service_ = std::make_unique<gnmi::GnmiService>(store_, *hub_, auth, stats_, fleet_, channels, identity);

  grpc::reflection::InitProtoReflectionServerBuilderPlugin();
  grpc::ServerBuilder builder;
  int selected = 0;
  builder.AddListeningPort(config_.listen, *creds, &selected);
  builder.AddChannelArgument(GRPC_ARG_ALLOW_REUSEPORT, 0);
  // Tolerate clients' keepalive pings (gnmic and Telegraf ping every 10 s
  // or more often): no strikes, pings allowed without calls in flight.
  builder.AddChannelArgument(GRPC_ARG_HTTP2_MIN_RECV_PING_INTERVAL_WITHOUT_DATA_MS, 5000);
  builder.AddChannelArgument(GRPC_ARG_HTTP2_MAX_PING_STRIKES, 0);
  builder.AddChannelArgument(GRPC_ARG_KEEPALIVE_PERMIT_WITHOUT_CALLS, 1);
  // Our own pings find dead subscribers whose TCP session vanished.
  builder.AddChannelArgument(GRPC_ARG_KEEPALIVE_TIME_MS, 60000);
  builder.AddChannelArgument(GRPC_ARG_KEEPALIVE_TIMEOUT_MS, 20000);
  builder.RegisterService(service_.get());
  hub_->start();
  server_ = builder.BuildAndStart();
  if (!server_ || selected == 0) {
    server_.reset();
    hub_->stop(grpc::Status(grpc::StatusCode::UNAVAILABLE, "not started"));
    service_.reset();
    hub_.reset();
    return Status::unavailable("northbound.gnmi: cannot listen on " + config_.listen);
  }
  port_ = selected;
  self_metrics_id_ = SelfMetrics::instance().add(
      [this](std::vector<SelfMetricSample>* out) { reportStats(stats_, out); });
  logLine(LogLevel::kInfo, "gnmi", "listening on " + address() + (config_.insecure ? " (plain text)" : " (TLS)"));
  return Status::ok();
}

void GnmiServer::stop() {
  std::lock_guard lock(mu_);
  if (!server_) return;
  SelfMetrics::instance().remove(self_metrics_id_);
  hub_->stop(grpc::Status(grpc::StatusCode::UNAVAILABLE, "gNMI server shutting down"));
  server_->Shutdown(std::chrono::system_clock::now() + std::chrono::seconds(2));
  server_->Wait();
  // Shutdown returns once calls are done; an OnDone may still be running.
  for (int i = 0; i < 500 && hub_->sessionCount() > 0; ++i) {
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  }
  server_.reset();
  service_.reset();
  hub_.reset();
  port_ = 0;
}

int GnmiServer::port() const {
  std::lock_guard lock(mu_);
  return port_;
}

std::string GnmiServer::address() const {
  std::string host;
  int ignored = 0;
  splitHostPort(config_.listen, &host, &ignored);
  if (host.empty() || host == "0.0.0.0") host = "127.0.0.1";
  if (host.find(':') != std::string::npos) host = "[" + host + "]";
  return host + ":" + std::to_string(port_);
}

size_t GnmiServer::subscriberCount() const {
  std::lock_guard lock(mu_);
  return hub_ ? hub_->sessionCount() : 0;
}

size_t GnmiServer::queuedLeaves() const {
  std::lock_guard lock(mu_);
  return hub_ ? hub_->queuedLeaves() : 0;
}

}  // namespace rdmagw::northbound::gnmi
