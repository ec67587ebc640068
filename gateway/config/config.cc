#include "gateway/config/config.h"

#include "gateway/config/analytics_config_reader.h"
#include "gateway/config/gnmi_northbound_config.h"
#include "gateway/config/snmp_notifications_config.h"

#include <cerrno>
#include <cstring>
#include <map>

#include "common/file_text.h"
#include "gateway/config/target_config.h"
#include "gateway/config/targets_dir.h"
#include "gateway/config/yaml_reader.h"

namespace rdmagw::gateway {
namespace {

// northbound.snmp: an AgentX subagent of the system snmpd.
void readSnmp(YamlReader& r, const YAML::Node& s, GatewayConfig* cfg) {
  const std::string path = "northbound.snmp";
  r.checkKeys(s, path, {"enabled", "agentx_socket", "state_dir", "if_index", "refresh_period", "notifications"});
  cfg->snmp_enabled = true;
  // A fleet moves targets between members: only derived numbers survive
  // that. A lone gateway keeps its state file's numbers (its NMS history).
  // The cluster block is read before this one.
  cfg->snmp.if_index =
      cfg->cluster.enabled ? northbound::snmp::IfIndexScheme::kDerived : northbound::snmp::IfIndexScheme::kSequential;
  if (!s.IsMap()) return;
  if (auto scheme = r.string(s, path, "if_index")) {
    if (*scheme == "sequential") {
      cfg->snmp.if_index = northbound::snmp::IfIndexScheme::kSequential;
    } else if (*scheme == "derived") {
      cfg->snmp.if_index = northbound::snmp::IfIndexScheme::kDerived;
    } else {
      r.error(s["if_index"], path + ".if_index", "must be sequential or derived");
    }
  }
  if (auto e = r.string(s, path, "enabled")) cfg->snmp_enabled = (*e != "false");
  cfg->snmp.agentx_socket = r.string(s, path, "agentx_socket").value_or(cfg->snmp.agentx_socket);
  cfg->snmp.state_dir = r.string(s, path, "state_dir").value_or(cfg->snmp.state_dir);
  cfg->snmp.refresh_period = r.duration(s, path, "refresh_period").value_or(cfg->snmp.refresh_period);
  if (Status st = cfg->snmp.validate(); !st.isOk()) r.error(s, path, st.message());
  if (YAML::Node n = s["notifications"]) readSnmpNotifications(r, n, &cfg->snmp);
}

void readNorthbound(YamlReader& r, const YAML::Node& n, GatewayConfig* cfg) {
  r.checkKeys(n, "northbound", {"prometheus", "snmp", "gnmi"});
  if (!n.IsMap()) return;
  if (YAML::Node s = n["snmp"]) readSnmp(r, s, cfg);
  if (YAML::Node g = n["gnmi"]) {
    cfg->gnmi_enabled = true;
    readGnmiNorthbound(r, g, &cfg->gnmi);
  }
  YAML::Node p = n["prometheus"];
  if (!p) {
    cfg->prometheus_enabled = false;
    return;
  }
  r.checkKeys(p, "northbound.prometheus", {"enabled", "listen", "path", "refresh_period"});
  if (auto e = r.string(p, "northbound.prometheus", "enabled")) cfg->prometheus_enabled = (*e != "false");
  cfg->prometheus.listen = r.string(p, "northbound.prometheus", "listen").value_or(cfg->prometheus.listen);
  cfg->prometheus.path = r.string(p, "northbound.prometheus", "path").value_or(cfg->prometheus.path);
  cfg->prometheus.refresh_period =
      r.duration(p, "northbound.prometheus", "refresh_period").value_or(cfg->prometheus.refresh_period);
  if (Status st = cfg->prometheus.validate(); !st.isOk()) r.error(p, "northbound.prometheus", st.message());
}

// The settings a reload compares, as canonical YAML (comments and spacing
// do not count as changes).
void recordSettingsText(const YAML::Node& root, GatewayConfig* cfg) {
  auto text = [](const YAML::Node& n) { return n ? YAML::Dump(n) : std::string(); };
  for (const char* key : {"log_level", "max_concurrent_polls", "max_concurrent_ssh", "max_concurrent_gnmi_handshakes",
                          "max_series_per_target", "ingest_nice", "spread_subscriptions", "analytics", "cluster"}) {
    cfg->settings_text[key] = text(YamlReader::child(root, key));
  }
  const YAML::Node nb = YamlReader::child(root, "northbound");
  for (const char* key : {"prometheus", "snmp", "gnmi"}) {
    cfg->settings_text[std::string("northbound.") + key] = text(YamlReader::child(nb, key));
  }
}

void readTargetsDirKey(YamlReader& r, const YAML::Node& root, GatewayConfig* cfg) {
  if (!root["targets_dir"]) return;
  cfg->targets_dir_set = true;
  cfg->targets_dir = r.string(root, "", "targets_dir").value_or("");
  if (cfg->targets_dir.empty()) return;
  // Relative to the main file, as Prometheus resolves file_sd paths.
  const std::string& file = r.file();
  const size_t slash = file.rfind('/');
  if (cfg->targets_dir[0] != '/' && slash != std::string::npos) {
    cfg->targets_dir = file.substr(0, slash + 1) + cfg->targets_dir;
  }
}

void addTargetsDir(YamlReader& r, const YAML::Node& root, GatewayConfig* cfg) {
  if (cfg->targets_dir.empty()) return;
  Result<TargetsDirContent> dir = readTargetsDir(cfg->targets_dir);
  if (dir.status().code() == Status::Code::kNotFound) {
    if (cfg->targets_dir_set) r.error(root["targets_dir"], "targets_dir", dir.status().message());
    return;
  }
  if (!dir.isOk()) {
    r.error(root["targets_dir"], "targets_dir", dir.status().message());
    return;
  }
  TargetsDirContent content = std::move(dir).value();
  for (std::string& e : content.errors) r.addError(std::move(e));
  std::map<std::string, std::string> where;  // name -> where the main file defines it
  for (const TargetConfig& t : cfg->targets) where.emplace(t.name, t.defined_at);
  for (TargetConfig& t : content.targets) {
    auto it = where.find(t.name);
    if (it != where.end()) {
      r.addError(t.defined_at + ": name: duplicate target name \"" + t.name + "\" (also at " + it->second + ")");
      continue;
    }
    cfg->targets.push_back(std::move(t));
  }
  cfg->target_files = std::move(content.files);
}

// Absent: the default path, served when it can be; "off": none; a path:
// served or the start fails.
void readAdminSocket(YamlReader& r, const YAML::Node& root, northbound::admin::AdminSocketConfig* c) {
  c->path = northbound::admin::kDefaultAdminSocket;
  c->required = false;
  std::optional<std::string> v = r.string(root, "", "admin_socket");
  if (!v) return;
  if (*v == "off") {
    c->path.clear();
    return;
  }
  c->path = *v;
  c->required = true;
  if (v->empty()) r.error(root["admin_socket"], "admin_socket", "must be a socket path or off");
  else if (Status st = c->validate(); !st.isOk()) r.error(root["admin_socket"], "admin_socket", st.message());
}

}  // namespace

Result<GatewayConfig> parseConfig(const std::string& yaml_text, const std::string& file_name,
                                  bool read_targets_dir) {
  YamlReader r(file_name);
  Result<YAML::Node> loaded = loadYaml(yaml_text, file_name);
  if (!loaded.isOk()) return loaded.status();
  YAML::Node root = *loaded;
  GatewayConfig cfg;
  if (!root || root.IsNull()) return Status::invalidArgument(file_name + ": empty configuration");
  r.checkKeys(root, "", {"log_level", "max_concurrent_polls", "max_concurrent_ssh", "max_concurrent_gnmi_handshakes",
                         "max_series_per_target",
                         "ingest_nice", "spread_subscriptions", "admin_socket", "targets", "targets_dir",
                         "northbound", "analytics", "cluster"});
  if (!root.IsMap()) return Status::invalidArgument(r.errors().front());

  if (auto lvl = r.string(root, "", "log_level")) {
    if (!parseLogLevel(*lvl, &cfg.log_level)) r.error(root["log_level"], "log_level", "must be debug, info, warn or error");
  }
  cfg.max_concurrent_polls = size_t(r.integer(root, "", "max_concurrent_polls", 1, 1024).value_or(8));
  cfg.max_concurrent_ssh = size_t(r.integer(root, "", "max_concurrent_ssh", 1, 1024).value_or(16));
  cfg.max_concurrent_gnmi_handshakes = size_t(
      r.integer(root, "", "max_concurrent_gnmi_handshakes", 1, 1024).value_or(cfg.max_concurrent_gnmi_handshakes));
  cfg.max_series_per_target =
      size_t(r.integer(root, "", "max_series_per_target", 1, 100'000'000).value_or(1'000'000));
  cfg.ingest_nice = int(r.integer(root, "", "ingest_nice", 0, 19).value_or(cfg.ingest_nice));
  cfg.spread_subscriptions = r.boolean(root, "", "spread_subscriptions").value_or(cfg.spread_subscriptions);
  readAdminSocket(r, root, &cfg.admin);

  recordSettingsText(root, &cfg);
  readTargetList(r, root["targets"], "targets", &cfg.targets);
  readTargetsDirKey(r, root, &cfg);
  if (read_targets_dir) addTargetsDir(r, root, &cfg);
  if (YAML::Node a = root["analytics"]) {
    std::map<std::string, std::string> kinds;
    for (const TargetConfig& t : cfg.targets) kinds.emplace(t.name, t.kind);
    cfg.analytics_enabled = true;
    readAnalytics(r, a, kinds, &cfg.analytics);
  }
  if (YAML::Node c = root["cluster"]) readCluster(r, c, &cfg.cluster);
  if (YAML::Node nb = root["northbound"]) readNorthbound(r, nb, &cfg);
  else cfg.prometheus_enabled = true;  // defaults: Prometheus on 127.0.0.1:9464
  if (cfg.cluster.enabled) {
    // What the gNMI server sends to, and expects from, the other members.
    cfg.gnmi.member_name = cfg.cluster.membership.member;
    cfg.gnmi.member_secret_file = cfg.cluster.member_secret_file;
  }

  if (!r.errors().empty()) return joinedErrors(r);
  return cfg;
}

Result<GatewayConfig> loadConfigFile(const std::string& path) {
  const common::FileText text = common::readFileText(path);
  if (!text.ok()) return Status::ioError(path + ": cannot open: " + std::strerror(text.error_number));
  return parseConfig(text.text, path, /*read_targets_dir=*/true);
}

}  // namespace rdmagw::gateway
