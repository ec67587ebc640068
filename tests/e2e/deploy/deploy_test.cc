// The Kubernetes manifests shipped in deploy/kubernetes/, checked without a
// cluster: the DaemonSet asks for what the gateway needs and no more (the
// host's PIDs and network, read-only host paths, SYS_ADMIN and SYS_PTRACE
// with everything else dropped, no ServiceAccount token), the ConfigMap's
// configuration is one the gateway's loader accepts, every path it reads is
// where the DaemonSet mounts that host path, and the ServiceMonitor keeps
// the attributed pod's labels (honorLabels). A manifest broken on purpose
// must fail, or none of this proves anything.

#include <gtest/gtest.h>
#include <yaml-cpp/yaml.h>

#include <algorithm>
#include <filesystem>
#include <map>
#include <set>
#include <string>
#include <vector>

#include "gateway/config/config.h"
#include "southbound/k8s/kubernetes_config.h"
#include "tests/support/test_support.h"

namespace rdmagw::testing {
namespace {

namespace fs = std::filesystem;

const fs::path kDeployDir = RDMAGW_SOURCE_DIR "/deploy/kubernetes";
constexpr const char* kPlaceholder = "@NODE_NAME@";

// Every document of every *.yaml, by kind.
std::multimap<std::string, YAML::Node> loadManifests(const fs::path& dir) {
  std::multimap<std::string, YAML::Node> out;
  for (const auto& e : fs::directory_iterator(dir)) {
    if (e.path().extension() != ".yaml") continue;
    for (const YAML::Node& doc : YAML::LoadAllFromFile(e.path().string())) {
      if (doc && doc["kind"]) out.emplace(doc["kind"].as<std::string>(), doc);
    }
  }
  return out;
}

YAML::Node only(const std::multimap<std::string, YAML::Node>& docs, const std::string& kind,
                std::vector<std::string>* problems) {
  if (docs.count(kind) != 1) {
    problems->push_back("want exactly one " + kind + ", have " + std::to_string(docs.count(kind)));
    return YAML::Node();
  }
  return docs.find(kind)->second;
}

// Where a path of the container is on the host, through the hostPath
// mounts; "" when no hostPath mount holds it.
struct Mount {
  std::string container, host;
};
std::string hostPathOf(const std::string& path, const std::vector<Mount>& mounts) {
  const Mount* best = nullptr;
  for (const Mount& m : mounts) {
    const bool under = path == m.container || path.starts_with(m.container + "/");
    if (under && (!best || m.container.size() > best->container.size())) best = &m;
  }
  return best ? best->host + path.substr(best->container.size()) : "";
}

// Every problem of the manifests in `dir`; empty when they are right.
std::vector<std::string> checkManifests(const fs::path& dir) {
  std::vector<std::string> problems;
  auto problem = [&](const std::string& p) { problems.push_back(p); };
  const auto docs = loadManifests(dir);
  const YAML::Node ds = only(docs, "DaemonSet", &problems);
  const YAML::Node cm = only(docs, "ConfigMap", &problems);
  const YAML::Node svc = only(docs, "Service", &problems);
  const YAML::Node sm = only(docs, "ServiceMonitor", &problems);
  if (!problems.empty()) return problems;

  const YAML::Node pod = ds["spec"]["template"]["spec"];
  if (!pod["hostPID"].as<bool>(false)) problem("DaemonSet: hostPID must be true (the node's /proc)");
  if (!pod["hostNetwork"].as<bool>(false)) problem("DaemonSet: hostNetwork must be true (the node's netdevs)");
  if (pod["automountServiceAccountToken"].as<bool>(true)) {
    problem("DaemonSet: automountServiceAccountToken must be false (no API-server access)");
  }
  if (pod["serviceAccountName"] || pod["serviceAccount"]) problem("DaemonSet: names a ServiceAccount");
  if (pod["containers"].size() != 1) problem("DaemonSet: want one container");
  const YAML::Node c = pod["containers"][0];

  // Privileges: all capabilities dropped, only these two added.
  const YAML::Node sc = c["securityContext"];
  if (sc["privileged"].as<bool>(false)) problem("container: privileged");
  if (!sc["readOnlyRootFilesystem"].as<bool>(false)) problem("container: root filesystem not read-only");
  std::set<std::string> drop, add;
  for (const YAML::Node& d : sc["capabilities"]["drop"]) drop.insert(d.as<std::string>());
  for (const YAML::Node& a : sc["capabilities"]["add"]) add.insert(a.as<std::string>());
  if (drop != std::set<std::string>{"ALL"}) problem("container: capabilities.drop must be [ALL]");
  if (add != std::set<std::string>{"SYS_ADMIN", "SYS_PTRACE"}) {
    problem("container: capabilities.add must be [SYS_ADMIN, SYS_PTRACE]");
  }

  // Volumes: every hostPath mounted read-only, at most once.
  std::map<std::string, YAML::Node> volumes;
  for (const YAML::Node& v : pod["volumes"]) volumes[v["name"].as<std::string>()] = v;
  std::vector<Mount> mounts;
  std::string config_dir;
  for (const YAML::Node& m : c["volumeMounts"]) {
    const std::string name = m["name"].as<std::string>();
    const YAML::Node v = volumes[name];
    if (!v) {
      problem("volumeMount " + name + ": no such volume");
      continue;
    }
    if (v["hostPath"]) {
      if (!m["readOnly"].as<bool>(false)) problem("hostPath " + name + " is not mounted readOnly");
      mounts.push_back({m["mountPath"].as<std::string>(), v["hostPath"]["path"].as<std::string>()});
    }
    if (v["configMap"] && v["configMap"]["name"].as<std::string>() == cm["metadata"]["name"].as<std::string>()) {
      config_dir = m["mountPath"].as<std::string>();
    }
  }

  // The configuration: what the command reads, with the node's name in.
  std::string command;
  for (const YAML::Node& part : c["command"]) command += part.as<std::string>() + " ";
  const std::string yaml = cm["data"]["rdmagw.yaml"].as<std::string>("");
  if (config_dir.empty() || command.find(config_dir + "/rdmagw.yaml") == std::string::npos) {
    problem("container: the command does not read the ConfigMap's rdmagw.yaml");
  }
  if (command.find(kPlaceholder) == std::string::npos || yaml.find(kPlaceholder) == std::string::npos) {
    problem(std::string("the command and the configuration must both name ") + kPlaceholder);
  }
  bool node_name = false;
  for (const YAML::Node& e : c["env"]) {
    node_name = node_name || (e["name"].as<std::string>() == "NODE_NAME" &&
                              e["valueFrom"]["fieldRef"]["fieldPath"].as<std::string>("") == "spec.nodeName");
  }
  if (!node_name) problem("container: NODE_NAME is not the downward API's spec.nodeName");
  std::string text = yaml;
  for (size_t at; (at = text.find(kPlaceholder)) != std::string::npos;) {
    text.replace(at, std::string(kPlaceholder).size(), "gpu-node-17");
  }
  auto cfg = gateway::parseConfig(text, "deploy/kubernetes/configmap.yaml");
  if (!cfg.isOk()) {
    problem("configuration refused:\n" + cfg.status().message());
    return problems;
  }
  if (cfg->targets.size() != 1) {
    problem("configuration: want one target");
    return problems;
  }
  const gateway::TargetConfig& t = cfg->targets[0];
  if (t.name != "gpu-node-17" || t.kind != "rdma-host") problem("configuration: the target is not the node");
  if (!t.kubernetes.enabled) problem("configuration: no kubernetes block");

  // Each path the gateway reads is the host's own, through a mount. The
  // host's paths are the kubelet's and containerd's defaults.
  const southbound::k8s::KubernetesConfig host;
  std::vector<std::pair<std::string, std::string>> paths = {
      {t.kubernetes.kubelet_socket, host.kubelet_socket},
      {t.kubernetes.pod_logs_dir, host.pod_logs_dir},
      {t.kubernetes.proc_root, "/proc"},
      {t.kubernetes.sysfs_root.empty() ? t.rdma.sysfs_root : t.kubernetes.sysfs_root, "/sys"},
      {t.rdma.sysfs_root, "/sys"},
  };
  if (t.kubernetes.netns_dirs.size() != host.netns_dirs.size()) problem("configuration: netns_dirs differ");
  for (size_t i = 0; i < std::min(t.kubernetes.netns_dirs.size(), host.netns_dirs.size()); ++i) {
    paths.emplace_back(t.kubernetes.netns_dirs[i], host.netns_dirs[i]);
  }
  if (!t.kubernetes.host_netns_file.empty()) paths.emplace_back(t.kubernetes.host_netns_file, "/proc/1/ns/net");
  for (const auto& [path, want] : paths) {
    const std::string got = hostPathOf(path, mounts);
    if (got != want)
      problem("configuration reads " + path + ": on the host " + (got.empty() ? "unmounted" : got) + ", want " + want);
  }

  // Scraped: the container's port, the Service's, the ServiceMonitor's.
  const std::string listen = cfg->prometheus.listen;
  const std::string port = listen.substr(listen.rfind(':') + 1);
  if (!listen.starts_with("0.0.0.0:")) problem("prometheus listens on " + listen + ": not reachable from Prometheus");
  std::string port_name;
  for (const YAML::Node& p : c["ports"]) {
    if (p["containerPort"].as<std::string>() == port) port_name = p["name"].as<std::string>();
  }
  if (port_name.empty()) problem("container: no port " + port);
  bool svc_port = false;
  for (const YAML::Node& p : svc["spec"]["ports"]) {
    svc_port = svc_port || (p["targetPort"].as<std::string>() == port_name && p["name"].as<std::string>() == port_name);
  }
  if (!svc_port) problem("Service: no port " + port_name + " to the container's");
  const YAML::Node pod_labels = ds["spec"]["template"]["metadata"]["labels"];
  for (const auto& kv : svc["spec"]["selector"]) {
    if (pod_labels[kv.first.as<std::string>()].as<std::string>("") != kv.second.as<std::string>()) {
      problem("Service: its selector does not select the DaemonSet's pods");
    }
  }
  for (const auto& kv : sm["spec"]["selector"]["matchLabels"]) {
    if (svc["metadata"]["labels"][kv.first.as<std::string>()].as<std::string>("") != kv.second.as<std::string>()) {
      problem("ServiceMonitor: its selector does not select the Service");
    }
  }
  if (sm["spec"]["endpoints"].size() == 0) problem("ServiceMonitor: no endpoint");
  for (const YAML::Node& e : sm["spec"]["endpoints"]) {
    if (e["port"].as<std::string>("") != port_name) problem("ServiceMonitor: endpoint port is not " + port_name);
    if (!e["honorLabels"].as<bool>(false)) {
      problem("ServiceMonitor: honorLabels must be true (the attributed pod's namespace/pod/container)");
    }
  }
  return problems;
}

std::string joined(const std::vector<std::string>& v) {
  std::string out;
  for (const std::string& s : v) out += s + "\n";
  return out;
}

TEST(DeployTest, ShippedManifestsAreRight) {
  const std::vector<std::string> problems = checkManifests(kDeployDir);
  EXPECT_TRUE(problems.empty()) << joined(problems);
}

TEST(DeployTest, ContainerfileInstallsTheDebianPackageOnDebian12) {
  const std::string file = testing::readFile((kDeployDir / "Containerfile").string());
  EXPECT_NE(file.find("FROM debian:12"), std::string::npos) << file;
  EXPECT_NE(file.find("rdmagw_*_amd64.deb"), std::string::npos) << file;
}

// One edit of a copy of the manifests, and the problem it must cause.
struct Breakage {
  std::string file, from, to, problem;
};

TEST(DeployTest, BrokenManifestsFail) {
  const std::vector<Breakage> cases = {
      {"daemonset.yaml", "automountServiceAccountToken: false", "automountServiceAccountToken: true",
       "automountServiceAccountToken must be false"},
      {"daemonset.yaml", "drop: [ALL]", "drop: [NET_RAW]", "capabilities.drop must be [ALL]"},
      {"daemonset.yaml", "add: [SYS_ADMIN, SYS_PTRACE]", "add: [SYS_ADMIN, SYS_PTRACE, NET_ADMIN]",
       "capabilities.add must be"},
      {"daemonset.yaml", "mountPath: /var/log/pods, readOnly: true", "mountPath: /var/log/pods",
       "hostPath pod-logs is not mounted readOnly"},
      {"daemonset.yaml", "mountPath: /host/proc", "mountPath: /hostproc",
       "configuration reads /host/proc: on the host unmounted, want /proc"},
      {"daemonset.yaml", "hostPath: {path: /sys, type: Directory}", "hostPath: {path: /sys/class, type: Directory}",
       "want /sys"},
      {"daemonset.yaml", "hostPID: true", "hostPID: false", "hostPID must be true"},
      {"configmap.yaml", "pod_logs_dir: /var/log/pods", "pod_logs_dir: /var/log/containers",
       "configuration reads /var/log/containers"},
      {"configmap.yaml", "interval: 10s", "interval: 10 parsecs", "configuration refused"},
      {"service.yaml", "honorLabels: true", "honorLabels: false", "honorLabels must be true"},
      {"service.yaml", "targetPort: metrics", "targetPort: 9100", "Service: no port metrics"},
  };
  for (const Breakage& b : cases) {
    SCOPED_TRACE(b.file + ": " + b.to);
    testing::TempDir tmp("rdmagw-deploy");
    for (const auto& e : fs::directory_iterator(kDeployDir)) fs::copy_file(e.path(), tmp.file(e.path().filename()));
    std::string text = testing::readFile(tmp.file(b.file));
    ASSERT_NE(text.find(b.from), std::string::npos) << b.from;
    text.replace(text.find(b.from), b.from.size(), b.to);
    ASSERT_TRUE(testing::writeFile(tmp.file(b.file), text));
    const std::string problems = joined(checkManifests(tmp.path()));
    EXPECT_NE(problems.find(b.problem), std::string::npos) << problems;
  }
}

}  // namespace
}  // namespace rdmagw::testing
