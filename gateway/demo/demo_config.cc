#include "gateway/demo/demo_config.h"

#include "sim/device_shell.h"

#include <algorithm>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <set>

namespace rdmagw::gateway {

namespace fs = std::filesystem;

Result<GatewayConfig> demoConfig(const std::string& sim_dir, const std::string& listen,
                                 std::chrono::milliseconds interval) {
  GatewayConfig cfg;
  cfg.prometheus.listen = listen;
  if (Status st = cfg.prometheus.validate(); !st.isOk()) return st;
  std::error_code ec;
  std::vector<std::string> hosts;
  for (const auto& entry : fs::directory_iterator(sim_dir, ec)) {
    if (fs::is_directory(entry.path() / "sys" / "class" / "infiniband")) {
      hosts.push_back(entry.path().filename().string());
    }
  }
  if (ec) return Status::ioError(sim_dir + ": " + ec.message());
  if (hosts.empty()) return Status::notFound(sim_dir + ": the simulator wrote no hosts");
  std::sort(hosts.begin(), hosts.end());
  for (const std::string& host : hosts) {
    TargetConfig t;
    t.name = host;
    t.kind = "rdma-host";
    t.transport = "sysfs";
    t.interval = interval;
    t.labels = {{"fabric", "sim"}};
    t.rdma.sysfs_root = (fs::path(sim_dir) / host / "sys").string();
    t.rdma.ethtool = southbound::rdma::RdmaConfig::EthtoolMode::kText;
    t.rdma.ethtool_dir = (fs::path(sim_dir) / host / "ethtool").string();
    cfg.targets.push_back(std::move(t));
  }
  return cfg;
}

std::vector<SimCliDevice> findSimCliDevices(const std::string& sim_dir) {
  std::vector<SimCliDevice> out;
  std::error_code ec;
  for (const auto& entry : fs::directory_iterator(sim_dir, ec)) {
    std::ifstream os(entry.path() / "os");
    std::string kind;
    if (!(os >> kind)) continue;
    if (kind == "nxos") out.push_back({entry.path().filename().string(), "nexus"});
    if (kind == "esxi") out.push_back({entry.path().filename().string(), "esxi"});
  }
  std::sort(out.begin(), out.end(), [](const SimCliDevice& a, const SimCliDevice& b) { return a.name < b.name; });
  return out;
}

void addSimCliTargets(GatewayConfig& cfg, const std::vector<SimCliDevice>& devices,
                      const SimSshEndpoint& endpoint, std::chrono::milliseconds interval,
                      const SimGnmiEndpoint* gnmi) {
  for (const SimCliDevice& d : devices) {
    auto key = endpoint.key_files.find(d.name);
    if (key == endpoint.key_files.end()) continue;
    TargetConfig t;
    t.name = d.name;
    t.kind = d.kind;
    t.transport = "ssh";
    t.address = "127.0.0.1";
    t.interval = interval;
    t.labels = {{"fabric", "sim"}};
    t.ssh.host = t.address;
    t.ssh.port = endpoint.port;
    t.ssh.username = "root";  // the simulator's sshd forces each key's device command
    t.ssh.key_file = key->second;
    t.ssh.known_hosts_file = endpoint.known_hosts_file;
    if (gnmi != nullptr && d.kind == "nexus" && gnmi->address.count(d.name)) {
      t.transport = "auto";
      t.gnmi.address = gnmi->address.at(d.name);
      t.gnmi.ca_file = gnmi->ca_file;
      t.gnmi.tls = !gnmi->ca_file.empty();
      t.gnmi.plaintext = gnmi->ca_file.empty();
      t.gnmi.username = gnmi->username;
      t.gnmi.password_env = gnmi->password_env;
      t.gnmi.sample_interval = std::max(interval, std::chrono::milliseconds(1000));  // NX-OS minimum
      t.gnmi.retry_gnmi_after = std::chrono::milliseconds(10000);  // demo: come back quickly
    }
    cfg.targets.push_back(std::move(t));
  }
}

Status addSimSshDevices(const std::string& sim_dir, std::chrono::milliseconds interval,
                        sim::SshdLauncher& sshd, GatewayConfig& cfg, const SimGnmiEndpoint* gnmi) {
  const std::vector<SimCliDevice> devices = findSimCliDevices(sim_dir);
  if (devices.empty()) return Status::ok();
  const std::string shell = sim::defaultShellPath();
  if (shell.empty()) return Status::notFound("rdmagw-sim-shell not found (set RDMAGW_SIM_SHELL)");
  if (geteuid() != 0) return Status::unavailable("the simulated devices' sshd needs root");
  if (!fs::exists("/usr/sbin/sshd")) return Status::notFound("/usr/sbin/sshd missing (openssh-server)");
  for (const SimCliDevice& d : devices) {
    if (d.kind != "esxi") continue;
    // The ESXi shell runs compound commands through these esxcli/vsish shims.
    if (Status st = sim::installEsxiShims((fs::path(sim_dir) / d.name).string(), shell); !st.isOk()) return st;
  }
  if (Status st = sshd.start(); !st.isOk()) return st;
  SimSshEndpoint endpoint;
  endpoint.port = sshd.port();
  endpoint.known_hosts_file = sim_dir + "/.known_hosts";  // hidden: not a device directory
  std::ofstream(endpoint.known_hosts_file) << sshd.knownHostsLine() << "\n";
  for (const SimCliDevice& d : devices) {
    Result<sim::ClientKey> key = sshd.addDevice(d.name, shell + " --dir " + sim_dir + " --device " + d.name);
    if (!key.isOk()) return Status::internal(d.name + ": " + key.status().message());
    endpoint.key_files[d.name] = key->private_key_file;
  }
  addSimCliTargets(cfg, devices, endpoint, interval, gnmi);
  return Status::ok();
}

void addSimAnalytics(GatewayConfig& cfg, const sim::Fabric& fabric, std::chrono::milliseconds interval,
                     SimLinks links) {
  using analytics::LinkEnd;
  std::set<std::string> targets;
  for (const TargetConfig& t : cfg.targets) targets.insert(t.name);
  cfg.analytics_enabled = true;
  cfg.analytics.period = interval;
  cfg.analytics.window = 10 * interval;
  // The demo's storms (--scenario pause-storm) show within half a window,
  // not after the production default's 30 s.
  cfg.analytics.pause_storm_for = 5 * interval;
  cfg.analytics.no_drop_priorities = {fabric.config().roce_priority};
  cfg.analytics.links.clear();
  if (links == SimLinks::kLldp) return;  // the leaves' LLDP says it all
  for (int e = 0; e < fabric.endpointCount(); ++e) {
    const std::string name = fabric.endpointName(e);  // host01:mlx5_0, esx02:vmnic1
    const size_t colon = name.find(':');
    analytics::LinkConfig link;
    link.a = LinkEnd{fabric.switches()[fabric.attachment(e).sw].name, LinkEnd::Kind::kInterface,
                     fabric.switchPortOf(e).name};
    if (e < fabric.deviceCount()) {
      link.b = LinkEnd{name.substr(0, colon), LinkEnd::Kind::kRdmaPort, name.substr(colon + 1) + "/1"};
    } else {
      link.b = LinkEnd{name.substr(0, colon), LinkEnd::Kind::kNic, name.substr(colon + 1)};
    }
    if (targets.count(link.a.target) && targets.count(link.b.target)) cfg.analytics.links.push_back(std::move(link));
  }
}

}  // namespace rdmagw::gateway
