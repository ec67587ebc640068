#include "southbound/gnmi/gnmi_client.h"

#include <chrono>

#include "models/log.h"
#include "southbound/gnmi/gnmi_channel.h"
#include "southbound/gnmi/mapping/notification_mapper.h"
#include "southbound/gnmi/subscribe_request.h"
#include "southbound/secret_source.h"

namespace rdmagw::southbound::gnmi {
namespace {

std::chrono::system_clock::time_point deadlineIn(std::chrono::milliseconds d) {
  return std::chrono::system_clock::now() + d;
}

}  // namespace

GnmiClient::GnmiClient(std::string target, GnmiConfig config, UpdateQueue& queue,
                       std::function<void()> wake)
    : target_(std::move(target)), config_(std::move(config)), queue_(queue), wake_(std::move(wake)) {}

GnmiClient::~GnmiClient() { close(); }

grpc::Status GnmiClient::addCredentials(grpc::ClientContext& ctx) const {
  if (config_.username.empty()) return grpc::Status::OK;
  Result<common::Secret> password = resolveSecret("password_env", config_.password_env,
                                                    "password_file", config_.password_file);
  if (!password.isOk()) {
    // The text names the variable or file, never the content.
    return grpc::Status(grpc::StatusCode::FAILED_PRECONDITION, password.status().message());
  }
  ctx.AddMetadata("username", config_.username);
  ctx.AddMetadata("password", password->reveal());
  return grpc::Status::OK;
}

grpc::Status GnmiClient::open(HandshakeGate::TicketPtr slot) {
  close();
  {
    std::lock_guard lock(handshake_mu_);
    handshake_ = std::move(slot);
    handshake_pending_.store(handshake_ != nullptr);
  }
  opened_ns_ = nowNs();
  ++counters_.dials;
  Result<std::shared_ptr<grpc::Channel>> channel = makeChannel(config_);
  if (!channel.isOk()) {
    return grpc::Status(grpc::StatusCode::FAILED_PRECONDITION, channel.status().message());
  }
  channel_ = *channel;
  stub_ = ::gnmi::gNMI::NewStub(channel_);

  {
    // The channel connects (TCP + TLS) on this first call.
    grpc::ClientContext ctx;
    ctx.set_deadline(deadlineIn(config_.dial_timeout));
    if (grpc::Status s = addCredentials(ctx); !s.ok()) return s;
    ::gnmi::CapabilityRequest req;
    ::gnmi::CapabilityResponse caps;
    grpc::Status s = stub_->Capabilities(&ctx, req, &caps);
    if (!s.ok()) return s;
    Result<::gnmi::Encoding> enc = chooseEncoding(caps, config_.encoding);
    if (!enc.isOk()) return grpc::Status(grpc::StatusCode::FAILED_PRECONDITION, enc.status().message());
    encoding_ = *enc;
  }

  Result<::gnmi::SubscribeRequest> req = buildSubscribeRequest(config_.effectiveSubscriptions(), encoding_);
  if (!req.isOk()) return grpc::Status(grpc::StatusCode::INVALID_ARGUMENT, req.status().message());
  auto ctx = std::make_unique<grpc::ClientContext>();
  if (grpc::Status s = addCredentials(*ctx); !s.ok()) return s;
  responses_at_open_ = counters_.responses.load();
  last_rx_ns_.store(nowNs());
  // The end of a stream that never answered also ends its handshake.
  reactor_ = std::make_unique<SubscribeReactor>(
      std::move(ctx), [this](::gnmi::SubscribeResponse& r) { onResponse(r); },
      [this] {
        if (handshake_pending_.load()) releaseHandshake();
        wake_();
      });
  reactor_->start(*stub_, std::move(req).value());
  return grpc::Status::OK;
}

bool GnmiClient::streaming() const { return reactor_ != nullptr && !reactor_->done(); }

bool GnmiClient::ended(grpc::Status* status) const {
  return reactor_ != nullptr && reactor_->done(status);
}

void GnmiClient::cancel() {
  if (reactor_ != nullptr) reactor_->cancel();
}

void GnmiClient::close() {
  if (reactor_ != nullptr) {
    reactor_->cancel();
    reactor_->waitDone();
    reactor_.reset();
  }
  stub_.reset();
  channel_.reset();
  releaseHandshake();
}

void GnmiClient::releaseHandshake() {
  HandshakeGate::TicketPtr done;
  {
    std::lock_guard lock(handshake_mu_);
    handshake_pending_.store(false);
    done = std::move(handshake_);
  }
  // Destroyed outside handshake_mu_: the gate then wakes the next target.
}

void GnmiClient::releaseStaleHandshake() {
  if (!handshake_pending_.load()) return;
  if (nowNs() - opened_ns_ < std::chrono::duration_cast<std::chrono::nanoseconds>(config_.dial_timeout).count()) return;
  if (streaming()) {
    RDMAGW_LOG(kDebug, "gnmi") << target_ << ": no first response within dial_timeout; handshake slot freed";
  }
  releaseHandshake();
}

std::string GnmiClient::lastMapError() const {
  std::lock_guard lock(err_mu_);
  return last_map_error_;
}

void GnmiClient::onResponse(::gnmi::SubscribeResponse& response) {
  const TimestampNs rx = nowNs();
  last_rx_ns_.store(rx, std::memory_order_relaxed);
  ++counters_.responses;
  if (handshake_pending_.load(std::memory_order_relaxed)) releaseHandshake();  // the device answered
  switch (response.response_case()) {
    case ::gnmi::SubscribeResponse::kUpdate: {
      const ::gnmi::Notification& n = response.update();
      if (n.update_size() == 0 && n.delete__size() == 0) {
        ++counters_.keepalives;  // NX-OS's empty keepalive notification
        break;
      }
      ++counters_.notifications;
      MappedNotification mapped;
      Status s = mapNotification(n, rx, mapped);
      if (!s.isOk()) mapped.errors.push_back(s.message());
      if (!mapped.errors.empty()) {
        counters_.map_errors += mapped.errors.size();
        std::lock_guard lock(err_mu_);
        last_map_error_ = mapped.errors.front();
      }
      counters_.updates += mapped.updates.size();
      counters_.deletes += mapped.deletes.size();
      queue_.push(mapped.updates, mapped.deletes);
      break;
    }
    case ::gnmi::SubscribeResponse::kSyncResponse:
      ++counters_.sync_responses;  // noted, never waited for (gnmi-gateway #42)
      break;
    case ::gnmi::SubscribeResponse::kError:
      ++counters_.map_errors;
      {
        std::lock_guard lock(err_mu_);
        last_map_error_ = "device sent an error response (deprecated gNMI Error)";
      }
      break;
    default:
      ++counters_.keepalives;  // a response with nothing set
      break;
  }
  wake_();  // data to write, or the first sign of life that ends an SSH fallback
}

}  // namespace rdmagw::southbound::gnmi
