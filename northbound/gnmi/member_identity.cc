#include "northbound/gnmi/member_identity.h"

#include <openssl/crypto.h>

#include <algorithm>

#include "common/file_text.h"
#include "models/log.h"

namespace rdmagw::northbound::gnmi {
namespace {

bool sameSecret(const std::string& offered, const std::string& secret) {
  return offered.size() == secret.size() && CRYPTO_memcmp(offered.data(), secret.data(), secret.size()) == 0;
}

std::string metadataValue(const grpc::ServerContextBase& ctx, const char* key) {
  const auto& md = ctx.client_metadata();
  auto it = md.find(key);
  return it == md.end() ? std::string() : std::string(it->second.data(), it->second.size());
}

// This member counts: its peer copy subscribes through its own server,
// which forwards to the others.
bool isLiveMember(const FleetSnapshot& fleet, const std::string& name) {
  if (!fleet.enabled || name.empty()) return false;
  if (name == fleet.self) return true;
  return std::any_of(fleet.members.begin(), fleet.members.end(),
                     [&name](const FleetMemberView& m) { return m.name == name; });
}

// The claimed name is the caller's text: printable and short in the log.
std::string printable(const std::string& name) {
  std::string out;
  for (char c : name.substr(0, 64)) out += (c >= 0x20 && c < 0x7f && c != '"') ? c : '?';
  return name.size() > 64 ? out + "..." : out;
}

}  // namespace

Result<std::string> readMemberSecret(const std::string& path, const std::string& key) {
  const std::string at = key.empty() ? "" : key + ": ";
  common::FileText read = common::readFileText(path);
  if (!read.ok()) return Status::ioError(at + "cannot read " + path);
  std::string secret = std::move(read.text);
  while (!secret.empty() && (secret.back() == '\n' || secret.back() == '\r')) secret.pop_back();
  if (secret.size() < kMinMemberSecretBytes) {
    return Status::invalidArgument(at + path + " holds fewer than " + std::to_string(kMinMemberSecretBytes) +
                                   " bytes (make one with: openssl rand -hex 32)");
  }
  if (secret.find_first_of("\r\n") != std::string::npos) {
    return Status::invalidArgument(at + path + " must hold one line");  // metadata values cannot carry it
  }
  return secret;
}

MemberClaim claimOf(const grpc::ServerContextBase& ctx) {
  MemberClaim c;
  c.name = metadataValue(ctx, kMemberMetadata);
  c.secret = metadataValue(ctx, kMemberSecretMetadata);
  c.peer = ctx.peer();
  std::shared_ptr<const grpc::AuthContext> auth = ctx.auth_context();
  // Only a certificate the handshake checked against tls.client_ca counts.
  if (auth != nullptr && auth->IsPeerAuthenticated()) {
    for (const char* property : {"x509_common_name", "x509_subject_alternative_name"}) {
      for (const grpc::string_ref& v : auth->FindPropertyValues(property))
        c.cert_names.emplace_back(v.data(), v.size());
    }
  }
  return c;
}

Result<std::shared_ptr<MemberIdentity>> MemberIdentity::load(const GnmiServerConfig& config) {
  std::string secret;
  if (!config.member_secret_file.empty()) {
    Result<std::string> read = readMemberSecret(config.member_secret_file, kMemberSecretKey);
    if (!read.isOk()) return read.status();
    secret = std::move(read).value();
  }
  return std::make_shared<MemberIdentity>(std::move(secret), !config.insecure && !config.tls_client_ca.empty());
}

std::string MemberIdentity::verify(const MemberClaim& claim, const FleetSnapshot& fleet) const {
  if (!isLiveMember(fleet, claim.name)) return "";
  if (!secret_.empty() && sameSecret(claim.secret, secret_)) return claim.name;
  if (mutual_tls_ &&
      std::find(claim.cert_names.begin(), claim.cert_names.end(), claim.name) != claim.cert_names.end()) {
    return claim.name;
  }
  return "";
}

std::string MemberIdentity::check(const MemberClaim& claim, const FleetSnapshot& fleet) const {
  std::string member = verify(claim, fleet);
  // Without an identity configured every member's call names itself in
  // vain: the start log says so once (gateway/fleet/fleet_warnings.h).
  if (!member.empty() || claim.name.empty() || !configured()) return member;
  const auto now = std::chrono::steady_clock::now();
  {
    std::lock_guard lock(mu_);
    auto it = warned_.find(claim.name);
    if (it != warned_.end() && now - it->second < std::chrono::minutes(1)) return member;
    if (warned_.size() > 1000) warned_.clear();  // names are the caller's text: bound what they cost
    warned_[claim.name] = now;
  }
  std::string why = !isLiveMember(fleet, claim.name)
                        ? "it is not a live member of the fleet"
                        : "its " + std::string(secret_.empty() ? "" : "member secret does not match") +
                              (!secret_.empty() && mutual_tls_ ? " and its " : "") +
                              (mutual_tls_ ? "client certificate does not name it" : "");
  RDMAGW_LOG(kWarn, "gnmi") << "a call from " << claim.peer << " names member \"" << printable(claim.name)
                            << "\" but is not believed (" << why << "): counted as its own client";
  return member;
}

}  // namespace rdmagw::northbound::gnmi
