#include "gateway/config/gnmi_northbound_config.h"

namespace rdmagw::gateway {
namespace {

constexpr const char* kPath = "northbound.gnmi";

}  // namespace

void readGnmiNorthbound(YamlReader& r, const YAML::Node& n, northbound::gnmi::GnmiServerConfig* c) {
  r.checkKeys(n, kPath, {"listen", "tls", "insecure", "insecure_remote", "users_file", "users_env",
                         "min_sample_interval", "target_defined_interval", "limits"});
  if (!n.IsMap()) return;
  c->listen = r.string(n, kPath, "listen").value_or(c->listen);
  if (YAML::Node tls = n["tls"]) {
    const std::string path = std::string(kPath) + ".tls";
    r.checkKeys(tls, path, {"cert", "key", "client_ca"});
    c->tls_cert = r.string(tls, path, "cert").value_or("");
    c->tls_key = r.string(tls, path, "key").value_or("");
    c->tls_client_ca = r.string(tls, path, "client_ca").value_or("");
  }
  c->insecure = r.boolean(n, kPath, "insecure").value_or(false);
  c->insecure_remote = r.boolean(n, kPath, "insecure_remote").value_or(false);
  c->users_file = r.string(n, kPath, "users_file").value_or("");
  c->users_env = r.string(n, kPath, "users_env").value_or("");
  c->min_sample_interval = r.duration(n, kPath, "min_sample_interval").value_or(c->min_sample_interval);
  c->target_defined_interval = r.duration(n, kPath, "target_defined_interval").value_or(c->target_defined_interval);
  if (YAML::Node l = n["limits"]) {
    const std::string path = std::string(kPath) + ".limits";
    r.checkKeys(l, path, {"max_subscriptions", "max_subscriptions_per_client", "max_queued_updates"});
    c->max_subscriptions = size_t(r.integer(l, path, "max_subscriptions", 1, 100000).value_or(c->max_subscriptions));
    c->max_subscriptions_per_client =
        size_t(r.integer(l, path, "max_subscriptions_per_client", 1, 100000).value_or(c->max_subscriptions_per_client));
    c->max_queued_updates =
        size_t(r.integer(l, path, "max_queued_updates", 1, 100'000'000).value_or(c->max_queued_updates));
  }
  if (Status st = c->validate(); !st.isOk()) r.error(n, kPath, st.message());
}

std::string explainGnmiNorthbound(const northbound::gnmi::GnmiServerConfig& c) {
  std::string out = "  gnmi: " + c.listen;
  if (c.insecure) {
    out += ", plain text" + std::string(c.insecure_remote ? " (remote allowed)" : " (loopback only)");
  } else {
    out += ", TLS cert " + c.tls_cert + (c.tls_client_ca.empty() ? "" : ", client certificates from " + c.tls_client_ca);
  }
  out += "\n    users: ";
  if (c.users_file.empty() && c.users_env.empty()) out += "none (no username/password check)";
  if (!c.users_file.empty()) out += "file " + c.users_file;
  if (!c.users_env.empty()) out += (c.users_file.empty() ? "" : " and ") + std::string("$") + c.users_env;
  out += "\n    sampling: lowest " + std::to_string(c.min_sample_interval.count()) + "ms (what 0 means), "
         "TARGET_DEFINED counters every " + std::to_string(c.target_defined_interval.count()) + "ms";
  out += "\n    limits: " + std::to_string(c.max_subscriptions) + " streams, " +
         std::to_string(c.max_subscriptions_per_client) + " per client, " + std::to_string(c.max_queued_updates) +
         " pending leaves per subscriber\n";
  return out;
}

}  // namespace rdmagw::gateway
