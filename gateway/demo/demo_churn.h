#pragma once
// `rdmagw-demo --churn CYCLE`: applies the simulator's fault schedule
// (sim/churn.h) to the running demo fabric for soak runs: a leaf's gNMI
// server stops and starts, an RDMA device's sysfs directory goes and
// returns, the devices' sshd stops and starts, snmpd restarts. Every event is
// logged at info as "[churn] <kind> <subject>" so a soak script can tell the
// gateway's warnings it caused from the rest.
//
// With run_for > 0, at that time every fault is undone and then the gNMI
// servers stop for good: no update is sent after that, so the counts in the
// stats file (final=1) can be compared with what the gateway applied.
// The stats file is rewritten every second (write, then rename):
//   notifications_sent=N  updates_sent=N  events=N  final=0|1

#include <chrono>
#include <condition_variable>
#include <mutex>
#include <set>
#include <string>
#include <thread>
#include <utility>
#include <vector>

#include "sim/churn.h"

namespace rdmagw::sim {
class GnmiFleet;
class SimRunner;
class SnmpdLauncher;
class SshdLauncher;
}  // namespace rdmagw::sim

namespace rdmagw::gateway {

class DemoChurn {
 public:
  // Any part may be null (not running): its kinds of fault are left out.
  struct Parts {
    sim::SimRunner* runner = nullptr;
    sim::GnmiFleet* fleet = nullptr;
    sim::SshdLauncher* sshd = nullptr;
    sim::SnmpdLauncher* snmpd = nullptr;
    std::vector<std::pair<std::string, std::string>> rdma_devices;  // (host, device), host-major
  };
  DemoChurn(Parts parts, std::chrono::milliseconds cycle, std::chrono::milliseconds run_for,
            std::string stats_file);
  ~DemoChurn();  // stop()
  DemoChurn(const DemoChurn&) = delete;
  DemoChurn& operator=(const DemoChurn&) = delete;

  void start();
  void stop();  // idempotent; leaves the faults in force

 private:
  void run();
  void apply(const sim::ChurnEvent& e);
  void undoAll();
  void writeStats(bool final) const;
  bool sleepUntil(std::chrono::steady_clock::time_point t);  // false: stopping
  std::pair<std::string, std::string> rdmaDevice(int subject) const;
  std::string subjectName(const sim::ChurnEvent& e) const;

  Parts parts_;
  sim::ChurnSchedule schedule_;
  std::chrono::milliseconds run_for_;
  std::string stats_file_;
  std::thread thread_;
  std::mutex mu_;
  std::condition_variable cv_;
  bool stopping_ = false;  // guarded by mu_
  // The churn thread's own state: faults in force, events applied.
  std::set<int> gnmi_down_, hidden_;
  bool sshd_down_ = false;
  unsigned long long events_ = 0;
};

}  // namespace rdmagw::gateway
