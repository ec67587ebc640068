#include "southbound/gnmi/gnmi_channel.h"

#include <grpcpp/security/credentials.h>
#include <grpcpp/security/tls_certificate_provider.h>
#include <grpcpp/security/tls_certificate_verifier.h>
#include <grpcpp/security/tls_credentials_options.h>

#include <fstream>
#include <sstream>

namespace rdmagw::southbound::gnmi {
namespace {

Status readPem(const std::string& field, const std::string& file, std::string* out) {
  std::ifstream in(file, std::ios::binary);
  if (!in) return Status::ioError(field + ": cannot read " + file);
  std::ostringstream ss;
  ss << in.rdbuf();
  *out = ss.str();
  if (out->empty()) return Status::ioError(field + ": " + file + " is empty");
  return Status::ok();
}

Result<std::shared_ptr<grpc::ChannelCredentials>> credentials(const GnmiConfig& c) {
  if (c.plaintext) return grpc::InsecureChannelCredentials();
  std::string ca, cert, key;
  if (!c.ca_file.empty()) {
    if (Status s = readPem("ca_file", c.ca_file, &ca); !s.isOk()) return s;
  }
  if (!c.cert_file.empty()) {
    if (Status s = readPem("cert_file", c.cert_file, &cert); !s.isOk()) return s;
    if (Status s = readPem("key_file", c.key_file, &key); !s.isOk()) return s;
  }
  if (!c.insecure_skip_verify) {
    grpc::SslCredentialsOptions opts;
    opts.pem_root_certs = ca;  // empty: gRPC's default roots
    opts.pem_cert_chain = cert;
    opts.pem_private_key = key;
    return grpc::SslCredentials(opts);
  }
  // Explicitly asked for: encrypt, but accept any server certificate.
  grpc::experimental::TlsChannelCredentialsOptions opts;
  opts.set_verify_server_certs(false);
  opts.set_check_call_host(false);
  opts.set_certificate_verifier(std::make_shared<grpc::experimental::NoOpCertificateVerifier>());
  if (!cert.empty()) {
    std::vector<grpc::experimental::IdentityKeyCertPair> pairs{{key, cert}};
    opts.set_certificate_provider(
        std::make_shared<grpc::experimental::StaticDataCertificateProvider>(pairs));
    opts.watch_identity_key_cert_pairs();
  }
  auto creds = grpc::experimental::TlsCredentials(opts);
  if (creds == nullptr) return Status::internal("cannot build TLS credentials (insecure_skip_verify)");
  return creds;
}

}  // namespace

Result<std::shared_ptr<grpc::Channel>> makeChannel(const GnmiConfig& config) {
  Result<std::shared_ptr<grpc::ChannelCredentials>> creds = credentials(config);
  if (!creds.isOk()) return creds.status();
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
  return grpc::CreateCustomChannel(config.address, *creds, args);
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
