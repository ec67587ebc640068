#pragma once
// gRPC channels from this member's gNMI server to the other members' gNMI
// servers, one per address, kept while the server runs (a member that
// restarts on the same address is reconnected by gRPC itself).
//
// Security follows this server's own: plain text when it listens in plain
// text; TLS otherwise, trusting tls.client_ca (the fleet's CA, also
// presenting this member's certificate for mutual TLS) or, without it, the
// system's roots. The client's username/password go along with each
// forwarded call, so every member checks them against its own users.
//
// Every call on these channels carries this member's identity
// (member_identity.h): its name and, when the fleet has one, the shared
// member secret; with mutual TLS the certificate it presents is tls.cert.

#include <grpcpp/grpcpp.h>

#include <map>
#include <memory>
#include <mutex>
#include <string>

#include "models/status.h"
#include "northbound/gnmi/gnmi_server_config.h"

namespace rdmagw::northbound::gnmi {

class MemberChannels {
 public:
  explicit MemberChannels(const GnmiServerConfig& config) : config_(config) {}

  // The channel to `address`; an error when the TLS files cannot be read.
  Result<std::shared_ptr<grpc::Channel>> channel(const std::string& address);

 private:
  const GnmiServerConfig config_;
  std::mutex mu_;
  std::map<std::string, std::shared_ptr<grpc::Channel>> channels_;  // guarded by mu_
};

}  // namespace rdmagw::northbound::gnmi
