#include "northbound/gnmi/member_channels.h"

#include <grpcpp/support/client_interceptor.h>

#include <tuple>

#include "common/grpc_channel.h"
#include "northbound/gnmi/member_identity.h"

namespace rdmagw::northbound::gnmi {
namespace {

// This server's TLS, as a client: trust tls.client_ca and present this
// member's certificate; without a client CA, the system's roots.
Result<common::ChannelTls> channelTls(const GnmiServerConfig& c) {
  common::ChannelTls tls;
  if (c.insecure) return tls;
  tls.enabled = true;
  if (!c.tls_client_ca.empty()) {
    for (auto [field, path, out] : {std::tuple{"tls.client_ca", &c.tls_client_ca, &tls.ca_pem},
                                    std::tuple{"tls.cert", &c.tls_cert, &tls.cert_pem},
                                    std::tuple{"tls.key", &c.tls_key, &tls.key_pem}}) {
      common::FileText pem = common::readPem(field, *path);
      if (!pem.ok()) return Status::ioError(pem.error);
      *out = std::move(pem.text);
    }
  }
  return tls;
}

// Adds this member's identity to every call on the channel: forwarded Gets
// and streams and the peer copy all go through here, whoever builds the
// request, so none of them can forget it.
class IdentityInterceptor : public grpc::experimental::Interceptor {
 public:
  explicit IdentityInterceptor(std::shared_ptr<const std::vector<std::pair<std::string, std::string>>> metadata)
      : metadata_(std::move(metadata)) {}
  void Intercept(grpc::experimental::InterceptorBatchMethods* methods) override {
    if (methods->QueryInterceptionHookPoint(grpc::experimental::InterceptionHookPoints::PRE_SEND_INITIAL_METADATA)) {
      std::multimap<std::string, std::string>* md = methods->GetSendInitialMetadata();
      for (const auto& kv : *metadata_) md->emplace(kv.first, kv.second);
    }
    methods->Proceed();
  }

 private:
  std::shared_ptr<const std::vector<std::pair<std::string, std::string>>> metadata_;
};

class IdentityInterceptorFactory : public grpc::experimental::ClientInterceptorFactoryInterface {
 public:
  explicit IdentityInterceptorFactory(std::shared_ptr<const std::vector<std::pair<std::string, std::string>>> md)
      : metadata_(std::move(md)) {}
  grpc::experimental::Interceptor* CreateClientInterceptor(grpc::experimental::ClientRpcInfo*) override {
    return new IdentityInterceptor(metadata_);
  }

 private:
  std::shared_ptr<const std::vector<std::pair<std::string, std::string>>> metadata_;
};

// This member's name, and the fleet's secret when there is one (read at
// each new channel: a rotated file is picked up by the next dial).
Result<std::vector<std::pair<std::string, std::string>>> identityMetadata(const GnmiServerConfig& c) {
  std::vector<std::pair<std::string, std::string>> out;
  if (c.member_name.empty()) return out;
  out.emplace_back(kMemberMetadata, c.member_name);
  if (!c.member_secret_file.empty()) {
    Result<std::string> secret = readMemberSecret(c.member_secret_file, kMemberSecretKey);
    if (!secret.isOk()) return secret.status();
    out.emplace_back(kMemberSecretMetadata, std::move(secret).value());
  }
  return out;
}

}  // namespace

Result<std::shared_ptr<grpc::Channel>> MemberChannels::channel(const std::string& address) {
  std::lock_guard lock(mu_);
  auto it = channels_.find(address);
  if (it != channels_.end()) return it->second;
  Result<common::ChannelTls> tls = channelTls(config_);
  if (!tls.isOk()) return tls.status();
  grpc::ChannelArguments args;
  // A member that vanished without a TCP reset (a partition) is noticed by
  // pings; the servers of this project allow a ping every 5 s.
  args.SetInt(GRPC_ARG_KEEPALIVE_TIME_MS, 10000);
  args.SetInt(GRPC_ARG_KEEPALIVE_TIMEOUT_MS, 10000);
  args.SetInt(GRPC_ARG_KEEPALIVE_PERMIT_WITHOUT_CALLS, 1);
  args.SetInt(GRPC_ARG_HTTP2_MAX_PINGS_WITHOUT_DATA, 0);
  args.SetInt(GRPC_ARG_MAX_RECEIVE_MESSAGE_LENGTH, 64 * 1024 * 1024);
  // Reconnect soon after the member comes back on the same address.
  args.SetInt(GRPC_ARG_MAX_RECONNECT_BACKOFF_MS, 2000);
  Result<std::vector<std::pair<std::string, std::string>>> identity = identityMetadata(config_);
  if (!identity.isOk()) return identity.status();
  std::shared_ptr<grpc::ChannelCredentials> creds = common::channelCredentials(*tls);
  if (creds == nullptr) return Status::internal("cannot build the TLS credentials for " + address);
  std::vector<std::unique_ptr<grpc::experimental::ClientInterceptorFactoryInterface>> interceptors;
  interceptors.push_back(std::make_unique<IdentityInterceptorFactory>(
      std::make_shared<const std::vector<std::pair<std::string, std::string>>>(std::move(identity).value())));
  std::shared_ptr<grpc::Channel> ch =
      grpc::experimental::CreateCustomChannelWithInterceptors(address, creds, args, std::move(interceptors));
  channels_.emplace(address, ch);
  return ch;
}

}  // namespace rdmagw::northbound::gnmi
