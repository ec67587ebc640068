#pragma once
// One target of the configuration (a `targets:` entry or a targets_dir
// file's) and its reader. Both the main file (gateway/config/config.h) and
// the targets_dir (gateway/config/targets_dir.h) read targets with it, so
// neither of those needs the other's reader.

#include <chrono>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "gateway/config/yaml_reader.h"
#include "models/status.h"
#include "southbound/gnmi/gnmi_config.h"
#include "southbound/gpu/gpu_config.h"
#include "southbound/k8s/kubernetes_config.h"
#include "southbound/nxapi/nxapi_config.h"
#include "southbound/rdma/rdma_config.h"
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
  // rdma-host: sysfs | ssh; nexus: auto | gnmi | nxapi | ssh, or an order of
  // preference (written [gnmi, nxapi, ssh], held as "gnmi,nxapi,ssh"); esxi: ssh
  std::string transport;
  std::chrono::milliseconds interval{10000};
  std::chrono::milliseconds stale_after{0};  // 0: three intervals
  std::vector<std::pair<std::string, std::string>> labels;
  // In a fleet, targets with the same group are collected by one member
  // (e.g. a switch and the hosts cabled to it, so their links' analytics
  // see both ends). Empty: the target's own name.
  std::string placement_group;
  CredentialsRef credentials;
  southbound::rdma::RdmaConfig rdma;
  // rdma-host over sysfs on a Kubernetes node: which pod holds each device.
  southbound::k8s::KubernetesConfig kubernetes;
  // rdma-host over sysfs: its GPUs, their metrics and their PCI paths to its NICs.
  southbound::gpu::GpuConfig gpu;
  southbound::ssh::SshConfig ssh;  // transport ssh/auto: host = address, user and secrets from credentials
  southbound::gnmi::GnmiConfig gnmi;  // transport gnmi/auto: address:port, same credentials
  southbound::nxapi::NxapiConfig nxapi;  // transport nxapi: HTTPS to address, same credentials
  // Where the entry was read ("file:line:col"), for messages; not a setting:
  // a target moved to another file is the same target.
  std::string defined_at;
};

// Whether two targets are configured alike (a reload keeps such a target
// running untouched). Ignores defined_at and what the pipeline derives at
// start (the gNMI first-dial spread).
bool sameTargetSettings(const TargetConfig& a, const TargetConfig& b);

// One target entry on its own (the mapping a `targets:` list item holds),
// with the same checks as inside a whole configuration.
Result<TargetConfig> parseTargetConfig(const std::string& yaml_text, const std::string& file_name);
// A targets_dir file: a list of target entries, a mapping with one key
// `targets:` holding that list, or a single target entry. Empty: none.
// Duplicate names within the file are errors; across files, the caller's.
Result<std::vector<TargetConfig>> parseTargetList(const std::string& yaml_text, const std::string& file_name);

// A Nexus's transports in order of preference: "auto" is gNMI with the SSH
// CLI behind it; a list as written ("gnmi,nxapi,ssh"); else the one named.
std::vector<std::string> nexusTransports(std::string_view transport);

// A Nexus streamed over gNMI (gNMI first in its transports; the others,
// if any, stand by while gNMI is down).
inline bool isGnmiSwitch(std::string_view kind, std::string_view transport) {
  return kind == "nexus" && (transport == "gnmi" || transport == "auto" || transport.starts_with("gnmi,"));
}

// Sets each gNMI switch's first_dial_delay from its place among them, in the
// order listed (spread_subscriptions; the pipeline calls it at start).
void spreadFirstDials(std::vector<TargetConfig>& targets);

// A list of target entries at `path` into `out`, names unique within it and
// among those already in `out`; every problem goes to `r`.
void readTargetList(YamlReader& r, const YAML::Node& targets, const std::string& path,
                    std::vector<TargetConfig>* out);

}  // namespace rdmagw::gateway
