#pragma once
// Configuration of one switch read through NX-API (HTTPS POST /ins).
// TLS is verified by default: against ca_file (or the system's CA store),
// or against a pinned public key for a switch's self-signed certificate.
// Skipping verification needs `insecure: true` written by the operator; it
// is logged once, loudly, when the source is built. Secrets are referenced
// (environment variable or file), never inline, and read at login time.

#include <chrono>
#include <cstddef>
#include <string>

#include "models/status.h"
#include "southbound/nxapi/nxapi_envelope.h"

namespace rdmagw::southbound::nxapi {

struct NxapiConfig {
  std::string host;
  int port = 443;
  std::string username;
  std::string password_env;
  std::string password_file;
  Dialect dialect = Dialect::kInsApi;
  std::string ca_file;  // empty: the system's CA store
  // "sha256//<base64>" of the switch certificate's public key (several
  // joined by ';'), or a PEM/DER public key file; checked on top of
  // ca_file when both are set, instead of the CA chain when insecure.
  std::string pinned_public_key;
  bool insecure = false;    // no certificate verification at all
  std::string server_name;  // the name the certificate must carry; empty: host
  std::chrono::milliseconds connect_timeout{5000};
  // One request. The switch cuts a command at 300 s; we give up earlier
  // so one stuck switch does not hold its poll slot for five minutes.
  std::chrono::milliseconds request_timeout{60000};
  // How long the switch honours its nxapi_auth session cookie. Past it the
  // next request logs in with basic auth instead of sending a cookie the
  // switch would refuse (which costs a 401 and a second request).
  std::chrono::milliseconds session_lifetime{600000};
  size_t max_response_bytes = size_t{64} << 20;  // a runaway answer is an error, not OOM
  // With SSH behind NX-API: after NX-API failed and SSH took the switch
  // over, NX-API is tried again after this (then with jittered backoff).
  std::chrono::milliseconds retry_after{60000};

  // Collects every problem, each prefixed with its field name.
  Status validate() const;
  bool operator==(const NxapiConfig&) const = default;  // a config reload keeps equal targets
  // "https://host:port/ins".
  std::string url() const;
  // "host:port", the target's name in every error text.
  std::string endpoint() const;
};

const char* dialectName(Dialect d);  // "ins_api" | "jsonrpc"
Result<Dialect> parseDialect(const std::string& name);

}  // namespace rdmagw::southbound::nxapi
