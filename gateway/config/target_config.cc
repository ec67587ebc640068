#include "gateway/config/target_config.h"

#include <algorithm>
#include <cstdint>
#include <map>
#include <regex>
#include <set>

#include "gateway/config/transport_readers.h"

namespace rdmagw::gateway {
namespace {

using southbound::rdma::RdmaConfig;

// Labels the exporters set themselves; a config label must not shadow them.
const std::set<std::string> kReservedLabels = {"target", "device", "port", "interface",
                                               "priority", "kind", "transport", "job", "instance"};

void readCredentials(YamlReader& r, const YAML::Node& n, const std::string& path, CredentialsRef* c) {
  r.checkKeys(n, path, {"username", "password", "password_env", "password_file", "key_file", "passphrase_env"});
  if (!n.IsMap()) return;
  if (n["password"]) {
    r.error(n["password"], path + ".password",
            "inline secrets are not allowed; use password_env or password_file");
  }
  c->username = r.string(n, path, "username").value_or("");
  c->password_env = r.string(n, path, "password_env").value_or("");
  c->password_file = r.string(n, path, "password_file").value_or("");
  c->key_file = r.string(n, path, "key_file").value_or("");
  c->passphrase_env = r.string(n, path, "passphrase_env").value_or("");
  if (!c->password_env.empty() && !c->password_file.empty()) {
    r.error(n, path, "give password_env or password_file, not both");
  }
}

void readRdma(YamlReader& r, const YAML::Node& n, const std::string& path, RdmaConfig* c) {
  r.checkKeys(n, path, {"sysfs_root", "devices", "ethtool", "ethtool_dir", "lldp", "config_interval"});
  if (!n.IsMap()) return;
  c->sysfs_root = r.string(n, path, "sysfs_root").value_or(c->sysfs_root);
  if (YAML::Node d = n["devices"]) {
    const std::string dpath = path + ".devices";
    r.checkKeys(d, dpath, {"include", "exclude"});
    if (d.IsMap()) {
      c->include_devices = r.stringList(d, dpath, "include");
      c->exclude_devices = r.stringList(d, dpath, "exclude");
    }
  }
  if (auto mode = r.string(n, path, "ethtool")) {
    if (*mode == "ioctl") c->ethtool = RdmaConfig::EthtoolMode::kIoctl;
    else if (*mode == "text") c->ethtool = RdmaConfig::EthtoolMode::kText;
    else if (*mode == "none") c->ethtool = RdmaConfig::EthtoolMode::kNone;
    else r.error(n["ethtool"], path + ".ethtool", "must be ioctl, text or none, not \"" + *mode + "\"");
  }
  c->ethtool_dir = r.string(n, path, "ethtool_dir").value_or("");
  if (auto mode = r.string(n, path, "lldp")) {
    if (*mode == "auto") c->lldp = RdmaConfig::LldpMode::kAuto;
    else if (*mode == "on") c->lldp = RdmaConfig::LldpMode::kOn;
    else if (*mode == "off") c->lldp = RdmaConfig::LldpMode::kOff;
    else r.error(n["lldp"], path + ".lldp", "must be auto, on or off, not \"" + *mode + "\"");
  }
  c->config_interval = r.duration(n, path, "config_interval").value_or(c->config_interval);
  if (Status st = c->validate(); !st.isOk()) r.error(n, path, st.message());
}

void readKubernetes(YamlReader& r, const YAML::Node& n, const std::string& path, southbound::k8s::KubernetesConfig* c) {
  r.checkKeys(n, path,
              {"enabled", "kubelet_socket", "kubelet_timeout", "netns_dirs", "pod_logs_dir", "proc_root",
               "host_netns_file", "sysfs_root", "vf_stats", "qp_counters"});
  if (!n.IsMap()) return;
  c->enabled = r.boolean(n, path, "enabled").value_or(true);  // a kubernetes: block means on
  c->kubelet_socket = r.string(n, path, "kubelet_socket").value_or(c->kubelet_socket);
  c->kubelet_timeout = r.duration(n, path, "kubelet_timeout").value_or(c->kubelet_timeout);
  if (n["netns_dirs"]) c->netns_dirs = r.stringList(n, path, "netns_dirs");
  c->pod_logs_dir = r.string(n, path, "pod_logs_dir").value_or(c->pod_logs_dir);
  c->proc_root = r.string(n, path, "proc_root").value_or(c->proc_root);
  c->host_netns_file = r.string(n, path, "host_netns_file").value_or("");
  c->sysfs_root = r.string(n, path, "sysfs_root").value_or("");
  c->vf_stats = r.string(n, path, "vf_stats").value_or(c->vf_stats);
  if (auto mode = r.string(n, path, "qp_counters")) {
    using southbound::k8s::QpCountersMode;
    if (*mode == "off")
      c->qp_counters = QpCountersMode::kOff;
    else if (*mode == "read")
      c->qp_counters = QpCountersMode::kRead;
    else if (*mode == "auto")
      c->qp_counters = QpCountersMode::kAuto;
    else
      r.error(n["qp_counters"], path + ".qp_counters", "must be off, read or auto, not \"" + *mode + "\"");
  }
  if (Status st = c->validate(); !st.isOk()) r.error(n, path, st.message());
}

void readGpu(YamlReader& r, const YAML::Node& n, const std::string& path, southbound::gpu::GpuConfig* c) {
  r.checkKeys(n, path,
              {"enabled", "metrics", "nvml_library", "nvidia_smi", "sysfs_root", "proc_root", "nccl_topology_file",
               "topology_interval", "retry_after"});
  if (!n.IsMap()) return;
  c->enabled = r.boolean(n, path, "enabled").value_or(true);  // a gpu: block means on
  if (auto mode = r.string(n, path, "metrics")) {
    using southbound::gpu::GpuMetricsMode;
    const std::map<std::string, GpuMetricsMode> modes = {{"auto", GpuMetricsMode::kAuto},
                                                         {"nvml", GpuMetricsMode::kNvml},
                                                         {"nvidia-smi", GpuMetricsMode::kNvidiaSmi},
                                                         {"none", GpuMetricsMode::kNone}};
    if (auto it = modes.find(*mode); it != modes.end())
      c->metrics = it->second;
    else
      r.error(n["metrics"], path + ".metrics", "must be auto, nvml, nvidia-smi or none, not \"" + *mode + "\"");
  }
  c->nvml_library = r.string(n, path, "nvml_library").value_or(c->nvml_library);
  c->nvidia_smi = r.string(n, path, "nvidia_smi").value_or(c->nvidia_smi);
  c->sysfs_root = r.string(n, path, "sysfs_root").value_or("");
  c->proc_root = r.string(n, path, "proc_root").value_or(c->proc_root);
  c->nccl_topology_file = r.string(n, path, "nccl_topology_file").value_or("");
  c->topology_interval = r.duration(n, path, "topology_interval").value_or(c->topology_interval);
  c->retry_after = r.duration(n, path, "retry_after").value_or(c->retry_after);
  if (Status st = c->validate(); !st.isOk()) r.error(n, path, st.message());
}

void readTarget(YamlReader& r, const YAML::Node& n, const std::string& path, TargetConfig* t) {
  r.checkKeys(n, path,
              {"name", "kind", "address", "transport", "interval", "stale_after", "labels", "placement_group",
               "credentials", "rdma", "kubernetes", "gpu", "ssh", "gnmi", "nxapi"});
  if (!n.IsMap()) return;
  t->defined_at = r.where(n);
  t->name = r.string(n, path, "name", true).value_or("");
  static const std::regex name_re("^[A-Za-z0-9][A-Za-z0-9._-]*$");
  if (!t->name.empty() && !std::regex_match(t->name, name_re)) {
    r.error(n["name"], path + ".name", "\"" + t->name + "\" may hold only letters, digits, '.', '_' and '-'");
  }
  t->kind = r.string(n, path, "kind", true).value_or("");
  t->address = r.string(n, path, "address").value_or("local");
  t->transport = readTransport(r, n, path);
  t->interval = r.duration(n, path, "interval").value_or(t->interval);
  t->stale_after = r.duration(n, path, "stale_after").value_or(t->stale_after);
  t->placement_group = r.string(n, path, "placement_group").value_or("");
  if (t->interval < std::chrono::milliseconds(100)) r.error(n["interval"], path + ".interval", "must be at least 100ms");

  if (YAML::Node labels = n["labels"]) {
    if (!labels.IsMap()) {
      r.error(labels, path + ".labels", "must be a mapping of label: value");
    } else {
      static const std::regex label_re("^[a-zA-Z_][a-zA-Z0-9_]*$");
      for (const auto& kv : labels) {
        std::string k = kv.first.as<std::string>("");
        const std::string kpath = path + ".labels." + k;
        if (!std::regex_match(k, label_re) || k.starts_with("__")) {
          r.error(kv.first, kpath, "not a valid Prometheus label name");
        } else if (kReservedLabels.count(k)) {
          r.error(kv.first, kpath, "is set by rdmagw itself; choose another name");
        } else if (!kv.second.IsScalar()) {
          r.error(kv.second, kpath, "must be a string");
        } else {
          t->labels.emplace_back(k, kv.second.Scalar());
        }
      }
    }
  }
  if (YAML::Node c = n["credentials"]) readCredentials(r, c, path + ".credentials", &t->credentials);

  if (t->kind == "rdma-host") {
    if (t->transport.empty()) t->transport = t->address == "local" ? "sysfs" : "ssh";
    if (YAML::Node rd = n["rdma"]) readRdma(r, rd, path + ".rdma", &t->rdma);
    if (YAML::Node k = n["kubernetes"]) readKubernetes(r, k, path + ".kubernetes", &t->kubernetes);
    if (YAML::Node g = n["gpu"]) readGpu(r, g, path + ".gpu", &t->gpu);
    if (n["gpu"] && t->transport == "ssh" && t->gpu.metrics == southbound::gpu::GpuMetricsMode::kNvml) {
      r.error(n["gpu"], path + ".gpu.metrics", "nvml reads this machine's GPUs: over SSH use nvidia-smi or auto");
    }
    if (n["kubernetes"] && t->transport != "sysfs") {
      r.error(n["kubernetes"], path + ".kubernetes", "only for transport sysfs: the gateway runs on the node");
    }
    if (t->transport == "sysfs") {
      if (t->address != "local") {
        r.error(n["address"], path + ".address", "rdma-host over sysfs reads this machine: address: local");
      }
    } else if (t->transport == "ssh") {
      readSsh(r, n, path, t);
    } else {
      r.error(n["transport"], path + ".transport", "rdma-host supports transport sysfs or ssh");
    }
  } else if (t->kind == "nexus") {
    // auto: gNMI, with the SSH CLI while gNMI is down; all map to the same paths.
    if (t->transport.empty()) t->transport = "auto";
    const std::vector<std::string> order = nexusTransports(t->transport);
    auto uses = [&order](const char* name) { return std::find(order.begin(), order.end(), name) != order.end(); };
    if (uses("ssh")) readSsh(r, n, path, t);
    if (uses("gnmi")) readGnmi(r, n, path, t);
    if (uses("nxapi")) readNxapi(r, n, path, t);
  } else if (t->kind == "rdmagw") {
    // Another rdmagw's gNMI northbound: every device it serves becomes a target here.
    if (t->transport.empty()) t->transport = "gnmi";
    if (t->transport != "gnmi") {
      r.error(n["transport"], path + ".transport", "rdmagw supports transport gnmi");
    } else {
      readGnmi(r, n, path, t);
      t->gnmi.kind = "rdmagw";
    }
  } else if (t->kind == "esxi") {
    if (t->transport.empty()) t->transport = "ssh";
    if (t->transport != "ssh") {
      r.error(n["transport"], path + ".transport", "esxi supports transport ssh");
    } else {
      readSsh(r, n, path, t);
    }
  } else if (!t->kind.empty()) {
    r.error(n["kind"], path + ".kind", "unknown kind \"" + t->kind + "\" (rdma-host, nexus, esxi, rdmagw)");
  }
  checkTransportBlocks(r, n, path, *t);
  if (n["rdma"] && t->kind != "rdma-host") r.error(n["rdma"], path + ".rdma", "only for kind rdma-host");
  if (n["kubernetes"] && t->kind != "rdma-host") {
    r.error(n["kubernetes"], path + ".kubernetes", "only for kind rdma-host");
  }
  if (n["gpu"] && t->kind != "rdma-host") r.error(n["gpu"], path + ".gpu", "only for kind rdma-host");
}

}  // namespace

void readTargetList(YamlReader& r, const YAML::Node& targets, const std::string& path,
                    std::vector<TargetConfig>* out) {
  if (!targets) return;
  if (!targets.IsSequence()) {
    r.error(targets, path, "must be a list");
    return;
  }
  std::set<std::string> names;
  for (const TargetConfig& t : *out) names.insert(t.name);
  for (size_t i = 0; i < targets.size(); ++i) {
    const std::string tpath = path + "[" + std::to_string(i) + "]";
    TargetConfig t;
    readTarget(r, targets[i], tpath, &t);
    if (!t.name.empty() && !names.insert(t.name).second) {
      r.error(targets[i]["name"], tpath + ".name", "duplicate target name \"" + t.name + "\"");
    }
    out->push_back(std::move(t));
  }
}

Result<TargetConfig> parseTargetConfig(const std::string& yaml_text, const std::string& file_name) {
  YamlReader r(file_name);
  Result<YAML::Node> loaded = loadYaml(yaml_text, file_name);
  if (!loaded.isOk()) return loaded.status();
  YAML::Node root = *loaded;
  if (!root || root.IsNull()) return Status::invalidArgument(file_name + ": empty target");
  if (!root.IsMap()) return Status::invalidArgument(file_name + ": a target is a mapping (name, kind, address...)");
  TargetConfig t;
  readTarget(r, root, "target", &t);
  if (!r.errors().empty()) return joinedErrors(r);
  return t;
}

Result<std::vector<TargetConfig>> parseTargetList(const std::string& yaml_text, const std::string& file_name) {
  YamlReader r(file_name);
  Result<YAML::Node> loaded = loadYaml(yaml_text, file_name);
  if (!loaded.isOk()) return loaded.status();
  YAML::Node root = *loaded;
  std::vector<TargetConfig> out;
  if (!root || root.IsNull()) return out;  // empty, or comments only (a commented example)
  if (root.IsSequence()) {
    readTargetList(r, root, "targets", &out);
  } else if (root.IsMap() && root["targets"]) {
    r.checkKeys(root, "", {"targets"});
    readTargetList(r, root["targets"], "targets", &out);
  } else if (root.IsMap()) {
    TargetConfig t;
    readTarget(r, root, "target", &t);
    out.push_back(std::move(t));
  } else {
    r.error(root, "targets", "must be a list of targets, a mapping `targets:` with that list, or one target");
  }
  if (!r.errors().empty()) return joinedErrors(r);
  return out;
}

bool sameTargetSettings(const TargetConfig& a, const TargetConfig& b) {
  TargetConfig x = a, y = b;
  x.defined_at.clear();
  y.defined_at.clear();
  x.gnmi.first_dial_delay = y.gnmi.first_dial_delay = std::chrono::milliseconds(0);
  return x.name == y.name && x.kind == y.kind && x.address == y.address && x.transport == y.transport &&
         x.interval == y.interval && x.stale_after == y.stale_after && x.labels == y.labels &&
         x.placement_group == y.placement_group && x.credentials.username == y.credentials.username &&
         x.credentials.password_env == y.credentials.password_env &&
         x.credentials.password_file == y.credentials.password_file &&
         x.credentials.key_file == y.credentials.key_file &&
         x.credentials.passphrase_env == y.credentials.passphrase_env && x.rdma == y.rdma &&
         x.kubernetes == y.kubernetes && x.gpu == y.gpu && x.ssh == y.ssh && x.gnmi == y.gnmi && x.nxapi == y.nxapi;
}

void spreadFirstDials(std::vector<TargetConfig>& targets) {
  size_t index = 0;  // counts the gNMI switches
  for (TargetConfig& t : targets) {
    if (!isGnmiSwitch(t.kind, t.transport)) continue;
    t.gnmi.first_dial_delay = southbound::gnmi::firstDialSpread(index++, t.gnmi.sample_interval);
  }
}

}  // namespace rdmagw::gateway
