#pragma once
// Who may speak for the fleet on a call to this gNMI server: a "member"
// reads every target without a user of users_file (the peer copy of the
// analytics), and only a member is believed when it says it forwards for a
// client (fleet_routes.h: kForwardedByMetadata / kForwardedForMetadata).
//
// A member proves itself in one of two ways, whichever the server can check:
// - mutual TLS (the server has tls.client_ca): the client certificate the
//   handshake verified names the member in its CN or a DNS SAN. The member's
//   own tls.cert is the certificate it presents (member_channels.h).
// - a shared secret (cluster.member_secret_file, the same random text on
//   every member, at least 16 bytes): sent as metadata on each member call
//   and compared in constant time. It is the only way for plain-text
//   members, and works over TLS without client certificates too.
// Either way the call also names the member (kMemberMetadata) and that
// name must be a live member of the fleet (this one too: the peer copy
// subscribes through its own server, which forwards): a certificate or secret
// alone proves only that the caller belongs to the fleet's CA or knows the
// secret. Nothing configured: no call is a member; there is no fallback on
// source addresses (a host name or a shared host would let anyone in).
//
// The secret is never logged and never part of an error text.

#include <grpcpp/grpcpp.h>

#include <chrono>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <utility>
#include <vector>

#include "models/fleet_view.h"
#include "models/status.h"
#include "northbound/gnmi/gnmi_server_config.h"

namespace rdmagw::northbound::gnmi {

// The member a call comes from (its cluster.member name), set by every call
// a member makes to another (forwarding, the peer copy).
inline constexpr const char* kMemberMetadata = "rdmagw-member";
// The shared secret, when the fleet has one.
inline constexpr const char* kMemberSecretMetadata = "rdmagw-member-secret";
// Shorter secrets are refused: the secret is the fleet's whole defence on
// plain text, and `openssl rand -hex 32` costs nothing.
inline constexpr size_t kMinMemberSecretBytes = 16;

// The secret in `path`: its text without the trailing line break. Errors
// name the file (after `key: ` when a key is given), never the content.
Result<std::string> readMemberSecret(const std::string& path, const std::string& key = "");
inline constexpr const char* kMemberSecretKey = "cluster.member_secret_file";

// What a call offers as a member identity.
struct MemberClaim {
  std::string name;                     // kMemberMetadata
  std::string secret;                   // kMemberSecretMetadata
  std::vector<std::string> cert_names;  // CN and DNS SANs of a client certificate the handshake verified
  std::string peer;                     // gRPC's peer text, for the log
};
MemberClaim claimOf(const grpc::ServerContextBase& ctx);

class MemberIdentity {
 public:
  // From the server's config: the secret file is read now (an error when
  // it cannot be); mTLS counts when tls.client_ca is set.
  static Result<std::shared_ptr<MemberIdentity>> load(const GnmiServerConfig& config);
  MemberIdentity(std::string secret, bool mutual_tls) : secret_(std::move(secret)), mutual_tls_(mutual_tls) {}

  bool configured() const { return !secret_.empty() || mutual_tls_; }
  // The member `claim` proves, or "" (no claim, a wrong secret or
  // certificate, a name that is not a live member).
  std::string verify(const MemberClaim& claim, const FleetSnapshot& fleet) const;
  // verify(), and a warning (at most once a minute per claimed name) when
  // a call names a member but does not prove it while an identity is
  // configured.
  std::string check(const MemberClaim& claim, const FleetSnapshot& fleet) const;

 private:
  const std::string secret_;
  const bool mutual_tls_;
  mutable std::mutex mu_;
  mutable std::map<std::string, std::chrono::steady_clock::time_point> warned_;  // guarded by mu_
};

}  // namespace rdmagw::northbound::gnmi
