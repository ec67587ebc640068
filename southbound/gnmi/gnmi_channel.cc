#include "southbound/gnmi/gnmi_channel.h"

#include "common/grpc_channel.h"

namespace rdmagw::southbound::gnmi {
namespace {

// Read at every dial, so a rotated certificate is picked up.
Result<common::ChannelTls> channelTls(const GnmiConfig& c) {
  common::ChannelTls tls;
  if (c.plaintext) return tls;
  tls.enabled = true;
  tls.verify_server = !c.insecure_skip_verify;
  auto read = [](const std::string& field, const std::string& file, std::string* out) {
    common::FileText pem = common::readPem(field, file);
    *out = std::move(pem.text);
    return pem.ok() ? Status::ok() : Status::ioError(pem.error);
  };
  if (!c.ca_file.empty()) {
    if (Status s = read("ca_file", c.ca_file, &tls.ca_pem); !s.isOk()) return s;
  }
  if (!c.cert_file.empty()) {
    if (Status s = read("cert_file", c.cert_file, &tls.cert_pem); !s.isOk()) return s;
    if (Status s = read("key_file", c.key_file, &tls.key_pem); !s.isOk()) return s;
  }
  return tls;
}

}  // namespace

Result<std::shared_ptr<grpc::Channel>> makeChannel(const GnmiConfig& config) {
  Result<common::ChannelTls> tls = channelTls(config);
  if (!tls.isOk()) return tls.status();
  grpc::ChannelArguments args;
  // A peer's oversized message ends the stream (RESOURCE_EXHAUSTED) instead
  // of being mapped; validate() keeps the value within an int.
  args.SetMaxReceiveMessageSize(static_cast<int>(config.max_message_bytes));
  if (config.keepalive_time.count() > 0) {
    args.SetInt(GRPC_ARG_KEEPALIVE_TIME_MS, static_cast<int>(config.keepalive_time.count()));
    args.SetInt(GRPC_ARG_KEEPALIVE_TIMEOUT_MS, 20000);
  } else {
    args.SetInt(GRPC_ARG_KEEPALIVE_TIME_MS, INT32_MAX);  // off
  }
  // Pings only ride on a busy stream, never alone: NX-OS's server counts
  // idle pings as strikes and answers GOAWAY too_many_pings.
  args.SetInt(GRPC_ARG_KEEPALIVE_PERMIT_WITHOUT_CALLS, 0);
  args.SetInt(GRPC_ARG_HTTP2_MAX_PINGS_WITHOUT_DATA, 0);
  // Our own backoff decides when to redial; a shared subchannel would carry
  // gRPC's reconnect state across our attempts.
  args.SetInt(GRPC_ARG_USE_LOCAL_SUBCHANNEL_POOL, 1);
  // gRPC grows a busy connection's socket reads up to 4 MiB and keeps the
  // buffer: ~1 MB of heap per streaming switch measured (heaptrack, 300k
  // series), the largest consumer after the store at 80 switches. A switch
  // streams a few MB per sample interval; 256 KiB reads keep up with that.
  args.SetInt(GRPC_ARG_TCP_MAX_READ_CHUNK_SIZE, 256 << 10);
  if (!config.server_name_override.empty()) {
    args.SetSslTargetNameOverride(config.server_name_override);
  }
  std::shared_ptr<grpc::Channel> channel = common::makeChannel(config.address, *tls, args);
  if (channel == nullptr) return Status::internal("cannot build TLS credentials (insecure_skip_verify)");
  return channel;
}

FailureClass classify(grpc::StatusCode code) {
  switch (code) {
    case grpc::StatusCode::UNIMPLEMENTED:
    case grpc::StatusCode::INVALID_ARGUMENT:
    case grpc::StatusCode::PERMISSION_DENIED:
    case grpc::StatusCode::UNAUTHENTICATED:
    case grpc::StatusCode::FAILED_PRECONDITION:
      return FailureClass::kFatal;
    default:
      return FailureClass::kRetry;
  }
}

const char* statusCodeName(grpc::StatusCode code) {
  switch (code) {
    case grpc::StatusCode::OK: return "OK";
    case grpc::StatusCode::CANCELLED: return "CANCELLED";
    case grpc::StatusCode::UNKNOWN: return "UNKNOWN";
    case grpc::StatusCode::INVALID_ARGUMENT: return "INVALID_ARGUMENT";
    case grpc::StatusCode::DEADLINE_EXCEEDED: return "DEADLINE_EXCEEDED";
    case grpc::StatusCode::NOT_FOUND: return "NOT_FOUND";
    case grpc::StatusCode::ALREADY_EXISTS: return "ALREADY_EXISTS";
    case grpc::StatusCode::PERMISSION_DENIED: return "PERMISSION_DENIED";
    case grpc::StatusCode::UNAUTHENTICATED: return "UNAUTHENTICATED";
    case grpc::StatusCode::RESOURCE_EXHAUSTED: return "RESOURCE_EXHAUSTED";
    case grpc::StatusCode::FAILED_PRECONDITION: return "FAILED_PRECONDITION";
    case grpc::StatusCode::ABORTED: return "ABORTED";
    case grpc::StatusCode::OUT_OF_RANGE: return "OUT_OF_RANGE";
    case grpc::StatusCode::UNIMPLEMENTED: return "UNIMPLEMENTED";
    case grpc::StatusCode::INTERNAL: return "INTERNAL";
    case grpc::StatusCode::UNAVAILABLE: return "UNAVAILABLE";
    case grpc::StatusCode::DATA_LOSS: return "DATA_LOSS";
    default: return "UNKNOWN";
  }
}

}  // namespace rdmagw::southbound::gnmi
