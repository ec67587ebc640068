#pragma once
// The gateway's YAML configuration: targets (southbound), listeners
// (northbound) and process settings. Every component keeps its own config
// struct with validate(); this file only maps YAML onto them.

#include <chrono>
#include <map>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "analytics/analytics_config.h"
#include "gateway/cluster_config.h"
#include "models/log.h"
#include "models/status.h"
#include "northbound/admin/admin_socket_config.h"
#include "northbound/gnmi/gnmi_server_config.h"
#include "northbound/prometheus/prometheus_config.h"
#include "northbound/snmp/snmp_config.h"
#include "southbound/rdma/rdma_config.h"
#include "southbound/gnmi/gnmi_config.h"
#include "southbound/ssh/ssh_config.h"

namespace rdmagw::gateway {

// Secrets are referenced, never written inline: the config names where the
// password lives, and nothing ever logs the value.
struct CredentialsRef {
  std::string username;
  std::string password_env;
  std::string password_file;
  std::string key_file;
  std::string passphrase_env;
};

struct TargetConfig {
  std::string name;
  std::string kind;       // rdma-host | nexus | esxi
  std::string address = "local";
  std::string transport;  // rdma-host: sysfs | ssh; nexus: auto | gnmi | ssh; esxi: ssh
  std::chrono::milliseconds interval{10000};
  std::chrono::milliseconds stale_after{0};  // 0: three intervals
  std::vector<std::pair<std::string, std::string>> labels;
  // In a fleet, targets with the same group are collected by one member
  // (e.g. a switch and the hosts cabled to it, so their links' analytics
  // see both ends). Empty: the target's own name.
  std::string placement_group;
  CredentialsRef credentials;
  southbound::rdma::RdmaConfig rdma;
  southbound::ssh::SshConfig ssh;  // transport ssh/auto: host = address, user and secrets from credentials
  southbound::gnmi::GnmiConfig gnmi;  // transport gnmi/auto: address:port, same credentials
  // Where the entry was read ("file:line:col"), for messages; not a setting:
  // a target moved to another file is the same target.
  std::string defined_at;
};

// Whether two targets are configured alike (a reload keeps such a target
// running untouched). Ignores defined_at and what the pipeline derives at
// start (the gNMI first-dial spread).
bool sameTargetSettings(const TargetConfig& a, const TargetConfig& b);

// Where extra target files live unless the config says otherwise.
inline constexpr const char* kDefaultTargetsDir = "/etc/rdmagw/targets.d";

struct GatewayConfig {
  LogLevel log_level = LogLevel::kInfo;
  size_t max_concurrent_polls = 8;
  size_t max_concurrent_ssh = 16;  // SSH connects/commands in flight, all targets together
  // gNMI dials from connect to the stream's first response, all switches
  // together: a fabric that restarts at once comes back this many at a time.
  size_t max_concurrent_gnmi_handshakes = 16;
  size_t max_series_per_target = 1'000'000;  // bounded memory: new leaves past it are refused, counted
  // Spread the gNMI switches' first dials over their sample interval
  // (southbound/gnmi/gnmi_config.h firstDialSpread), so their SAMPLE bursts do
  // not all land in one instant. Costs the later switches up to one interval
  // of first data at start; redials are not delayed.
  bool spread_subscriptions = true;
  int ingest_nice = 0;  // ingest threads' nice above the serving threads' (models/thread_role.h); 0-19, 0: same
  std::vector<TargetConfig> targets;  // the main file's, then targets_dir's (file name order)
  // Every *.yaml/*.yml in it holds more targets (gateway/targets_dir.h).
  // Relative: to the main file's directory. Empty: none. The default may be
  // missing (no extra targets); a directory the config names must exist.
  std::string targets_dir = kDefaultTargetsDir;
  bool targets_dir_set = false;            // the config named it
  std::vector<std::string> target_files;   // the targets_dir files read, sorted
  // Canonical YAML of each setting a reload compares ("northbound.snmp",
  // "max_concurrent_ssh"...; "" when absent), so it can tell which changed
  // without comparing every config struct (gateway/reloader.h).
  std::map<std::string, std::string> settings_text;
  bool prometheus_enabled = true;
  northbound::PrometheusConfig prometheus;
  bool snmp_enabled = false;  // on when northbound.snmp is present (enabled: false turns it off)
  northbound::SnmpConfig snmp;
  bool gnmi_enabled = false;  // a northbound.gnmi block turns the gNMI server on
  northbound::GnmiServerConfig gnmi;
  bool analytics_enabled = false;  // an `analytics` block turns the stage on
  analytics::AnalyticsConfig analytics;
  // `admin_socket`, where `rdmagw status` reads this gateway. Off in a config
  // built in code; a config file without the key gets the default path,
  // served when it can be (northbound/admin/admin_socket_config.h).
  northbound::AdminSocketConfig admin;
  // `cluster`: one member of a fleet on etcd; it collects only the targets
  // placement gives it (gateway/cluster_config.h).
  ClusterSettings cluster;
};

// Parses and validates; on failure the Status message holds one line per
// problem: "file:line:col: key.path: what is wrong".
// With read_targets_dir the targets of targets_dir join the main file's
// (duplicate names across files are errors naming both places); without it
// (tests, fuzzing) only the text given is read.
Result<GatewayConfig> parseConfig(const std::string& yaml_text, const std::string& file_name,
                                  bool read_targets_dir = false);
// The main file and its targets_dir.
Result<GatewayConfig> loadConfigFile(const std::string& path);
// One target entry on its own (the mapping a `targets:` list item holds),
// with the same checks as inside a whole configuration.
Result<TargetConfig> parseTargetConfig(const std::string& yaml_text, const std::string& file_name);
// A targets_dir file: a list of target entries, a mapping with one key
// `targets:` holding that list, or a single target entry. Empty: none.
// Duplicate names within the file are errors; across files, the caller's.
Result<std::vector<TargetConfig>> parseTargetList(const std::string& yaml_text, const std::string& file_name);

// A Nexus streamed over gNMI (transport gnmi, or auto with SSH standing by).
inline bool isGnmiSwitch(std::string_view kind, std::string_view transport) {
  return kind == "nexus" && (transport == "gnmi" || transport == "auto");
}

// Sets each gNMI switch's first_dial_delay from its place among them, in the
// order listed (spread_subscriptions; the pipeline calls it at start).
void spreadFirstDials(std::vector<TargetConfig>& targets);

}  // namespace rdmagw::gateway
