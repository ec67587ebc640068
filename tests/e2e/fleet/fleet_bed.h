#pragma once
// A test bed for fleets: a real etcd, the simulated fabric's real peers
// (host sysfs trees, ESXi behind a real sshd, a Nexus leaf's gNMI server;
// from ReloadBed) and several real `rdmagw run` processes, members of one
// fleet sharing one targets file. What each member collects is read where
// an operator would: its /metrics (rdmagw_target_up) and /healthz.

#include <sys/types.h>

#include <functional>
#include <map>
#include <memory>
#include <set>
#include <string>
#include <vector>

#include "sim/etcd_launcher.h"
#include "sim/tcp_relay.h"
#include "tests/gateway/reload_bed.h"

namespace rdmagw::testing {
using namespace rdmagw::gateway;  // the helpers speak the vocabulary of the code they test

class FleetBed {
 public:
  // Member i's northbound.gnmi settings, the body of a YAML flow map after
  // its listen address (default: plain text), and lines added to its
  // cluster block. Set before start().
  std::function<std::string(int)> gnmi_settings = [](int) { return std::string("insecure: true"); };
  std::function<std::string(int)> cluster_lines = [](int) { return std::string(); };

  // Empty: ok; else why not (the test skips or fails with it).
  std::string start(int members, int hosts, int lease_ttl_s);
  ~FleetBed();

  // Member i (0-based, named m1..): started with its etcd endpoint through
  // its own relay, so one member can be cut off from etcd alone.
  void startMember(int i);
  void kill9(int i);
  // SIGTERM to every member listed at once, then waits for each to exit.
  void stopTogether(const std::vector<int>& members);
  bool alive(int i) const { return pids_[i] > 0; }
  sim::TcpRelay& etcdPath(int i) { return *relays_[i]; }
  sim::EtcdLauncher& etcd() { return etcd_; }
  // The devices, as they saw the members (connections per device).
  testing::ReloadBed& devices() { return *peers_; }
  std::string memberName(int i) const { return "m" + std::to_string(i + 1); }
  int prometheusPort(int i) const { return ports_[i]; }
  // Member i's gNMI server (plain text, loopback).
  std::string gnmiAddress(int i) const { return "127.0.0.1:" + std::to_string(gnmi_ports_[i]); }

  const std::vector<std::string>& targets() const { return targets_; }
  // The targets member i reports up, from its /metrics; empty when it does
  // not answer.
  std::set<std::string> collectedBy(int i);
  // target -> members collecting it, over the live members.
  std::map<std::string, std::set<std::string>> collectors();
  // Waits until every target is collected by exactly one live member.
  bool waitConverged();
  std::string healthz(int i);
  std::string sd(int i);
  std::string log(int i) const;
  std::string dir() const;  // the bed's temp dir
  std::string describe();  // who collects what, for failure messages

 private:
  std::unique_ptr<testing::ReloadBed> peers_;
  sim::EtcdLauncher etcd_;
  std::vector<std::unique_ptr<sim::TcpRelay>> relays_;
  std::vector<pid_t> pids_;
  std::vector<int> ports_;
  std::vector<int> gnmi_ports_;
  std::vector<std::string> targets_;
  int lease_ttl_s_ = 3;
};

}  // namespace rdmagw::testing
