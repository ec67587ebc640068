#include "northbound/gnmi/member_channels.h"

#include <fstream>
#include <sstream>

namespace rdmagw::northbound::gnmi_server {
namespace {

Result<std::string> readFile(const std::string& key, const std::string& path) {
  std::ifstream in(path);
  if (!in) return Status::ioError(key + ": cannot read " + path);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

Result<std::shared_ptr<grpc::ChannelCredentials>> credentials(const GnmiServerConfig& c) {
  if (c.insecure) return grpc::InsecureChannelCredentials();
  grpc::SslCredentialsOptions ssl;
  if (!c.tls_client_ca.empty()) {
    Result<std::string> ca = readFile("tls.client_ca", c.tls_client_ca);
    if (!ca.isOk()) return ca.status();
    ssl.pem_root_certs = *ca;
    Result<std::string> cert = readFile("tls.cert", c.tls_cert);
    if (!cert.isOk()) return cert.status();
    Result<std::string> key = readFile("tls.key", c.tls_key);
    if (!key.isOk()) return key.status();
    ssl.pem_cert_chain = *cert;
    ssl.pem_private_key = *key;
  }
  return grpc::SslCredentials(ssl);
}

}  // namespace

Result<std::shared_ptr<grpc::Channel>> MemberChannels::channel(const std::string& address) {
  std::lock_guard lock(mu_);
  auto it = channels_.find(address);
  if (it != channels_.end()) return it->second;
  Result<std::shared_ptr<grpc::ChannelCredentials>> creds = credentials(config_);
  if (!creds.isOk()) return creds.status();
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
  std::shared_ptr<grpc::Channel> ch = grpc::CreateCustomChannel(address, *creds, args);
  channels_.emplace(address, ch);
  return ch;
}

}  // namespace rdmagw::northbound::gnmi_server
