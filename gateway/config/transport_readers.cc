#include "gateway/config/transport_readers.h"

#include <algorithm>
#include <cstdint>

namespace rdmagw::gateway {

std::vector<std::string> nexusTransports(std::string_view transport) {
  if (transport == "auto") return {"gnmi", "ssh"};
  std::vector<std::string> out;
  size_t from = 0;
  while (from <= transport.size()) {
    size_t comma = transport.find(',', from);
    if (comma == std::string_view::npos) comma = transport.size();
    out.emplace_back(transport.substr(from, comma - from));
    from = comma + 1;
  }
  return out;
}

std::string readTransport(YamlReader& r, const YAML::Node& target, const std::string& path) {
  const YAML::Node n = target["transport"];
  if (!n || !n.IsSequence()) return r.string(target, path, "transport").value_or("");
  std::string joined;
  for (size_t i = 0; i < n.size(); ++i) {
    if (!n[i].IsScalar() || n[i].Scalar().empty() || n[i].Scalar().find(',') != std::string::npos) {
      r.error(n[i], path + ".transport[" + std::to_string(i) + "]", "must be a transport name");
      continue;
    }
    joined += (joined.empty() ? "" : ",") + n[i].Scalar();
  }
  if (n.size() == 0) r.error(n, path + ".transport", "an empty list names no transport");
  return joined;
}

void readSsh(YamlReader& r, const YAML::Node& target, const std::string& path, TargetConfig* t) {
  southbound::ssh::SshConfig& c = t->ssh;
  c.host = t->address;
  c.username = t->credentials.username;
  c.password_env = t->credentials.password_env;
  c.password_file = t->credentials.password_file;
  c.key_file = t->credentials.key_file;
  c.passphrase_env = t->credentials.passphrase_env;
  const std::string spath = path + ".ssh";
  if (YAML::Node n = target["ssh"]) {
    r.checkKeys(n, spath,
                {"port", "known_hosts", "accept_unknown_host_key", "connect_timeout", "command_timeout", "keepalive",
                 "max_output_bytes"});
    if (n.IsMap()) {
      c.port = int(r.integer(n, spath, "port", 1, 65535).value_or(c.port));
      c.known_hosts_file = r.string(n, spath, "known_hosts").value_or("");
      c.accept_unknown_host_key = r.boolean(n, spath, "accept_unknown_host_key").value_or(c.accept_unknown_host_key);
      c.connect_timeout = r.duration(n, spath, "connect_timeout").value_or(c.connect_timeout);
      c.command_timeout = r.duration(n, spath, "command_timeout").value_or(c.command_timeout);
      c.keepalive = r.duration(n, spath, "keepalive").value_or(c.keepalive);
      c.max_output_bytes =
          size_t(r.integer(n, spath, "max_output_bytes", 4096, int64_t{1} << 34).value_or(int64_t(c.max_output_bytes)));
    }
  }
  if (t->address.empty() || t->address == "local") {
    r.error(target, path + ".address", "transport ssh needs the device's address");
  }
  if (c.username.empty()) r.error(target, path + ".credentials.username", "transport ssh needs a username");
  if (c.key_file.empty() && c.password_env.empty() && c.password_file.empty()) {
    r.error(target, path + ".credentials", "transport ssh needs key_file, password_env or password_file");
  }
  if (Status st = c.validate(); !st.isOk()) r.error(target, spath, st.message());
}

void readGnmi(YamlReader& r, const YAML::Node& target, const std::string& path, TargetConfig* t) {
  southbound::gnmi::GnmiConfig& g = t->gnmi;
  const std::string gpath = path + ".gnmi";
  int port = t->kind == "rdmagw" ? 9339 : 50051;  // gNMI IANA port; NX-OS default
  g.username = t->credentials.username;
  g.password_env = t->credentials.password_env;
  g.password_file = t->credentials.password_file;
  g.sample_interval = t->interval;
  if (YAML::Node n = target["gnmi"]) {
    r.checkKeys(
        n, gpath,
        {"port", "tls", "insecure_skip_verify", "plaintext", "ca_file", "cert_file", "key_file", "server_name_override",
         "encoding", "sample_interval", "retry_gnmi_after", "subscriptions", "max_message_bytes", "sync_timeout"});
    if (n.IsMap()) {
      port = int(r.integer(n, gpath, "port", 1, 65535).value_or(port));
      g.tls = r.boolean(n, gpath, "tls").value_or(g.tls);
      g.insecure_skip_verify = r.boolean(n, gpath, "insecure_skip_verify").value_or(g.insecure_skip_verify);
      g.plaintext = r.boolean(n, gpath, "plaintext").value_or(g.plaintext);
      g.ca_file = r.string(n, gpath, "ca_file").value_or("");
      g.cert_file = r.string(n, gpath, "cert_file").value_or("");
      g.key_file = r.string(n, gpath, "key_file").value_or("");
      g.server_name_override = r.string(n, gpath, "server_name_override").value_or("");
      if (auto e = r.string(n, gpath, "encoding")) {
        auto enc = southbound::gnmi::parseEncodingChoice(*e);
        if (enc.isOk())
          g.encoding = *enc;
        else
          r.error(n["encoding"], gpath + ".encoding", enc.status().message());
      }
      g.sample_interval = r.duration(n, gpath, "sample_interval").value_or(g.sample_interval);
      g.retry_gnmi_after = r.duration(n, gpath, "retry_gnmi_after").value_or(g.retry_gnmi_after);
      g.max_message_bytes =
          size_t(r.integer(n, gpath, "max_message_bytes", 4096, INT32_MAX).value_or(int64_t(g.max_message_bytes)));
      g.sync_timeout = r.duration(n, gpath, "sync_timeout").value_or(g.sync_timeout);
      if (YAML::Node subs = n["subscriptions"]) {
        if (!subs.IsSequence()) r.error(subs, gpath + ".subscriptions", "must be a list");
        for (size_t i = 0; subs.IsSequence() && i < subs.size(); ++i) {
          const std::string spath = gpath + ".subscriptions[" + std::to_string(i) + "]";
          r.checkKeys(subs[i], spath, {"path", "mode", "sample_interval"});
          if (!subs[i].IsMap()) continue;
          southbound::gnmi::GnmiSubscription sub;
          sub.path = r.string(subs[i], spath, "path", true).value_or("");
          if (auto m = r.string(subs[i], spath, "mode")) {
            auto mode = southbound::gnmi::parseSubscriptionMode(*m);
            if (mode.isOk())
              sub.mode = *mode;
            else
              r.error(subs[i]["mode"], spath + ".mode", mode.status().message());
          }
          sub.sample_interval = r.duration(subs[i], spath, "sample_interval").value_or(sub.sample_interval);
          g.subscriptions.push_back(std::move(sub));
        }
      }
    }
  }
  if (t->address.empty() || t->address == "local") {
    r.error(target, path + ".address", "transport " + t->transport + " needs the switch's address");
  }
  g.address = t->address + ":" + std::to_string(port);
  if (Status st = g.validate(); !st.isOk()) r.error(target, gpath, st.message());
}

void readNxapi(YamlReader& r, const YAML::Node& target, const std::string& path, TargetConfig* t) {
  southbound::nxapi::NxapiConfig& c = t->nxapi;
  c.host = t->address;
  c.username = t->credentials.username;
  c.password_env = t->credentials.password_env;
  c.password_file = t->credentials.password_file;
  const std::string npath = path + ".nxapi";
  if (YAML::Node n = target["nxapi"]) {
    r.checkKeys(n, npath,
                {"port", "dialect", "ca_file", "pinned_public_key", "insecure", "server_name", "connect_timeout",
                 "request_timeout", "session_lifetime", "max_response_bytes", "retry_after"});
    if (n.IsMap()) {
      c.port = int(r.integer(n, npath, "port", 1, 65535).value_or(c.port));
      if (auto d = r.string(n, npath, "dialect")) {
        auto dialect = southbound::nxapi::parseDialect(*d);
        if (dialect.isOk())
          c.dialect = *dialect;
        else
          r.error(n["dialect"], npath + ".dialect", dialect.status().message());
      }
      c.ca_file = r.string(n, npath, "ca_file").value_or("");
      c.pinned_public_key = r.string(n, npath, "pinned_public_key").value_or("");
      c.insecure = r.boolean(n, npath, "insecure").value_or(c.insecure);
      c.server_name = r.string(n, npath, "server_name").value_or("");
      c.connect_timeout = r.duration(n, npath, "connect_timeout").value_or(c.connect_timeout);
      c.request_timeout = r.duration(n, npath, "request_timeout").value_or(c.request_timeout);
      c.session_lifetime = r.duration(n, npath, "session_lifetime").value_or(c.session_lifetime);
      c.retry_after = r.duration(n, npath, "retry_after").value_or(c.retry_after);
      c.max_response_bytes = size_t(
          r.integer(n, npath, "max_response_bytes", 4096, int64_t{1} << 34).value_or(int64_t(c.max_response_bytes)));
    }
  }
  if (t->address.empty() || t->address == "local") {
    r.error(target, path + ".address", "transport nxapi needs the switch's address");
  }
  if (c.username.empty()) r.error(target, path + ".credentials.username", "transport nxapi needs a username");
  if (c.password_env.empty() && c.password_file.empty()) {
    r.error(target, path + ".credentials", "transport nxapi logs in with a password: password_env or password_file");
  }
  if (Status st = c.validate();
      !st.isOk() && !c.host.empty() && !c.username.empty() && !(c.password_env.empty() && c.password_file.empty())) {
    r.error(target, npath, st.message());
  }
}

void checkTransportBlocks(YamlReader& r, const YAML::Node& target, const std::string& path, const TargetConfig& t) {
  std::vector<std::string> order = {t.transport};
  if (t.kind == "nexus") {
    order = nexusTransports(t.transport);
    std::vector<std::string> seen;
    bool bad = false;
    for (size_t i = 0; i < order.size(); ++i) {
      const std::string& name = order[i];
      if (name != "gnmi" && name != "nxapi" && name != "ssh") bad = true;
      if (std::find(seen.begin(), seen.end(), name) != seen.end()) bad = true;
      // gNMI streams and the others poll: only a streamed switch can fall
      // back to polling, never the other way round.
      if (name == "gnmi" && i > 0) bad = true;
      seen.push_back(name);
    }
    if (bad) {
      r.error(target["transport"], path + ".transport",
              "nexus supports transport auto, gnmi, nxapi or ssh, or a list of them in order of preference, each "
              "once and gnmi only first (e.g. [gnmi, nxapi, ssh])");
    }
  }
  auto uses = [&order](const char* name) { return std::find(order.begin(), order.end(), name) != order.end(); };
  const bool is_auto = t.kind == "nexus" && t.transport == "auto";
  if (target["ssh"] && !uses("ssh"))
    r.error(target["ssh"], path + ".ssh", "only for transport ssh or auto, or a list with ssh");
  if (target["gnmi"] && !uses("gnmi") && !is_auto) {
    r.error(target["gnmi"], path + ".gnmi", "only for transport gnmi or auto, or a list with gnmi");
  }
  if (target["nxapi"] && (t.kind != "nexus" || !uses("nxapi"))) {
    r.error(target["nxapi"], path + ".nxapi", "only for a nexus with transport nxapi, or a list with nxapi");
  }
}

}  // namespace rdmagw::gateway
