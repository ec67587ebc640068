#pragma once
// Where the SNMP northbound sends its notifications (notification_table.h):
// the `northbound.snmp.notifications` list of the gateway config. Secrets
// (community, v3 passphrases) are referenced, never written inline: the
// config names an environment variable or a file, read when the session to
// the destination is opened, and no log line or error text carries them.

#include <chrono>
#include <cstdint>
#include <functional>
#include <string>
#include <string_view>

#include "models/status.h"

namespace rdmagw::northbound::snmp {

// An environment variable or a file holding a secret (one of them).
struct SecretRef {
  std::string env;
  std::string file;
  bool empty() const { return env.empty() && file.empty(); }
};

// Reads a secret; `field` names the config key for error texts. The
// gateway passes southbound/secret_source.h's resolver (the same rules
// as every other secret of the config); the northbound does not link it.
using SecretReader = std::function<Result<std::string>(std::string_view field, const SecretRef& ref)>;

struct SnmpNotifyDestination {
  enum class Version : uint8_t { kV2c, kV3 };
  enum class Type : uint8_t { kTrap, kInform };

  std::string host;     // name or address
  uint16_t port = 162;  // the standard snmptrap port
  Version version = Version::kV2c;
  Type type = Type::kTrap;
  SecretRef community;  // v2c
  // v3 (USM): authNoPriv without priv, authPriv with it.
  std::string user;
  std::string auth_protocol = "SHA";  // SHA (HMAC-SHA-96) or SHA-256 (HMAC-SHA-256-192)
  SecretRef auth_passphrase;
  std::string priv_protocol;  // "" (none) or AES (AES-128-CFB)
  SecretRef priv_passphrase;
  // Informs: resends after `timeout` each, then the notification counts as failed.
  int retries = 3;
  std::chrono::milliseconds timeout{5000};

  // "host:port": the destination in logs and the self-metrics' label.
  std::string label() const;
  const char* typeName() const { return type == Type::kTrap ? "trap" : "inform"; }
  const char* versionName() const { return version == Version::kV2c ? "2c" : "3"; }
  // Every problem at once, "; " separated, each prefixed with its key.
  Status validate() const;
};

// "host", "host:port", "[v6addr]:port" into host and port (default 162).
Status parseNotifyAddress(std::string_view text, std::string* host, uint16_t* port);

}  // namespace rdmagw::northbound::snmp
