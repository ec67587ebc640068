#include "gateway/config/snmp_notifications_config.h"

#include "northbound/snmp/notification_table.h"
#include "southbound/secret_source.h"

namespace rdmagw::gateway {
namespace {

using northbound::snmp::SecretRef;
using northbound::snmp::SnmpNotifyDestination;

// `<name>_env` / `<name>_file` into a SecretRef; an inline `<name>` is refused.
SecretRef readSecretRef(YamlReader& r, const YAML::Node& n, const std::string& path, const std::string& name) {
  if (n[name]) {
    r.error(n[name], path + "." + name, "inline secrets are not allowed; use " + name + "_env or " + name + "_file");
  }
  SecretRef ref;
  ref.env = r.string(n, path, (name + "_env").c_str()).value_or("");
  ref.file = r.string(n, path, (name + "_file").c_str()).value_or("");
  return ref;  // read when the session opens, like every secret of the config (both given: validate() says so)
}

void readDestination(YamlReader& r, const YAML::Node& n, const std::string& path, SnmpNotifyDestination* d) {
  r.checkKeys(n, path,
              {"address", "version", "type", "community", "community_env", "community_file", "user", "auth_protocol",
               "auth_passphrase", "auth_passphrase_env", "auth_passphrase_file", "priv_protocol", "priv_passphrase",
               "priv_passphrase_env", "priv_passphrase_file", "retries", "timeout"});
  if (!n.IsMap()) return;
  if (auto a = r.string(n, path, "address", true)) {
    if (Status st = northbound::snmp::parseNotifyAddress(*a, &d->host, &d->port); !st.isOk()) {
      r.error(n["address"], path + ".address", st.message());
    }
  }
  if (auto v = r.string(n, path, "version")) {
    if (*v == "2c") d->version = SnmpNotifyDestination::Version::kV2c;
    else if (*v == "3") d->version = SnmpNotifyDestination::Version::kV3;
    else r.error(n["version"], path + ".version", "must be 2c or 3, not \"" + *v + "\"");
  }
  if (auto t = r.string(n, path, "type")) {
    if (*t == "trap") d->type = SnmpNotifyDestination::Type::kTrap;
    else if (*t == "inform") d->type = SnmpNotifyDestination::Type::kInform;
    else r.error(n["type"], path + ".type", "must be trap or inform, not \"" + *t + "\"");
  }
  d->community = readSecretRef(r, n, path, "community");
  d->user = r.string(n, path, "user").value_or("");
  d->auth_protocol = r.string(n, path, "auth_protocol").value_or(d->auth_protocol);
  d->auth_passphrase = readSecretRef(r, n, path, "auth_passphrase");
  d->priv_protocol = r.string(n, path, "priv_protocol").value_or("");
  d->priv_passphrase = readSecretRef(r, n, path, "priv_passphrase");
  if (auto v = r.integer(n, path, "retries", 0, 10)) d->retries = int(*v);
  d->timeout = r.duration(n, path, "timeout").value_or(d->timeout);
  if ((n["retries"] || n["timeout"]) && d->type != SnmpNotifyDestination::Type::kInform) {
    r.error(n, path, "retries and timeout are for type inform (a trap is not acknowledged)");
  }
  if (d->host.empty()) return;  // already reported
  if (Status st = d->validate(); !st.isOk()) r.error(n, path, st.message());
}

}  // namespace

northbound::snmp::SecretReader snmpSecretReader() {
  return [](std::string_view field, const SecretRef& ref) -> Result<std::string> {
    Result<common::Secret> s =
        southbound::resolveSecret(std::string(field) + "_env", ref.env, std::string(field) + "_file", ref.file);
    if (!s.isOk()) return s.status();
    return std::string(s->reveal());
  };
}

void readSnmpNotifications(YamlReader& r, const YAML::Node& list, northbound::snmp::SnmpConfig* out) {
  const std::string path = "northbound.snmp.notifications";
  if (!list.IsSequence()) {
    r.error(list, path, "must be a list of destinations (- address: host:port ...)");
    return;
  }
  out->read_secret = snmpSecretReader();
  for (size_t i = 0; i < list.size(); ++i) {
    SnmpNotifyDestination d;
    readDestination(r, list[i], path + "[" + std::to_string(i) + "]", &d);
    out->notifications.push_back(std::move(d));
  }
}

std::string explainSnmpNorthbound(const northbound::snmp::SnmpConfig& c) {
  std::string out = "  snmp: AgentX subagent of " + c.agentx_socket + ", snapshot every " +
                    std::to_string(c.refresh_period.count()) + "ms\n";
  if (c.notifications.empty()) return out + "    notifications: none (no destinations)\n";
  std::string types;
  for (const auto& def : northbound::snmp::notificationTable()) types += (types.empty() ? "" : ", ") + std::string(def.type);
  out += "    notifications (" + types + "), each to every destination below:\n"
         "      on every change of a verdict code, and for a verdict that first appears not normal\n";
  for (const SnmpNotifyDestination& d : c.notifications) {
    out += "    - " + d.label() + ": SNMPv" + d.versionName() + " " + d.typeName();
    auto where = [](const SecretRef& s) { return s.env.empty() ? "file " + s.file : "$" + s.env; };
    if (d.version == SnmpNotifyDestination::Version::kV2c) {
      out += ", community from " + where(d.community);
    } else {
      out += ", user " + d.user + (d.priv_protocol.empty() ? " authNoPriv " : " authPriv ") + d.auth_protocol;
      if (!d.priv_protocol.empty()) out += "/" + d.priv_protocol;
      out += ", passphrases from " + where(d.auth_passphrase);
      if (!d.priv_protocol.empty()) out += " and " + where(d.priv_passphrase);
    }
    if (d.type == SnmpNotifyDestination::Type::kInform) {
      out += ", " + std::to_string(d.retries) + " retries of " + std::to_string(d.timeout.count()) +
             "ms (unacknowledged: counted failed)";
    }
    out += "\n";
  }
  return out;
}

}  // namespace rdmagw::gateway
