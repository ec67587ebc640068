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
#include "gateway/config/cluster_config.h"
#include "gateway/config/target_config.h"
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
  // Every *.yaml/*.yml in it holds more targets (gateway/config/targets_dir.h).
  // Relative: to the main file's directory. Empty: none. The default may be
  // missing (no extra targets); a directory the config names must exist.
  std::string targets_dir = kDefaultTargetsDir;
  bool targets_dir_set = false;            // the config named it
  std::vector<std::string> target_files;   // the targets_dir files read, sorted
  // Canonical YAML of each setting a reload compares ("northbound.snmp",
  // "max_concurrent_ssh"...; "" when absent), so it can tell which changed
  // without comparing every config struct (gateway/runtime/reloader.h).
  std::map<std::string, std::string> settings_text;
  bool prometheus_enabled = true;
  northbound::prometheus::PrometheusConfig prometheus;
  bool snmp_enabled = false;  // on when northbound.snmp is present (enabled: false turns it off)
  northbound::snmp::SnmpConfig snmp;
  bool gnmi_enabled = false;  // a northbound.gnmi block turns the gNMI server on
  northbound::gnmi::GnmiServerConfig gnmi;
  bool analytics_enabled = false;  // an `analytics` block turns the stage on
  analytics::AnalyticsConfig analytics;
  // `admin_socket`, where `rdmagw status` reads this gateway. Off in a config
  // built in code; a config file without the key gets the default path,
  // served when it can be (northbound/admin/admin_socket_config.h).
  northbound::admin::AdminSocketConfig admin;
  // `cluster`: one member of a fleet on etcd; it collects only the targets
  // placement gives it (gateway/config/cluster_config.h).
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
}  // namespace rdmagw::gateway
