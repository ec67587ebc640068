#include "northbound/gnmi/member_channels.h"

#include <tuple>

#include "common/grpc_channel.h"

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
  std::shared_ptr<grpc::Channel> ch = common::makeChannel(address, *tls, args);
  if (ch == nullptr) return Status::internal("cannot build the TLS credentials for " + address);
  channels_.emplace(address, ch);
  return ch;
}

}  // namespace rdmagw::northbound::gnmi
