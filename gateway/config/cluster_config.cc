#include "gateway/config/cluster_config.h"

#include <unistd.h>

#include <cctype>
#include <sstream>

#include "northbound/gnmi/member_identity.h"

namespace rdmagw::gateway {

namespace {

std::string hostName() {
  char buf[256] = {};
  if (::gethostname(buf, sizeof(buf) - 1) != 0) return "";
  return buf;
}

// etcd keys and Prometheus label values carry the names: keep them plain.
bool plainName(const std::string& s) {
  if (s.empty() || s.size() > 128) return false;
  for (char c : s) {
    if (!(std::isalnum(static_cast<unsigned char>(c)) || c == '-' || c == '_' || c == '.')) return false;
  }
  return true;
}

}  // namespace

void readCluster(YamlReader& r, const YAML::Node& n, ClusterSettings* out) {
  const std::string at = "cluster";
  r.checkKeys(
      n, at,
      {"endpoints", "name", "member", "lease_ttl", "tls", "user", "password_file", "member_secret_file", "advertise"});
  if (!n.IsMap()) return;
  out->enabled = true;
  cluster::MembershipConfig& m = out->membership;
  m.endpoints = r.stringList(n, at, "endpoints");
  if (m.endpoints.empty()) r.error(n, at + ".endpoints", "at least one etcd endpoint is needed (host:port or a URL)");
  m.cluster = r.string(n, at, "name").value_or("rdmagw");
  if (!plainName(m.cluster)) r.error(n["name"] ? n["name"] : n, at + ".name", "letters, digits, '-', '_' and '.' only");
  m.member = r.string(n, at, "member").value_or(hostName());
  if (!plainName(m.member)) {
    r.error(n["member"] ? n["member"] : n, at + ".member",
            "\"" + m.member + "\": letters, digits, '-', '_' and '.' only (the default is the host name)");
  }
  if (auto ttl = r.duration(n, at, "lease_ttl")) {
    if (*ttl < std::chrono::seconds(2) || *ttl > std::chrono::hours(1) || ttl->count() % 1000 != 0) {
      r.error(n["lease_ttl"], at + ".lease_ttl", "whole seconds from 2s to 1h (etcd leases count in seconds)");
    } else {
      m.lease_ttl = std::chrono::duration_cast<std::chrono::seconds>(*ttl);
    }
  }
  if (YAML::Node tls = n["tls"]) {
    r.checkKeys(tls, at + ".tls", {"ca_file", "cert_file", "key_file"});
    m.tls.enabled = true;
    m.tls.ca_file = r.string(tls, at + ".tls", "ca_file").value_or("");
    m.tls.cert_file = r.string(tls, at + ".tls", "cert_file").value_or("");
    m.tls.key_file = r.string(tls, at + ".tls", "key_file").value_or("");
    if (m.tls.cert_file.empty() != m.tls.key_file.empty()) {
      r.error(tls, at + ".tls", "cert_file and key_file go together");
    }
  }
  m.user = r.string(n, at, "user").value_or("");
  m.password_file = r.string(n, at, "password_file").value_or("");
  if (m.user.empty() != m.password_file.empty()) r.error(n, at, "user and password_file go together");
  // Read now, so `rdmagw check-config` says a missing or short secret
  // (the server reads it again when it starts, and each member channel at
  // its dial: a rotated file is picked up).
  out->member_secret_file = r.string(n, at, "member_secret_file").value_or("");
  if (!out->member_secret_file.empty()) {
    Result<std::string> secret = northbound::gnmi::readMemberSecret(out->member_secret_file);
    if (!secret.isOk()) r.error(n["member_secret_file"], at + ".member_secret_file", secret.status().message());
  }
  if (YAML::Node adv = n["advertise"]) {
    r.checkKeys(adv, at + ".advertise", {"prometheus", "gnmi", "snmp"});
    for (const char* key : {"prometheus", "gnmi", "snmp"}) {
      if (auto v = r.string(adv, at + ".advertise", key)) m.addresses[key] = *v;
    }
  }
}

std::string advertisedAddress(const std::string& listen, const std::string& host_name) {
  const size_t colon = listen.rfind(':');
  if (colon == std::string::npos) return listen;
  const std::string host = listen.substr(0, colon);
  if (host.empty() || host == "0.0.0.0" || host == "[::]" || host == "::") {
    return (host_name.empty() ? hostName() : host_name) + listen.substr(colon);
  }
  return listen;
}

std::string explainCluster(const ClusterSettings& c) {
  std::ostringstream s;
  if (!c.enabled) return "cluster: off (one gateway collects every target)\n";
  const cluster::MembershipConfig& m = c.membership;
  s << "cluster: fleet \"" << m.cluster << "\", this member \"" << m.member << "\", lease TTL " << m.lease_ttl.count()
    << " s\n  etcd:";
  for (const std::string& e : m.endpoints) s << " " << e;
  s << (m.tls.enabled ? " (TLS)" : "") << (m.user.empty() ? "" : " as user " + m.user) << "\n";
  for (const auto& [k, v] : m.addresses) s << "  advertises " << k << " at " << v << "\n";
  s << "  member identity: "
    << (c.member_secret_file.empty() ? "no member secret (members prove themselves by mutual TLS only, if at all)"
                                     : "member secret from " + c.member_secret_file)
    << "\n";
  return s.str();
}

}  // namespace rdmagw::gateway
