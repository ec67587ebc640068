#include "tests/e2e/fleet/fleet_bed.h"

#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <fstream>
#include <sstream>

#include "tests/e2e/fleet/fleet_member_yaml.h"

namespace rdmagw::testing {
using namespace rdmagw::gateway;  // the helpers speak the vocabulary of the code they test

namespace {

std::string readAll(const std::string& path) {
  std::ifstream in(path);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

}  // namespace

std::string FleetBed::start(int members, int hosts, int lease_ttl_s) {
  lease_ttl_s_ = lease_ttl_s;
  testing::BedOptions o;
  o.hosts = hosts;
  o.esxi_hosts = 1;
  o.gnmi_leaf = true;
  peers_ = std::make_unique<testing::ReloadBed>(o);
  if (std::string why = peers_->startPeers(); !why.empty()) return why;
  if (Status st = etcd_.start(); !st.isOk()) return "etcd: " + st.message();
  std::string yaml;
  for (int h = 1; h <= hosts; ++h) {
    yaml += peers_->hostYaml(h);
    if (h <= 3) yaml += "  placement_group: leaf01\n";  // cabled to the leaf: placed with it
    targets_.push_back(testing::hostName(h));
  }
  yaml += peers_->esxiYaml(1);
  targets_.push_back("esx01");
  yaml += peers_->leafYaml();
  targets_.push_back("leaf01");
  peers_->writeTargets("fabric.yaml", yaml);
  pids_.assign(members, -1);
  for (int i = 0; i < members; ++i) {
    auto relay = std::make_unique<sim::TcpRelay>(etcd_.clientPort());
    if (Status st = relay->start(); !st.isOk()) return "relay: " + st.message();
    relays_.push_back(std::move(relay));
    ports_.push_back(testing::freeLoopbackPort());
    gnmi_ports_.push_back(testing::freeLoopbackPort());
    const std::string cfg = peers_->dir() + "/" + memberName(i) + ".yaml";
    testing::writeFile(cfg,
                       "targets_dir: targets.d\nadmin_socket: off\n"
                       "northbound:\n  prometheus: {listen: \"127.0.0.1:" +
                           std::to_string(ports_[i]) + "\"}\n  gnmi: {listen: \"127.0.0.1:" +
                           std::to_string(gnmi_ports_[i]) + "\", " + gnmi_settings(i) + "}\n" +
                           clusterYaml("http://" + relays_[i]->address(), "test-fleet", memberName(i), lease_ttl_s) +
                           cluster_lines(i));
  }
  return "";
}

FleetBed::~FleetBed() {
  for (size_t i = 0; i < pids_.size(); ++i) {
    if (pids_[i] > 0) testing::stopChild(pids_[i], SIGTERM);
  }
  for (auto& r : relays_) r->stop();
  etcd_.stop();
  if (peers_) peers_->stop();
}

void FleetBed::startMember(int i) {
  const std::string cfg = peers_->dir() + "/" + memberName(i) + ".yaml";
  const std::string log = peers_->dir() + "/" + memberName(i) + ".log";
  const pid_t pid = testing::spawnLogged({RDMAGW_BIN, "run", "--config", cfg}, log);
  pids_[i] = pid;
}

void FleetBed::kill9(int i) {
  if (pids_[i] <= 0) return;
  ::kill(pids_[i], SIGKILL);
  ::waitpid(pids_[i], nullptr, 0);
  pids_[i] = -1;
}

void FleetBed::stopTogether(const std::vector<int>& members) {
  for (int i : members) {
    if (pids_[i] > 0) ::kill(pids_[i], SIGTERM);
  }
  for (int i : members) {
    if (pids_[i] <= 0) continue;
    testing::stopChild(pids_[i], SIGTERM);
    pids_[i] = -1;
  }
}

std::set<std::string> FleetBed::collectedBy(int i) {
  std::set<std::string> out;
  if (pids_[i] <= 0) return out;
  const std::string body = testing::httpGet("http://127.0.0.1:" + std::to_string(ports_[i]) + "/metrics");
  const std::string head = "rdmagw_target_up{target=\"";
  for (size_t at = body.find(head); at != std::string::npos; at = body.find(head, at + 1)) {
    const size_t name_end = body.find('"', at + head.size());
    const size_t line_end = body.find('\n', at);
    if (name_end == std::string::npos || line_end == std::string::npos) break;
    if (body.compare(line_end - 2, 2, " 1") == 0) out.insert(body.substr(at + head.size(), name_end - at - head.size()));
  }
  return out;
}

std::map<std::string, std::set<std::string>> FleetBed::collectors() {
  std::map<std::string, std::set<std::string>> out;
  for (size_t i = 0; i < pids_.size(); ++i) {
    for (const std::string& t : collectedBy(int(i))) out[t].insert(memberName(int(i)));
  }
  return out;
}

bool FleetBed::waitConverged() {
  return testing::waitUntil([&] {
    std::map<std::string, std::set<std::string>> c = collectors();
    for (const std::string& t : targets_) {
      auto it = c.find(t);
      if (it == c.end() || it->second.size() != 1) return false;
    }
    return true;
  }, testing::kEventWait, std::chrono::milliseconds(250));
}

std::string FleetBed::healthz(int i) {
  return testing::httpGet("http://127.0.0.1:" + std::to_string(ports_[i]) + "/healthz");
}

std::string FleetBed::sd(int i) {
  return testing::httpGet("http://127.0.0.1:" + std::to_string(ports_[i]) + "/sd");
}

std::string FleetBed::log(int i) const { return readAll(peers_->dir() + "/" + memberName(i) + ".log"); }

std::string FleetBed::dir() const { return peers_->dir(); }

std::string FleetBed::describe() {
  std::ostringstream s;
  for (const auto& [t, ms] : collectors()) {
    s << t << ":";
    for (const std::string& m : ms) s << " " << m;
    s << "\n";
  }
  return s.str();
}

}  // namespace rdmagw::testing
