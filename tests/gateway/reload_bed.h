#pragma once
// A test bed for live reloads: the simulated fabric (host sysfs trees, a
// Nexus leaf's gNMI server, ESXi hosts behind a real sshd), a main config
// file and its targets_dir, and a Pipeline + Reloader over them, as
// `rdmagw run` wires them.

#include <chrono>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "gateway/runtime/pipeline.h"
#include "gateway/runtime/reloader.h"
#include "sim/gnmi/gnmi_fleet.h"
#include "sim/sim_runner.h"
#include "sim/sshd_launcher.h"
#include "tests/support/test_support.h"

namespace rdmagw::testing {
using namespace rdmagw::gateway;  // the helpers speak the vocabulary of the code they test

struct BedOptions {
  int hosts = 8;        // host01.. (sysfs trees)
  int esxi_hosts = 2;   // esx01.. (SSH)
  bool gnmi_leaf = true;  // leaf01 over gNMI
  bool gnmi_northbound = false;
  bool watch_files = true;
  std::chrono::milliseconds interval{500};
};

class ReloadBed {
 public:
  explicit ReloadBed(BedOptions options = {});
  ~ReloadBed();

  // The simulator and its peers (sshd, gNMI), and the main config file.
  // Empty: ok; else why not (the test skips or fails with it).
  std::string startPeers();
  // The gateway on the files written so far, with its reloader.
  std::string startGateway();
  void stop();

  // A targets file, replaced atomically (write then rename), so the watch
  // sees one change.
  void writeTargets(const std::string& file, const std::string& yaml);
  void removeTargets(const std::string& file);

  // Target entries for the simulated devices (one list item each).
  std::string hostYaml(int host, const std::string& extra_labels = "") const;   // host01..
  std::string esxiYaml(int esx, const std::string& extra_labels = "") const;   // esx01..
  std::string leafYaml(const std::string& extra_labels = "") const;             // leaf01 over gNMI

  Pipeline& pipeline() { return *pipeline_; }
  Reloader& reloader() { return *reloader_; }
  sim::SshdLauncher& sshd() { return sshd_; }
  sim::GnmiTarget& leaf() { return fleet_->target(0); }
  const std::string& dir() const { return dir_; }
  std::string targetsDir() const { return dir_ + "/targets.d"; }
  std::string configPath() const { return dir_ + "/rdmagw.yaml"; }
  std::vector<std::string> running() { return pipeline_->targetNames(); }
  TargetStatus status(const std::string& target);  // name empty when absent
  // Waits until each named target is up.
  bool waitUp(const std::vector<std::string>& names);

 private:
  BedOptions options_;
  testing::TempDir tmp_{"rdmagw-reload"};
  std::string dir_ = tmp_.path();
  std::string sim_dir_ = dir_ + "/sim";
  std::unique_ptr<sim::SimRunner> sim_;
  std::unique_ptr<sim::GnmiFleet> fleet_;
  sim::SshdLauncher sshd_;
  std::map<std::string, std::string> key_files_;  // device -> key
  int ssh_port_ = 0;
  std::string known_hosts_;
  std::unique_ptr<Pipeline> pipeline_;
  std::unique_ptr<Reloader> reloader_;
};

std::string hostName(int i);  // host01..

}  // namespace rdmagw::testing
