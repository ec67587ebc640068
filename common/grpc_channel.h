#pragma once
// The one way this project opens a gRPC client channel (gNMI to a switch or
// to a fleet member, etcd) and reads the PEM files of a TLS connection,
// client or server. Each caller keeps its own channel arguments (keepalive,
// message size, reconnect timing): those are what differs between peers.
//
// Certificates are given as PEM text, read by the caller when it chooses:
// at every dial (a rotated certificate is picked up), or once at start.

#include <grpcpp/grpcpp.h>

#include <memory>
#include <string>

#include "common/file_text.h"

namespace rdmagw::common {

// A PEM file's text. Errors, each naming the config field and the file:
// "<field>: cannot read <path>" (error_number set), "<field>: <path> is
// empty", "<field>: <path> holds no PEM block" (error_number 0: the file
// was read, its content is wrong).
FileText readPem(const std::string& field, const std::string& path);

// How a client channel is secured.
struct ChannelTls {
  bool enabled = false;        // false: plain text
  bool verify_server = true;   // false: encrypted, any server certificate accepted
  std::string ca_pem;          // the roots to trust; empty: gRPC's default roots
  std::string cert_pem;        // this client's certificate and key (mutual TLS);
  std::string key_pem;         // empty: none
};

// The credentials `tls` asks for; nullptr when gRPC cannot build them.
std::shared_ptr<grpc::ChannelCredentials> channelCredentials(const ChannelTls& tls);

// A channel to `address` ("host:port"); nullptr when the credentials
// cannot be built. No connection is made until the first call.
std::shared_ptr<grpc::Channel> makeChannel(const std::string& address, const ChannelTls& tls,
                                           const grpc::ChannelArguments& args);

}  // namespace rdmagw::common
