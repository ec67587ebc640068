#include "tests/gateway/reload_bed.h"

#include <unistd.h>

#include <cstdio>
#include <filesystem>
#include <thread>

#include "gateway/demo/demo_config.h"
#include "sim/fabric.h"

namespace rdmagw::testing {
using namespace rdmagw::gateway;  // the helpers speak the vocabulary of the code they test

namespace fs = std::filesystem;
using std::chrono::milliseconds;

std::string hostName(int i) {
  char buf[16];
  std::snprintf(buf, sizeof buf, "host%02d", i);
  return buf;
}

namespace {

std::string esxName(int i) {
  char buf[16];
  std::snprintf(buf, sizeof buf, "esx%02d", i);
  return buf;
}

std::string ms(milliseconds d) { return std::to_string(d.count()) + "ms"; }

}  // namespace

ReloadBed::ReloadBed(BedOptions options) : options_(options) {
  fs::create_directories(targetsDir());
}

ReloadBed::~ReloadBed() { stop(); }

std::string ReloadBed::hostYaml(int host, const std::string& extra_labels) const {
  const std::string h = hostName(host);
  return "- name: " + h + "\n  kind: rdma-host\n  interval: " + ms(options_.interval) +
         "\n  labels: {fabric: sim" + extra_labels + "}\n  rdma:\n    sysfs_root: " + sim_dir_ + "/" + h +
         "/sys\n    ethtool: text\n    ethtool_dir: " + sim_dir_ + "/" + h + "/ethtool\n    lldp: off\n";
}

std::string ReloadBed::esxiYaml(int esx, const std::string& extra_labels) const {
  const std::string e = esxName(esx);
  auto key = key_files_.find(e);
  return "- name: " + e + "\n  kind: esxi\n  address: 127.0.0.1\n  interval: " + ms(options_.interval) +
         "\n  labels: {fabric: sim" + extra_labels + "}\n  credentials: {username: root, key_file: " +
         (key == key_files_.end() ? std::string("/missing") : key->second) + "}\n  ssh: {port: " +
         std::to_string(ssh_port_) + ", known_hosts: " + known_hosts_ + "}\n";
}

std::string ReloadBed::leafYaml(const std::string& extra_labels) const {
  return "- name: leaf01\n  kind: nexus\n  transport: gnmi\n  address: 127.0.0.1\n  interval: 1s\n"
         "  labels: {fabric: sim" + extra_labels + "}\n  gnmi: {port: " +
         std::to_string(fleet_ ? fleet_->target(0).port() : 1) + ", plaintext: true}\n";
}

void ReloadBed::writeTargets(const std::string& file, const std::string& yaml) {
  const std::string tmp = targetsDir() + "/.tmp-" + file;
  testing::writeFile(tmp, yaml);
  fs::rename(tmp, targetsDir() + "/" + file);
}

void ReloadBed::removeTargets(const std::string& file) {
  std::error_code ec;
  fs::remove(targetsDir() + "/" + file, ec);
}

std::string ReloadBed::startPeers() {
  if (geteuid() != 0) return "the simulated devices' sshd needs root";
  sim::FabricConfig fc;
  fc.hosts = options_.hosts;
  fc.esxi_hosts = options_.esxi_hosts;
  fc.switches = 1;
  fc.calm = true;
  sim_ = std::make_unique<sim::SimRunner>(fc, sim_dir_, milliseconds(200));
  if (options_.gnmi_leaf) {
    sim::GnmiTargetOptions opts;
    fleet_ = std::make_unique<sim::GnmiFleet>(sim::Fabric(fc).switches(), opts);
    sim::GnmiFleet* fleet = fleet_.get();
    sim_->setTickObserver([fleet](const sim::Fabric& f) { fleet->publish(f, nowNs()); });
  }
  if (Status st = sim_->start(); !st.isOk()) return "sim: " + st.message();
  if (fleet_) {
    if (Status st = fleet_->start(); !st.isOk()) return "gNMI fleet: " + st.message();
  }
  GatewayConfig ssh_cfg;
  if (Status st = addSimSshDevices(sim_dir_, options_.interval, sshd_, ssh_cfg); !st.isOk()) {
    return "sshd: " + st.message();
  }
  for (const TargetConfig& t : ssh_cfg.targets) {
    key_files_[t.name] = t.ssh.key_file;
    ssh_port_ = t.ssh.port;
    known_hosts_ = t.ssh.known_hosts_file;
  }
  std::string main = "targets_dir: targets.d\nnorthbound:\n  prometheus: {listen: \"127.0.0.1:0\"}\n";
  if (options_.gnmi_northbound) main += "  gnmi: {listen: \"127.0.0.1:0\", insecure: true}\n";
  testing::writeFile(configPath(), main);
  return "";
}

std::string ReloadBed::startGateway() {
  Result<GatewayConfig> cfg = loadConfigFile(configPath());
  if (!cfg.isOk()) return "config: " + cfg.status().message();
  GatewayConfig loaded = cfg.value();
  pipeline_ = std::make_unique<Pipeline>(std::move(cfg).value());
  if (Status st = pipeline_->start(); !st.isOk()) return "pipeline: " + st.message();
  ReloaderOptions ro;
  ro.watch_files = options_.watch_files;
  ro.debounce = milliseconds(300);
  reloader_ = std::make_unique<Reloader>(*pipeline_, configPath(), std::move(loaded), std::move(ro));
  if (Status st = reloader_->start(); !st.isOk()) return "reloader: " + st.message();
  return "";
}

void ReloadBed::stop() {
  if (reloader_) reloader_->stop();
  if (pipeline_) pipeline_->stop();
  reloader_.reset();
  pipeline_.reset();
  if (fleet_) fleet_->stop();
  sshd_.stop();
  if (sim_) sim_->stop();
}

TargetStatus ReloadBed::status(const std::string& target) {
  for (const TargetStatus& t : pipeline_->store().targets()) {
    if (t.name == target) return t;
  }
  return {};
}

bool ReloadBed::waitUp(const std::vector<std::string>& names) {
  return testing::waitUntil([&] {
    for (const std::string& n : names) {
      if (!status(n).health.up) return false;
    }
    return true;
  });
}

}  // namespace rdmagw::testing
