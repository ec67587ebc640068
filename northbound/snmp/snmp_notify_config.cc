#include "northbound/snmp/snmp_notify_config.h"

#include <vector>

namespace rdmagw::northbound::snmp {

std::string SnmpNotifyDestination::label() const {
  const bool v6 = host.find(':') != std::string::npos;
  return (v6 ? "[" + host + "]" : host) + ":" + std::to_string(port);
}

Status parseNotifyAddress(std::string_view text, std::string* host, uint16_t* port) {
  std::string_view h = text;
  std::string_view p;
  if (!text.empty() && text.front() == '[') {
    size_t close = text.find(']');
    if (close == std::string_view::npos) return Status::invalidArgument("'" + std::string(text) + "': unclosed [");
    h = text.substr(1, close - 1);
    std::string_view rest = text.substr(close + 1);
    if (!rest.empty()) {
      if (rest.front() != ':') return Status::invalidArgument("'" + std::string(text) + "': want [address]:port");
      p = rest.substr(1);
    }
  } else if (size_t colon = text.find(':'); colon != std::string_view::npos) {
    if (text.find(':', colon + 1) != std::string_view::npos) {
      return Status::invalidArgument("'" + std::string(text) + "': an IPv6 address wants brackets: [addr]:port");
    }
    h = text.substr(0, colon);
    p = text.substr(colon + 1);
    if (p.empty()) return Status::invalidArgument("'" + std::string(text) + "': the port after ':' is missing");
  }
  if (h.empty()) return Status::invalidArgument("'" + std::string(text) + "': the host is missing");
  *port = 162;
  if (!p.empty()) {
    if (p.size() > 5 || p.find_first_not_of("0123456789") != std::string_view::npos ||
        std::stoul(std::string(p)) == 0 || std::stoul(std::string(p)) > 65535) {
      return Status::invalidArgument("'" + std::string(text) + "': invalid port (1-65535)");
    }
    *port = uint16_t(std::stoul(std::string(p)));
  }
  *host = std::string(h);
  return Status::ok();
}

Status SnmpNotifyDestination::validate() const {
  std::vector<std::string> errors;
  if (host.empty()) errors.push_back("address: is empty");
  if (version == Version::kV2c) {
    if (community.empty()) errors.push_back("community_env / community_file: version 2c needs a community");
    if (!user.empty() || !auth_passphrase.empty() || !priv_passphrase.empty()) {
      errors.push_back("user, auth_*, priv_*: only for version 3");
    }
  } else {
    if (!community.empty()) errors.push_back("community_*: only for version 2c");
    if (user.empty()) errors.push_back("user: version 3 needs a user");
    if (auth_protocol != "SHA" && auth_protocol != "SHA-256") {
      errors.push_back("auth_protocol: must be SHA or SHA-256, not '" + auth_protocol + "'");
    }
    if (auth_passphrase.empty()) {
      errors.push_back("auth_passphrase_env / auth_passphrase_file: version 3 needs an auth passphrase");
    }
    if (!priv_protocol.empty() && priv_protocol != "AES") {
      errors.push_back("priv_protocol: must be AES, not '" + priv_protocol + "'");
    }
    if (!priv_protocol.empty() && priv_passphrase.empty()) {
      errors.push_back("priv_passphrase_env / priv_passphrase_file: priv_protocol needs a passphrase");
    }
    if (priv_protocol.empty() && !priv_passphrase.empty()) {
      errors.push_back("priv_protocol: a priv passphrase needs priv_protocol: AES");
    }
  }
  const std::pair<const char*, const SecretRef*> secrets[] = {
      {"community", &community}, {"auth_passphrase", &auth_passphrase}, {"priv_passphrase", &priv_passphrase}};
  for (const auto& [name, ref] : secrets) {
    if (!ref->env.empty() && !ref->file.empty()) {
      errors.push_back(std::string("give ") + name + "_env or " + name + "_file, not both");
    }
  }
  if (type == Type::kInform) {
    if (retries < 0 || retries > 10) errors.push_back("retries: must be 0..10");
    if (timeout < std::chrono::milliseconds(100) || timeout > std::chrono::seconds(60)) {
      errors.push_back("timeout: must be between 100ms and 60s");
    }
  }
  if (errors.empty()) return Status::ok();
  std::string msg;
  for (const std::string& e : errors) msg += (msg.empty() ? "" : "; ") + e;
  return Status::invalidArgument(msg);
}

}  // namespace rdmagw::northbound::snmp
