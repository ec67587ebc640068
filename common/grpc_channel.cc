#include "common/grpc_channel.h"

#include <grpcpp/security/credentials.h>
#include <grpcpp/security/tls_certificate_provider.h>
#include <grpcpp/security/tls_certificate_verifier.h>
#include <grpcpp/security/tls_credentials_options.h>

#include <vector>

namespace rdmagw::common {

FileText readPem(const std::string& field, const std::string& path) {
  FileText f = readFileText(path);
  if (!f.ok()) {
    // The path only: the reason is in error_number, and the message is
    // the one operators already grep their logs for.
    f.error = field + ": cannot read " + path;
    return f;
  }
  if (f.text.empty()) {
    f.error = field + ": " + path + " is empty";
  } else if (f.text.find("-----BEGIN") == std::string::npos) {
    f.error = field + ": " + path + " holds no PEM block";
  }
  if (!f.ok()) f.text.clear();
  return f;
}

std::shared_ptr<grpc::ChannelCredentials> channelCredentials(const ChannelTls& tls) {
  if (!tls.enabled) return grpc::InsecureChannelCredentials();
  if (tls.verify_server) {
    grpc::SslCredentialsOptions opts;
    opts.pem_root_certs = tls.ca_pem;
    opts.pem_cert_chain = tls.cert_pem;
    opts.pem_private_key = tls.key_pem;
    return grpc::SslCredentials(opts);
  }
  // Explicitly asked for: encrypt, but accept any server certificate.
  grpc::experimental::TlsChannelCredentialsOptions opts;
  opts.set_verify_server_certs(false);
  opts.set_check_call_host(false);
  opts.set_certificate_verifier(std::make_shared<grpc::experimental::NoOpCertificateVerifier>());
  if (!tls.cert_pem.empty()) {
    std::vector<grpc::experimental::IdentityKeyCertPair> pairs{{tls.key_pem, tls.cert_pem}};
    opts.set_certificate_provider(std::make_shared<grpc::experimental::StaticDataCertificateProvider>(pairs));
    opts.watch_identity_key_cert_pairs();
  }
  return grpc::experimental::TlsCredentials(opts);
}

std::shared_ptr<grpc::Channel> makeChannel(const std::string& address, const ChannelTls& tls,
                                           const grpc::ChannelArguments& args) {
  std::shared_ptr<grpc::ChannelCredentials> creds = channelCredentials(tls);
  if (creds == nullptr) return nullptr;
  return grpc::CreateCustomChannel(address, creds, args);
}

}  // namespace rdmagw::common
